import type { ReactNode } from 'react';
import { Badge, Button, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { SyncOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { issueStatus, protocolNeedsSync } from '@gatehouse/shared';
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
 * The issue statuses as the panel's columns: issued first (what the controller holds, the count an operator
 * checks), then what is still on its way (pending issue, update, deletion), then the settled rest (deleted, no
 * issue needed).
 */
const STATUS_COLUMNS = [3, 1, 2, -1, -2, 0].map((value) => issueStatus.items.find((i) => i.value === value)!);

type OnPick = (deviceId: number, status: number | null) => void;

interface SyncOptions {
  /** AccessControl/Admin: "sync now" beside a controller's sync. */
  canSync: boolean;
  /** The controller whose "sync now" is being sent. */
  starting: number | null;
  syncNow(row: DeviceStatusCount): Promise<void>;
}

interface ColumnOptions extends SyncOptions {
  /** Shows that device's authorisations (in that status) in the list below. */
  onPick: OnPick;
}

/** A controller's sync: where it stands, with "sync now" for those who may. */
function syncCell(
  t: TFunction,
  d: DeviceStatusCount,
  { canSync, starting, syncNow }: SyncOptions,
): ReactNode {
  // A third-party gate checks cards itself; a disabled controller is not driven.
  if (!protocolNeedsSync(d.Protocol))
    return <Typography.Text type="secondary">{t('acUi.device.noSyncNeeded')}</Typography.Text>;
  if (d.Disabled) return <Typography.Text type="secondary">{t('acUi.device.syncDisabled')}</Typography.Text>;
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
}

/** A column per issue status: the controller's authorisations in it, a count that opens them. */
function countColumns(t: TFunction, onPick: OnPick): ColumnsType<DeviceStatusCount> {
  return STATUS_COLUMNS.map((item) => ({
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
  }));
}

/** The panel's columns: the controller, its connection and sync, and its authorisations per issue status. */
export function statusColumns(t: TFunction, options: ColumnOptions): ColumnsType<DeviceStatusCount> {
  const { onPick } = options;
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
      render: (_v, d) => syncCell(t, d, options),
    },
    ...countColumns(t, onPick),
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
