import { useState } from 'react';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACCESS_CONTROL_ADMIN, type AreaLockdownDoor, type AreaLockdownItem } from '@gatehouse/shared';
import { useCan } from '../../../components/list-page/permissions.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { ReleaseLockdownDialog, StartLockdownDialog } from './LockdownDialogs.tsx';

const MODE_LABELS = {
  1: 'acUi.channel.mode.open',
  2: 'acUi.channel.mode.closed',
  3: 'acUi.channel.mode.controlled',
} as const;

const DOOR_COLORS: Record<AreaLockdownDoor['State'], string> = {
  pending: 'gold',
  held: 'red',
  restoring: 'blue',
  restored: 'green',
  unreached: 'default',
};

/** A door's state under the lockdown, with the mode its controller answered when read back. */
export function LockdownDoorTag({ door }: { door: AreaLockdownDoor }) {
  const { t } = useTranslation();
  const mode = door.Mode === 1 || door.Mode === 2 || door.Mode === 3 ? t(MODE_LABELS[door.Mode]) : '';
  return (
    <Tag
      color={DOOR_COLORS[door.State]}
      data-testid={`lockdown-door-${door.DeviceId}-${door.DoorNumber}`}
      data-lockdown-state={door.State}
      title={door.ReadAt ? formatSiteTime(door.ReadAt, 'MM-DD HH:mm:ss') : undefined}
    >
      {t(`lockdownUi.door.${door.State}`, { mode })}
    </Tag>
  );
}

/**
 * The door monitor's lockdown panel: the area's lockdown or evacuation (mode, since, who, why, doors confirmed),
 * or the release going on; AccessControl/Admin starts one (mode and reason) or releases it (note).
 */
export function LockdownPanel({ areaId, lockdown }: { areaId: number; lockdown: AreaLockdownItem | null }) {
  const { t } = useTranslation();
  const admin = useCan(ACCESS_CONTROL_ADMIN);
  const [dialog, setDialog] = useState<'start' | 'release' | null>(null);
  const inForce = lockdown !== null && lockdown.ReleasedAt === null;
  const counts = { confirmed: lockdown?.Confirmed ?? 0, total: lockdown?.Total ?? 0 };
  return (
    <Card
      size="small"
      title={t('lockdownUi.panel.title')}
      className={inForce ? 'dm-lockdown dm-lockdown-active' : 'dm-lockdown'}
      data-testid="lockdown-panel"
      extra={
        admin &&
        (inForce ? (
          <Button onClick={() => setDialog('release')} data-testid="lockdown-release">
            {t('lockdownUi.panel.release')}
          </Button>
        ) : (
          <Button danger onClick={() => setDialog('start')} data-testid="lockdown-start">
            {t('lockdownUi.panel.start')}
          </Button>
        ))
      }
    >
      {!lockdown ? (
        <Typography.Text type="secondary">{t('lockdownUi.panel.none')}</Typography.Text>
      ) : inForce ? (
        <Space wrap>
          <Tag color="red">{t(`lockdownUi.mode.${lockdown.Mode}`)}</Tag>
          <Typography.Text>
            {t('lockdownUi.banner.detail', {
              time: formatSiteTime(lockdown.StartedAt, 'MM-DD HH:mm'),
              who: lockdown.StartedBy,
              reason: lockdown.Reason,
            })}
          </Typography.Text>
          <Typography.Text strong>{t('lockdownUi.banner.confirmed', counts)}</Typography.Text>
        </Space>
      ) : (
        <Typography.Text>
          {t('lockdownUi.panel.restoring', {
            time: formatSiteTime(lockdown.ReleasedAt, 'MM-DD HH:mm'),
            ...counts,
          })}
        </Typography.Text>
      )}
      <StartLockdownDialog open={dialog === 'start'} areaId={areaId} onClose={() => setDialog(null)} />
      <ReleaseLockdownDialog open={dialog === 'release'} areaId={areaId} onClose={() => setDialog(null)} />
    </Card>
  );
}
