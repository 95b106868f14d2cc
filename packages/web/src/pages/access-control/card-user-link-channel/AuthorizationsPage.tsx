import { useCallback, useMemo, useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { issueStatus, ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { useHubEvents } from '../../../core/hub.ts';
import { feedback } from '../../../core/feedback.tsx';
import { ListPage, useCan, type ListPageConfig } from '../../../components/list-page/index.ts';
import { departmentOptions, peopleGroupOptions } from '../../options.ts';
import { CardNumbersCell, IssueStatusTag, TwoLineCell, ValidityCell } from '../cells.tsx';
import { deviceOptions } from '../options.ts';
import { BatchGrantDialog } from './BatchGrantDialog.tsx';
import { DeviceStatusSummary, STATUS_COUNTS_KEY } from './DeviceStatusSummary.tsx';
import { GrantDialog } from './GrantDialog.tsx';
import type { AuthorizationRow } from './types.ts';
import { ValidityDialog } from './ValidityDialog.tsx';
import '../access-control.css';

const RESOURCE = 'CardUserLinkChannel';
const LIVE_EVENTS = ['syncProgress'] as const;

/**
 * The authorisation list (Admin or User): which holder opens which channel, until when, and where each
 * authorisation stands on its controller (issue status). Above it, per device, how many wait in each status.
 * Granting to one holder, changing validity and revoking are for both codes; batch grants for the Admin.
 */
export default function AuthorizationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canBatch = useCan(ACCESS_CONTROL_ADMIN);
  const [granting, setGranting] = useState<'one' | 'batch' | null>(null);
  const [editing, setEditing] = useState<AuthorizationRow | null>(null);
  // A count picked in the summary re-opens the list on that device and status.
  const [pick, setPick] = useState<{ key: number; filters: Record<string, unknown> | undefined }>({
    key: 0,
    filters: undefined,
  });

  const reload = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] }),
        queryClient.invalidateQueries({ queryKey: [STATUS_COUNTS_KEY] }),
      ]),
    [queryClient],
  );

  // A finished sync pass moved issue statuses on the controller's side: the list follows without a reload.
  useHubEvents(LIVE_EVENTS, (message) => {
    if (message.Phase === 'done') void queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] });
  });

  const revoke = useCallback(
    async (ids: number[]) => {
      if (ids.length === 0) return;
      const result = await http.post<{ Revoked: number; Removed: number }>(`/api/${RESOURCE}/Revoke`, {
        Ids: ids,
      });
      feedback.success(t('accessControl.message.revoked', { count: result.Revoked + result.Removed }));
      await queryClient.invalidateQueries({ queryKey: [STATUS_COUNTS_KEY] });
    },
    [queryClient, t],
  );

  const config = useMemo<ListPageConfig<AuthorizationRow>>(
    () => ({
      resource: RESOURCE,
      read: ACCESS_CONTROL_ANY,
      write: ACCESS_CONTROL_ANY,
      actions: { export: true },
      defaultSort: { field: 'UpdatedAt', order: 'desc' },
      ...(pick.filters ? { initialFilters: pick.filters } : {}),
      filters: [
        {
          name: 'Keyword',
          label: 'adminUi.keyword',
          kind: 'text',
          placeholder: 'acUi.auth.keyword',
          width: 200,
        },
        {
          name: 'DeviceId',
          label: 'accessControl.field.DeviceName',
          kind: 'select',
          options: deviceOptions,
          width: 220,
        },
        {
          name: 'IssueStatus',
          label: 'accessControl.field.IssueStatus',
          kind: 'select',
          options: { kind: 'enum', def: issueStatus },
          width: 130,
        },
        {
          name: 'DepartmentId',
          label: 'accessControl.field.Department',
          kind: 'treeSelect',
          options: departmentOptions,
        },
        {
          name: 'PeopleGroupId',
          label: 'accessControl.field.PeopleGroup',
          kind: 'select',
          options: peopleGroupOptions,
        },
        {
          name: 'Revoked',
          label: 'accessControl.field.Revoked',
          kind: 'select',
          width: 110,
          options: {
            kind: 'static',
            options: (tr) => [
              { value: false, label: tr('acUi.auth.active') },
              { value: true, label: tr('accessControl.field.Revoked') },
            ],
          },
        },
      ],
      columns: [
        {
          key: 'HolderName',
          title: 'accessControl.field.HolderName',
          sort: 'HolderName',
          width: 110,
          fixed: 'left',
          render: (row, tr) => (
            <Space size={4} className="list-page-nowrap">
              <span>{row.HolderName}</span>
              {row.HolderDisabled && <Tag>{tr('enum.disabledFlag.true')}</Tag>}
            </Space>
          ),
        },
        // Less asked-for columns appear on wide screens only, so the issue status and actions fit at 1366 px.
        {
          key: 'DepartmentName',
          title: 'accessControl.field.Department',
          ellipsis: true,
          width: 130,
          responsive: ['xxl'],
        },
        {
          key: 'CardNumbers',
          title: 'accessControl.field.Cards',
          width: 150,
          responsive: ['xxl'],
          render: (row) => <CardNumbersCell numbers={row.CardNumbers} max={1} />,
        },
        {
          key: 'DeviceName',
          title: 'accessControl.field.DeviceName',
          sort: 'DeviceName',
          width: 170,
          render: (row) => <TwoLineCell main={row.DeviceName} sub={row.SerialNumber} />,
        },
        {
          key: 'ChannelName',
          title: 'accessControl.field.ChannelName',
          width: 150,
          render: (row, tr) => (
            <TwoLineCell
              main={row.ChannelName}
              sub={`${tr(`enum.doorNumber.${row.DoorNumber}` as never)} · ${tr(
                `enum.doorDirection.${row.Direction}` as never,
              )}`}
            />
          ),
        },
        {
          key: 'ValidTo',
          title: 'acUi.holder.validity',
          width: 170,
          render: (row) => (
            <ValidityCell from={row.ValidFrom} to={row.ValidTo} custom={row.CustomValidity} stacked />
          ),
        },
        {
          key: 'IssueStatus',
          title: 'accessControl.field.IssueStatus',
          sort: 'IssueStatus',
          width: 110,
          render: (row, tr) => (
            <Space size={4} className="list-page-nowrap">
              <IssueStatusTag value={row.IssueStatus} />
              {row.Revoked && <Tag>{tr('accessControl.field.Revoked')}</Tag>}
            </Space>
          ),
        },
        {
          key: 'UpdatedAt',
          title: 'accessControl.field.UpdatedAt',
          kind: 'instant',
          sort: 'UpdatedAt',
          width: 170,
          responsive: ['xxl'],
        },
      ],
      rowActions: [
        {
          key: 'validity',
          label: 'acUi.auth.changeValidity',
          visible: (row) => !row.Revoked,
          run: (row) => setEditing(row),
        },
        {
          key: 'revoke',
          label: 'acUi.auth.revoke',
          danger: true,
          visible: (row) => !row.Revoked,
          confirm: 'acUi.auth.confirmRevoke',
          run: (row) => revoke([row.Id]),
        },
      ],
      batchActions: [
        {
          key: 'revoke',
          label: 'acUi.auth.batchRevoke',
          danger: true,
          confirm: 'acUi.auth.confirmBatchRevoke',
          run: (rows) => revoke(rows.filter((r) => !r.Revoked).map((r) => r.Id)),
        },
      ],
      toolbar: (
        <>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setGranting('one')}
            data-testid="grant-one"
          >
            {t('acUi.grant.open')}
          </Button>
          {canBatch && (
            <Button
              icon={<UsergroupAddOutlined />}
              onClick={() => setGranting('batch')}
              data-testid="grant-batch"
            >
              {t('acUi.grant.batchOpen')}
            </Button>
          )}
        </>
      ),
    }),
    [canBatch, pick.filters, revoke, t],
  );

  const header = (
    <DeviceStatusSummary
      onPick={(deviceId, status) =>
        setPick((p) => ({
          key: p.key + 1,
          filters: { DeviceId: deviceId, ...(status === null ? {} : { IssueStatus: status }) },
        }))
      }
    />
  );

  const granted = () => {
    setGranting(null);
    void reload();
  };

  return (
    <>
      <ListPage key={pick.key} config={config} header={header} title={t('route.authorizationList')} />
      <GrantDialog open={granting === 'one'} onClose={() => setGranting(null)} onGranted={granted} />
      <BatchGrantDialog open={granting === 'batch'} onClose={() => setGranting(null)} onGranted={granted} />
      <ValidityDialog
        item={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
      />
    </>
  );
}
