import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  CardUserLinkChannelApi,
  issueStatus,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { i18next } from '../../../i18n/index.ts';
import { ListPage, useCan, type ListPageConfig } from '../../../components/list-page/index.ts';
import { holderGroups } from '../card-user/holder-form.tsx';
import { CardNumbersCell, IssueStatusTag, TwoLineCell, ValidityCell } from '../cells.tsx';
import { dialogState } from '../dialog-state.ts';
import { reloadList, useLiveList } from '../live.ts';
import { deviceFilter, enumFilter } from '../options.ts';
import { accessCheckAction } from '../access-check/links.ts';
import { DeviceStatusSummary } from './DeviceStatusSummary.tsx';
import { GrantDialog, type GrantMode } from './GrantDialog.tsx';
import type { AuthorizationRow } from './types.ts';
import { ValidityDialog } from './ValidityDialog.tsx';
import '../access-control.css';

const api = CardUserLinkChannelApi;
const granting = dialogState<GrantMode>();
const editing = dialogState<AuthorizationRow>();

/** Revokes authorisations (all or none) and says how many; the list and its counts reload after it. */
async function revoke(ids: number[]) {
  if (ids.length === 0) return;
  const result = await call(api.revoke, { body: { Ids: ids } });
  feedback.success(i18next.t('accessControl.message.revoked', { count: result.Revoked + result.Removed }));
}

/** Granting to one holder for both codes; a batch grant for the Admin. */
function GrantButtons() {
  const { t } = useTranslation();
  const canBatch = useCan(ACCESS_CONTROL_ADMIN);
  return (
    <>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => granting.open('one')}
        data-testid="grant-one"
      >
        {t('acUi.grant.open')}
      </Button>
      {canBatch && (
        <Button
          icon={<UsergroupAddOutlined />}
          onClick={() => granting.open('batch')}
          data-testid="grant-batch"
        >
          {t('acUi.grant.batchOpen')}
        </Button>
      )}
    </>
  );
}

/**
 * The authorisation list (Admin or User): which holder opens which channel, until when, and where each
 * authorisation stands on its controller (issue status). Changing validity and revoking are for both codes.
 */
/** This holder at this door: the access check on the holder's first card and the authorisation's channel. */
const checkGrant = accessCheckAction<AuthorizationRow>(
  (row) => ({ CardNumber: row.CardNumbers[0], ChannelId: row.ChannelId }),
  (row) => row.CardNumbers.length > 0 && row.DoorNumber > 0,
);

const config: ListPageConfig<AuthorizationRow> = {
  api,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  actions: { export: true },
  defaultSort: { field: 'UpdatedAt', order: 'desc' },
  filters: [
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.auth.keyword', width: 200 },
    deviceFilter,
    enumFilter('IssueStatus', 'accessControl.field.IssueStatus', issueStatus, 130),
    holderGroups.department,
    holderGroups.peopleGroup,
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
      key: 'TimeProfileName',
      title: 'accessControl.field.TimeProfile',
      width: 110,
      render: (row, tr) => row.TimeProfileName ?? tr('acUi.rules.anyTime'),
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
      run: (row) => editing.open(row),
    },
    {
      key: 'revoke',
      label: 'acUi.auth.revoke',
      danger: true,
      visible: (row) => !row.Revoked,
      confirm: 'acUi.auth.confirmRevoke',
      run: (row) => revoke([row.Id]),
    },
    checkGrant.action,
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
  toolbar: <GrantButtons />,
};

/** A finished sync pass moved issue statuses on the controller's side: the list follows without a reload. */
const LIVE_EVENTS = ['SyncProgress'] as const;

/**
 * The authorisation screen: above the list, per device, how many authorisations wait in each status (a
 * count picked there re-opens the list on that device and status).
 */
export default function AuthorizationsPage() {
  const { t } = useTranslation();
  checkGrant.useFollow();
  const queryClient = useQueryClient();
  const mode = granting.useValue();
  const item = editing.useValue();
  const [pick, setPick] = useState<{ key: number; filters?: Record<string, unknown> }>({ key: 0 });
  useLiveList({
    name: api.name,
    events: LIVE_EVENTS,
    apply: (event) => event.Phase !== 'done',
  });
  const reload = () => void reloadList(queryClient, api.name);

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

  return (
    <>
      <ListPage
        key={pick.key}
        config={pick.filters ? { ...config, initialFilters: pick.filters } : config}
        header={header}
        title={t('route.authorizationList')}
      />
      <GrantDialog
        mode={mode}
        onClose={granting.close}
        onGranted={() => {
          granting.close();
          reload();
        }}
      />
      <ValidityDialog
        item={item}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          reload();
        }}
      />
    </>
  );
}
