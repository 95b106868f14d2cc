import type { AccessControlDeviceItem } from '@gatehouse/shared';
import { accessControlProtocol, accessControlType } from '@gatehouse/shared';
import { TwoLineCell } from '../cells.tsx';
import { assignedFilter } from '../pool/filters.ts';
import { PoolPage, poolAreaColumn, type PoolDeclaration } from '../pool/PoolPage.tsx';
import { REGISTER_DEFAULTS, registerDevicesForm } from './register-devices.tsx';

type DeviceRow = AccessControlDeviceItem;

const DEVICE_POOL: PoolDeclaration<DeviceRow> = {
  resource: 'DeviceRegistration',
  title: 'route.deviceRegistration',
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
    assignedFilter,
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
    poolAreaColumn('acUi.pool.devicePool'),
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
  register: {
    label: 'acUi.device.register',
    testId: 'register-devices',
    form: registerDevicesForm,
    defaults: REGISTER_DEFAULTS,
    done: 'accessControl.message.devicesRegistered',
    count: (reply) => (reply as DeviceRow[]).length,
  },
  assignOne: (row, t) => t('acUi.device.assignOne', { serial: row.SerialNumber }),
  assignMany: (count, t) => t('acUi.device.assignMany', { count }),
  confirmUnassign: 'acUi.device.confirmUnassign',
  confirmBatchUnassign: 'acUi.device.confirmBatchUnassign',
};

/**
 * Device registration (SuperAdmin): controllers enter the pool by serial number and are assigned to one of
 * the caller's areas, or returned to the pool. The list shows the pool and the caller's areas.
 */
export default function DeviceRegistrationPage() {
  return <PoolPage pool={DEVICE_POOL} />;
}
