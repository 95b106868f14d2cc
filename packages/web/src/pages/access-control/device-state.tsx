import { Progress, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceStatusCount } from '@gatehouse/shared';
import type { TKey } from '../../components/list-page/index.ts';
import { formatSiteTime } from '../../core/site-time.ts';

/**
 * A WG controller's connection and authorisation sync as the gateway last stored them (docs/devices.md),
 * shown alike on device management and on the authorisation screen's sync panel. Null means nobody knows
 * (the gateway never talked to it, or no gateway runs): "unknown", never a guess.
 */
export type ControllerConnection = Pick<DeviceStatusCount, 'Online' | 'LastSeenAt'>;

export type ControllerSync = Pick<
  DeviceStatusCount,
  'SyncState' | 'SyncPhase' | 'SyncDone' | 'SyncTotal' | 'SyncFinishedAt' | 'SyncError'
>;

/** Failures of the pending authorisations (the sync panel has them; device management does not). */
export type SyncRetry = Pick<DeviceStatusCount, 'Failing' | 'NextSyncAt'>;

const SYNC_ERRORS = new Set(['offline', 'refused', 'timeout']);

/** A failure reason as the operator reads it; an unexpected one is shown as sent. */
export function useSyncErrorText(): (error: string | null) => string {
  const { t } = useTranslation();
  return (error) =>
    error === null ? '-' : SYNC_ERRORS.has(error) ? t(`acUi.device.syncError.${error}` as TKey) : error;
}

/**
 * The connection as last stored, and (device management, several instances) that no instance drives the
 * controller at this moment: the stored connection is the former driver's last word, and commands are refused
 * until another instance takes it over.
 */
export function OnlineCell({ row }: { row: ControllerConnection & { BetweenOwners?: boolean } }) {
  const { t } = useTranslation();
  const state = row.Online === null ? 'unknown' : row.Online ? 'online' : 'offline';
  const colour = { unknown: 'default', online: 'green', offline: 'red' }[state];
  return (
    <div>
      <Tag color={colour} data-online={state}>
        {t(`acUi.device.online.${state}` as TKey)}
      </Tag>
      {row.BetweenOwners && (
        <Tooltip title={t('acUi.device.betweenOwnersHint')}>
          <Tag color="orange" data-between-owners="true">
            {t('acUi.device.betweenOwners')}
          </Tag>
        </Tooltip>
      )}
      <Typography.Text type="secondary" className="ac-sub ac-block">
        {row.LastSeenAt ? formatSiteTime(row.LastSeenAt) : '-'}
      </Typography.Text>
    </div>
  );
}

/**
 * The sync as it stands: while running, the phase with done/total and a bar; after a pass, synced or failed
 * with the reason and when; with pending authorisations that failed, how many and when the next try is due.
 */
export function SyncCell({ row, retry }: { row: ControllerSync; retry?: SyncRetry }) {
  const { t } = useTranslation();
  const errorText = useSyncErrorText();
  const failing = retry && retry.Failing > 0 ? retry : null;
  const retryLine = failing ? (
    <Typography.Text type="secondary" className="ac-sub ac-block" data-testid="sync-retry">
      {t('acUi.device.syncFailing', { count: failing.Failing })}
      {failing.NextSyncAt
        ? ` · ${t('acUi.device.syncRetry', { at: formatSiteTime(failing.NextSyncAt, 'HH:mm:ss') })}`
        : ''}
    </Typography.Text>
  ) : null;

  if (row.SyncState === 'running') {
    const percent = row.SyncTotal ? Math.floor((row.SyncDone * 100) / row.SyncTotal) : 0;
    const phase = t(`acUi.device.syncPhase.${row.SyncPhase === 'write' ? 'write' : 'read'}` as TKey);
    return (
      <div data-sync="running" data-sync-phase={row.SyncPhase ?? 'read'} className="ac-sync">
        <Typography.Text className="ac-sub ac-block">
          {phase}
          {row.SyncTotal > 0 ? ` ${row.SyncDone}/${row.SyncTotal}` : ''}
        </Typography.Text>
        <Progress
          percent={percent}
          size="small"
          showInfo={false}
          status="active"
          aria-label={`${phase} ${percent}%`}
        />
      </div>
    );
  }
  if (!row.SyncState) {
    return (
      <div data-sync="none" className="ac-sync">
        <Typography.Text type="secondary">{t('acUi.device.syncNever')}</Typography.Text>
        {retryLine}
      </div>
    );
  }
  const failed = row.SyncState === 'failed';
  const at = row.SyncFinishedAt ? formatSiteTime(row.SyncFinishedAt) : '';
  return (
    <div data-sync={row.SyncState} className="ac-sync">
      <Tooltip title={at ? t('acUi.device.syncFinished', { at }) : undefined}>
        <Tag color={failed ? 'red' : 'green'}>
          {t(failed ? 'acUi.device.syncFailed' : 'acUi.device.syncDone')}
        </Tag>
      </Tooltip>
      {failed && (
        <Typography.Text type="danger" className="ac-sub" data-sync-error={row.SyncError ?? ''}>
          {errorText(row.SyncError)}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" className="ac-sub ac-block">
        {at || '-'}
      </Typography.Text>
      {retryLine}
    </div>
  );
}
