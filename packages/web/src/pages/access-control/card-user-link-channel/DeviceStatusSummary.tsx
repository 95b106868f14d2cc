import { useState } from 'react';
import { Collapse, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AccessControlDeviceApi,
  CardUserLinkChannelApi,
  ACCESS_CONTROL_ADMIN,
  type HubEventOf,
} from '@gatehouse/shared';
import { useCan } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { useHubEvents } from '../../../core/hub.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { useAccessibleTable } from '../../../components/table-a11y.ts';
import { statusColumns } from './status-columns.tsx';
import type { DeviceStatusCount } from './types.ts';

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
