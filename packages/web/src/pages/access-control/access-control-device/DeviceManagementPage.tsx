import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  AccessControlDeviceApi,
  accessControlType,
  antiPassbackMode,
  interlockMode,
  protocolNeedsSync,
  ACCESS_CONTROL_ADMIN,
  type AccessControlDeviceItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig, type TKey } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';
import { i18next } from '../../../i18n/index.ts';
import { linkState } from '../dialog-state.ts';
import { useLiveList } from '../live.ts';
import { TwoLineCell } from '../cells.tsx';
import { OnlineCell, SyncCell } from '../device-state.tsx';
import { CHANNEL_OPTIONS_KEY, DEVICE_MODELS_KEY, DEVICE_OPTIONS_KEY } from '../options.ts';
import { DRIVEN_DEVICE_OPTIONS_KEY } from '../access-rules/options.ts';
import { deviceModelColumns, deviceModelFilters } from './device-columns.tsx';
import { DEVICE_EVENTS, applyDeviceEvent } from './live-devices.ts';
import '../access-control.css';

type DeviceRow = AccessControlDeviceItem;
type Translate = (key: TKey, options?: Record<string, unknown>) => string;

const RULE_COLORS: Record<string, string> = {
  pending: 'gold',
  running: 'blue',
  done: 'green',
  failed: 'red',
};

/** Where the controller's access rules stand (profiles, tasks, door rules), its profile slots, why it failed. */
function RulesCell({ row, tr }: { row: DeviceRow; tr: Translate }) {
  if (!row.RuleSyncState) return <Typography.Text type="secondary">-</Typography.Text>;
  const tag = (
    <Tag
      color={RULE_COLORS[row.RuleSyncState]}
      data-testid={`rules-${row.Id}`}
      data-state={row.RuleSyncState}
    >
      {tr(`acUi.rules.${row.RuleSyncState}` as TKey)}
    </Tag>
  );
  return (
    <div className="list-page-nowrap">
      {row.RuleSyncError ? <Tooltip title={row.RuleSyncError}>{tag}</Tooltip> : tag}
      <div className="ac-sub">{tr('acUi.rules.slots', { used: row.ProfileSlots })}</div>
    </div>
  );
}

/** A drift the operator should act on: controllers stamp records with their own clock. */
const DRIFT_WARN_SECONDS = 30;

function DriftCell({ row, tr }: { row: DeviceRow; tr: Translate }) {
  if (row.ClockDriftSeconds === null) return '-';
  const drift = row.ClockDriftSeconds;
  const text = tr('acUi.device.driftSeconds', { value: drift > 0 ? `+${drift}` : drift });
  return (
    <Tooltip
      title={
        row.DriftCheckedAt
          ? tr('acUi.device.driftChecked', { at: formatSiteTime(row.DriftCheckedAt) })
          : undefined
      }
    >
      <Typography.Text type={Math.abs(drift) > DRIFT_WARN_SECONDS ? 'warning' : undefined} data-drift={drift}>
        {text}
      </Typography.Text>
    </Tooltip>
  );
}

const api = AccessControlDeviceApi;
const channelsOf = linkState();

/**
 * Device management (AccessControl/Admin): the area's controllers. An edit changes only what describes the
 * device on site (name, address, location, remark) and the enabled flag; serial, protocol and model belong
 * to the registration, so channels, authorisations and records never change with an edit.
 */
const config: ListPageConfig<DeviceRow> = {
  api,
  read: ACCESS_CONTROL_ADMIN,
  write: ACCESS_CONTROL_ADMIN,
  actions: { edit: true, status: true, export: true },
  invalidates: [DEVICE_OPTIONS_KEY, DEVICE_MODELS_KEY, CHANNEL_OPTIONS_KEY, DRIVEN_DEVICE_OPTIONS_KEY],
  filters: [
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.device.manageKeyword',
      width: 220,
    },
    ...deviceModelFilters,
    { name: 'Disabled', label: 'accessControl.field.Status', kind: 'bool' },
  ],
  columns: [
    {
      key: 'Name',
      title: 'accessControl.field.DeviceName',
      sort: 'Name',
      width: 160,
      render: (row) => <TwoLineCell main={row.Name} sub={row.SerialNumber} />,
    },
    // At 1440 px the key columns (name, presence, sync, lost records, location, status) stay in view beside
    // the actions; model, address, firmware, clock drift and the channel count (the Channels action opens them)
    // yield to the row's detail (issue 21, item 7).
    ...deviceModelColumns<DeviceRow>().map((c) => ({ ...c, secondary: true })),
    {
      key: 'Ip',
      title: 'accessControl.field.Ip',
      secondary: true,
      render: (row) => (row.Ip ? `${row.Ip}${row.Port ? `:${row.Port}` : ''}` : '-'),
    },
    {
      key: 'Online',
      title: 'acUi.device.column.online',
      width: 140,
      render: (row) => <OnlineCell row={row} />,
    },
    {
      key: 'Firmware',
      title: 'acUi.device.column.firmware',
      secondary: true,
      render: (row) => row.Firmware ?? '-',
    },
    {
      key: 'ClockDriftSeconds',
      title: 'acUi.device.column.drift',
      secondary: true,
      render: (row, tr) => <DriftCell row={row} tr={tr} />,
    },
    {
      key: 'SyncState',
      title: 'acUi.device.column.sync',
      width: 150,
      // A third-party gate checks cards itself: nothing to sync.
      render: (row) => (protocolNeedsSync(row.Protocol) ? <SyncCell row={row} /> : '-'),
    },
    {
      key: 'RuleSyncState',
      title: 'acUi.rules.ruleSync',
      // A short state tag or '-': 100 px, so the key columns still fit beside the actions once the content
      // keeps clear of the settings tab (layout.css).
      width: 100,
      render: (row, tr) => (protocolNeedsSync(row.Protocol) ? <RulesCell row={row} tr={tr} /> : '-'),
    },
    {
      key: 'LostRecords',
      title: 'acUi.device.column.lost',
      width: 80,
      render: (row) =>
        row.LostRecords ? <Typography.Text type="danger">{row.LostRecords}</Typography.Text> : 0,
    },
    { key: 'Location', title: 'accessControl.field.Location', ellipsis: true, width: 110 },
    { key: 'ChannelCount', title: 'accessControl.field.ChannelCount', kind: 'number', secondary: true },
    { key: 'Disabled', title: 'accessControl.field.Status', kind: 'status', width: 100 },
  ],
  form: {
    width: 720,
    fields: [
      {
        name: 'SerialNumber',
        label: 'accessControl.field.SerialNumber',
        kind: 'text',
        lockedOnEdit: true,
      },
      {
        name: 'Type',
        label: 'accessControl.field.Type',
        kind: 'select',
        options: { kind: 'enum', def: accessControlType },
        lockedOnEdit: true,
      },
      {
        name: 'Name',
        label: 'accessControl.field.DeviceName',
        kind: 'text',
        required: true,
        maxLength: 50,
      },
      { name: 'Location', label: 'accessControl.field.Location', kind: 'text', maxLength: 100 },
      {
        name: 'Ip',
        label: 'accessControl.field.Ip',
        kind: 'text',
        maxLength: 15,
        placeholder: 'acUi.device.ipPlaceholder',
      },
      { name: 'Port', label: 'accessControl.field.Port', kind: 'number', min: 1, max: 65535 },
      {
        name: 'Interlock',
        label: 'accessControl.field.Interlock',
        kind: 'select',
        options: { kind: 'enum', def: interlockMode },
      },
      {
        name: 'AntiPassback',
        label: 'accessControl.field.AntiPassback',
        kind: 'select',
        options: { kind: 'enum', def: antiPassbackMode },
      },
      { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
  },
  // No fixed scroll width: with one, the table squeezed the fixed actions column (its buttons clipped,
  // the sync column's time under it); at its content's width every column keeps its own.
  rowActions: [
    {
      key: 'setTime',
      label: 'acUi.device.setTime',
      // Only the WG gateway talks to a controller: another protocol's device has no clock or sync to drive.
      visible: (row) => protocolNeedsSync(row.Protocol),
      confirm: 'acUi.device.confirmSetTime',
      run: async (row) => {
        // A refusal (offline, no answer) is shown by the request client with the server's message.
        const done = await call(api.setTime, { body: { Id: row.Id } });
        feedback.success(i18next.t('acUi.device.timeSet', { value: done.DriftSeconds ?? '-' }));
      },
    },
    {
      key: 'syncNow',
      label: 'acUi.device.syncNow',
      visible: (row) => protocolNeedsSync(row.Protocol),
      run: async (row) => {
        await call(api.syncNow, { body: { Id: row.Id } });
        feedback.success(i18next.t('acUi.device.syncStarted'));
      },
    },
    {
      key: 'channels',
      label: 'acUi.device.channels',
      run: (row) => channelsOf.go(`/accesscontrol/channelManagement?DeviceId=${row.Id}`),
    },
  ],
};

export default function DeviceManagementPage() {
  const { t } = useTranslation();
  channelsOf.useFollow();
  // Connection, sync progress and lost records change on the gateway's side: the rows follow the hub.
  useLiveList({ name: api.name, events: DEVICE_EVENTS, apply: applyDeviceEvent });
  return <ListPage config={config} title={t('route.deviceManagement')} />;
}
