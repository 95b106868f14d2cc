import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accessControlProtocol, accessControlType } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { feedback } from '../../../app/feedback.tsx';
import { FormDialog, ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { areaOptions } from '../../options.ts';
import { PoolAreaCell, TwoLineCell } from '../cells.tsx';
import { SUPER } from '../codes.ts';
import { AssignAreaDialog } from '../pool/AssignAreaDialog.tsx';
import { poolActions } from '../pool/pool-actions.ts';
import { usePoolAssign } from '../pool/use-assign.ts';
import { assignedOptions } from '../pool/filters.ts';
import { REGISTER_DEFAULTS, registerDevicesForm } from './register-devices.tsx';
import '../access-control.css';

interface DeviceRow {
  Id: number;
  AreaId: number | null;
  AreaName: string | null;
  SerialNumber: string;
  Name: string;
  Protocol: number;
  Type: number;
  DoorCount: number;
  Remark: string | null;
  ChannelCount: number;
  AssignedAt: string | null;
  CreatedAt: string;
  [key: string]: unknown;
}

const RESOURCE = 'DeviceRegistration';

/**
 * Device registration (SuperAdmin): controllers enter the pool by serial number and are assigned to one of
 * the caller's areas, or returned to the pool. The list shows the pool and the caller's areas.
 */
export default function DeviceRegistrationPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areas = useAreaStore((s) => s.areas);
  const [registering, setRegistering] = useState(false);
  const { request, ask, unassign } = usePoolAssign(RESOURCE);
  const form = useMemo(() => registerDevicesForm(areaOptions(areas)), [areas]);

  const config = useMemo<ListPageConfig<DeviceRow>>(
    () => ({
      resource: RESOURCE,
      read: SUPER,
      write: SUPER,
      actions: { batchRemove: true, export: true },
      filters: [
        { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.device.keyword' },
        {
          name: 'Protocol',
          label: 'accessControl.field.Protocol',
          kind: 'select',
          options: { kind: 'enum', def: accessControlProtocol },
          width: 120,
        },
        {
          name: 'Type',
          label: 'accessControl.field.Type',
          kind: 'select',
          options: { kind: 'enum', def: accessControlType },
          width: 150,
        },
        {
          name: 'Assigned',
          label: 'accessControl.field.Assigned',
          kind: 'select',
          options: assignedOptions,
          width: 130,
        },
        { name: 'AreaId', label: 'accessControl.field.Area', kind: 'select', options: areaOptions(areas) },
      ],
      columns: [
        {
          key: 'SerialNumber',
          title: 'accessControl.field.SerialNumber',
          sort: 'SerialNumber',
          width: 130,
          fixed: 'left',
        },
        { key: 'Name', title: 'accessControl.field.DeviceName', sort: 'Name', width: 160 },
        {
          key: 'Protocol',
          title: 'accessControl.field.Protocol',
          kind: 'enum',
          enumDef: accessControlProtocol,
          width: 80,
        },
        {
          key: 'Type',
          title: 'accessControl.field.Type',
          width: 140,
          render: (row, tr) => (
            <TwoLineCell
              main={tr(`enum.accessControlType.${row.Type}` as never)}
              sub={tr('acUi.device.doors', { count: row.DoorCount })}
            />
          ),
        },
        {
          key: 'AreaName',
          title: 'accessControl.field.Area',
          width: 150,
          render: (row) => <PoolAreaCell name={row.AreaName} pool="acUi.pool.devicePool" />,
        },
        { key: 'ChannelCount', title: 'accessControl.field.ChannelCount', kind: 'number', width: 80 },
        { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true, width: 160 },
        { key: 'AssignedAt', title: 'accessControl.field.AssignedAt', kind: 'instant', width: 170 },
        {
          key: 'CreatedAt',
          title: 'accessControl.field.CreatedAt',
          kind: 'instant',
          sort: 'CreatedAt',
          width: 170,
          responsive: ['xxl'],
        },
      ],
      defaultSort: { field: 'CreatedAt', order: 'desc' },
      ...poolActions<DeviceRow>({
        resource: RESOURCE,
        t,
        ask,
        unassign,
        assignOne: (row) => t('acUi.device.assignOne', { serial: row.SerialNumber }),
        assignMany: (count) => t('acUi.device.assignMany', { count }),
        confirmUnassign: 'acUi.device.confirmUnassign',
        confirmBatchUnassign: 'acUi.device.confirmBatchUnassign',
      }),
      toolbar: (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setRegistering(true)}
          data-testid="register-devices"
        >
          {t('acUi.device.register')}
        </Button>
      ),
    }),
    [areas, ask, unassign, t],
  );

  async function register(body: Record<string, unknown>) {
    const created = await http.post<DeviceRow[]>(`/api/${RESOURCE}`, body, { quiet: true });
    feedback.success(t('accessControl.message.devicesRegistered', { count: created.length }));
    await queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] });
  }

  return (
    <>
      <ListPage config={config} title={t('route.deviceRegistration')} />
      <FormDialog
        open={registering}
        title={t('acUi.device.register')}
        form={form}
        item={null}
        defaults={REGISTER_DEFAULTS}
        onClose={() => setRegistering(false)}
        onSubmit={register}
      />
      <AssignAreaDialog request={request} />
    </>
  );
}
