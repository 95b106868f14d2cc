import { useState } from 'react';
import { Badge, Button, Collapse, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  AccessControlDeviceApi,
  CardUserLinkChannelApi,
  issueStatus,
  protocolNeedsSync,
  ACCESS_CONTROL_ADMIN,
  type HubEventOf,
} from '@gatehouse/shared';
import { useCan } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { useHubEvents } from '../../../core/hub.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { useAccessibleTable } from '../../../components/table-a11y.ts';
import { ISSUE_STATUS_COLOURS } from '../cells.tsx';
import { OnlineCell, SyncCell } from '../device-state.tsx';
import type { DeviceStatusCount } from './types.ts';

/** Tag colour names → the dot colours of the same palette (grey for the tag's "default"). */
const BADGE_COLOURS = Object.fromEntries(
  Object.entries(ISSUE_STATUS_COLOURS).map(([status, colour]) => [
    status,
    colour === 'default' ? 'gray' : colour,
  ]),
);

/**
 * The counts belong to the authorisation list: whatever reloads it (a grant, a revoke, a finished sync pass)
 * reloads them too.
 */
export const statusCountsKey = (areaId: number | null) => [
  'list',
  CardUserLinkChannelApi.name,
  'DeviceStatusCounts',
  areaId,
];

/** What the WG gateway tells the area's hub about a controller (docs/devices.md, "Live hub"). */
const LIVE_EVENTS = ['SyncProgress', 'DeviceStatus'] as const;
type LiveEvent = HubEventOf<(typeof LIVE_EVENTS)[number]>;

/**
 * The issue statuses as the panel's columns: issued first (what the controller holds, the count an operator
 * checks), then what is still on its way (pending issue, update, deletion), then the settled rest (deleted, no
 * issue needed).
 */
const STATUS_COLUMNS = [3, 1, 2, -1, -2, 0].map((value) => issueStatus.items.find((i) => i.value === value)!);

interface Props {
  /** Shows that device's authorisations (in that status) in the list below. */
  onPick(deviceId: number, status: number | null): void;
}

/**
 * What the hub reports of a controller, written into its row without asking the server: a sync in progress,
 * or its connection. Null when the event is not one a row can show (a finished pass moved the counts).
 */
export function withEvent(rows: DeviceStatusCount[], event: LiveEvent): DeviceStatusCount[] | null {
  if (event.Type === 'SyncProgress' && event.Phase === 'done') return null;
  const patch: Partial<DeviceStatusCount> =
    event.Type === 'SyncProgress'
      ? {
          SyncState: 'running',
          SyncPhase: event.Phase,
          SyncDone: event.Done ?? 0,
          SyncTotal: event.Total ?? 0,
        }
      : { Online: event.Online, LastSeenAt: event.LastSeenAt };
  return rows.map((row) => (row.DeviceId === event.DeviceId ? { ...row, ...patch } : row));
}

interface ColumnOptions extends Props {
  /** AccessControl/Admin: "sync now" beside a controller's sync. */
  canSync: boolean;
  /** The controller whose "sync now" is being sent. */
  starting: number | null;
  syncNow(row: DeviceStatusCount): Promise<void>;
}

/** The panel's columns: the controller, its connection and sync, and its authorisations per issue status. */
function statusColumns(
  t: TFunction,
  { canSync, starting, syncNow, onPick }: ColumnOptions,
): ColumnsType<DeviceStatusCount> {
  return [
    {
      key: 'DeviceName',
      title: t('accessControl.field.DeviceName'),
      fixed: 'left',
      render: (_v, d) => (
        <div>
          <div className="ac-name" title={d.DeviceName}>
            {d.DeviceName}
          </div>
          <Typography.Text type="secondary" className="ac-sub">
            {d.SerialNumber}
          </Typography.Text>
          {d.Disabled && <Tag className="ac-inline-tag">{t('enum.disabledFlag.true')}</Tag>}
        </div>
      ),
    },
    {
      key: 'Online',
      title: t('acUi.device.column.online'),
      width: 150,
      render: (_v, d) => (protocolNeedsSync(d.Protocol) ? <OnlineCell row={d} /> : '-'),
    },
    {
      key: 'Sync',
      title: t('acUi.device.column.sync'),
      width: 200,
      render: (_v, d) => {
        // A third-party gate checks cards itself; a disabled controller is not driven.
        if (!protocolNeedsSync(d.Protocol))
          return <Typography.Text type="secondary">{t('acUi.device.noSyncNeeded')}</Typography.Text>;
        if (d.Disabled)
          return <Typography.Text type="secondary">{t('acUi.device.syncDisabled')}</Typography.Text>;
        return (
          <div className="ac-sync-cell" data-testid={`sync-${d.DeviceId}`}>
            <SyncCell row={d} retry={d} />
            {canSync && d.SyncState !== 'running' && (
              <Button
                size="small"
                type="link"
                icon={<SyncOutlined />}
                loading={starting === d.DeviceId}
                onClick={() => void syncNow(d)}
                data-testid={`sync-now-${d.DeviceId}`}
              >
                {t('acUi.device.syncNow')}
              </Button>
            )}
          </div>
        );
      },
    },
    ...STATUS_COLUMNS.map((item) => ({
      key: String(item.value),
      // A coloured dot and the label (the list's tag colours); long labels wrap rather than widen the table.
      title: <Badge color={BADGE_COLOURS[item.value]} text={t(item.key as never)} />,
      width: 96,
      align: 'right' as const,
      render: (_v: unknown, d: DeviceStatusCount) => {
        const n = d.Counts[String(item.value)] ?? 0;
        return n === 0 ? (
          <Typography.Text type="secondary">0</Typography.Text>
        ) : (
          <Typography.Link
            onClick={() => onPick(d.DeviceId, item.value)}
            data-testid={`count-${d.DeviceId}-${item.value}`}
          >
            {n}
          </Typography.Link>
        );
      },
    })),
    {
      key: 'Pending',
      title: t('accessControl.field.Pending'),
      align: 'right',
      width: 90,
      render: (_v, d) =>
        d.Pending ? (
          <Typography.Text strong type="warning" data-testid={`pending-${d.DeviceId}`}>
            {d.Pending}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid={`pending-${d.DeviceId}`}>
            0
          </Typography.Text>
        ),
    },
    {
      key: 'Total',
      title: t('accessControl.field.Total'),
      align: 'right',
      width: 80,
      render: (_v, d) => (
        <Typography.Link onClick={() => onPick(d.DeviceId, null)}>{d.Total}</Typography.Link>
      ),
    },
  ];
}

/**
 * The authorisation screen's per-device sync panel: per controller of the area, its connection, where its
 * authorisation sync stands (progress while running, the reason and next retry after a failure) with "sync
 * now" for AccessControl/Admin, and how many authorisations are in each issue status. A count opens those
 * authorisations in the list. Live from the area's hub: progress and connection in place, a finished pass
 * reloads the counts.
 */
export function DeviceStatusSummary({ onPick }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canSync = useCan(ACCESS_CONTROL_ADMIN);
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const key = statusCountsKey(areaId);
  const counts = useQuery({ queryKey: key, queryFn: () => call(CardUserLinkChannelApi.deviceStatusCounts) });
  const [starting, setStarting] = useState<number | null>(null);
  // Its body scrolls (fixed height): a named region the keyboard can reach.
  const tableRef = useAccessibleTable(t('accessControl.title.deviceStatusCounts'));
  const rows = counts.data ?? [];
  const pending = rows.reduce((sum, d) => sum + d.Pending, 0);

  useHubEvents(LIVE_EVENTS, (event) => {
    const shown = queryClient.getQueryData<DeviceStatusCount[]>(key);
    const next = shown && withEvent(shown, event);
    if (next) queryClient.setQueryData(key, next);
    else void queryClient.invalidateQueries({ queryKey: key });
  });

  const syncNow = async (row: DeviceStatusCount) => {
    setStarting(row.DeviceId);
    try {
      // A refusal (not a WG controller, gateway off) is shown by the request client with the server's message.
      await call(AccessControlDeviceApi.syncNow, { body: { Id: row.DeviceId } });
      feedback.success(t('acUi.device.syncStarted'));
    } finally {
      setStarting(null);
    }
  };

  const columns = statusColumns(t, { canSync, starting, syncNow, onPick });

  return (
    <Collapse
      className="ac-summary"
      size="small"
      defaultActiveKey={['counts']}
      items={[
        {
          key: 'counts',
          label: (
            <span data-testid="status-summary-title">
              {t('accessControl.title.deviceStatusCounts')}
              {!counts.isPending && (
                <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                  {t('acUi.auth.summaryPending', { devices: rows.length, pending })}
                </Typography.Text>
              )}
            </span>
          ),
          children: (
            <Table<DeviceStatusCount>
              ref={tableRef}
              size="small"
              rowKey="DeviceId"
              // Only the first load: live reloads replace the rows without covering them.
              loading={counts.isPending}
              columns={columns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: 'max-content', y: 260 }}
              data-testid="status-summary"
            />
          ),
        },
      ]}
    />
  );
}
