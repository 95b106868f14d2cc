import { Alert, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppUserApi, type LockedUser } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';
import { queryClient } from '../../../core/query-client.ts';
import { i18next } from '../../../i18n/index.ts';
import { PagePopconfirm } from '../../../components/PageModal.tsx';
import { SiteZoneNote } from '../../../components/SiteZoneNote.tsx';

/** A login lock the server's throttle holds on a user (its address: null for every address). */
type LoginLock = LockedUser['Locks'][number];
export type { LockedUser };

// Under the list's key, so the list's own reloads (after a save, Search) reload the locks too.
const LOCKS_KEY = ['list', 'AppUser', 'Locks'] as const;

/** The current area's locked users by id; refreshed every 30 s, since locks start and end on their own. */
export function useLoginLocks(): Map<number, LockedUser> {
  const locks = useQuery({
    queryKey: LOCKS_KEY,
    queryFn: () => call(AppUserApi.locks, {}, { quiet: true }),
    refetchInterval: 30_000,
  });
  // Stable between renders of the same answer.
  return useMemo(() => new Map((locks.data ?? []).map((u) => [u.Id, u])), [locks.data]);
}

/** Whether the user is locked now, by the locks last loaded (for the list's row action). */
export function isLocked(userId: number): boolean {
  return (queryClient.getQueryData<LockedUser[]>(LOCKS_KEY) ?? []).some((u) => u.Id === userId);
}

/** Lifts a user's locks, says whether there was one, and reloads the list and the locks. */
export async function unlock(user: { Id: number }): Promise<void> {
  const { Unlocked } = await call(AppUserApi.unlock, { query: { Id: user.Id } });
  if (Unlocked) feedback.success(i18next.t('adminUi.unlocked'));
  else feedback.info(i18next.t('adminUi.notLocked'));
  await queryClient.invalidateQueries({ queryKey: ['list', 'AppUser'] });
}

/** One lock as text: until when (site time) and from where. */
function LockText({ lock }: { lock: LoginLock }) {
  const { t } = useTranslation();
  return (
    <span>
      {t('adminUi.lockedUntil', { time: formatSiteTime(lock.LockedUntil) })}
      {' · '}
      {lock.Address === null ? t('adminUi.lockEverywhere') : t('adminUi.lockFrom', { address: lock.Address })}
    </span>
  );
}

/**
 * Beside the user name: a red "locked" tag whose tooltip says until when and from where (the banner above
 * the list says it in full); nothing for a user who is not locked. Small, so no column is pushed under
 * the fixed actions column.
 */
export function LockTag({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const user = useLoginLocks().get(userId);
  if (!user) return null;
  return (
    <Tooltip
      title={
        <Space orientation="vertical" size={2}>
          {user.Locks.map((lock) => (
            <LockText key={lock.Address ?? '*'} lock={lock} />
          ))}
        </Space>
      }
    >
      <Tag color="error" icon={<LockOutlined />} data-testid="lock-tag">
        {t('adminUi.locked')}
      </Tag>
    </Tooltip>
  );
}

/** Above the list: which accounts are locked now, why, until when, with their unlock buttons. */
export function LocksBanner({ locks, canUnlock }: { locks: Map<number, LockedUser>; canUnlock: boolean }) {
  const { t } = useTranslation();
  if (locks.size === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      icon={<LockOutlined />}
      style={{ marginBottom: 16 }}
      data-testid="login-locks"
      title={
        <Space wrap>
          {t('adminUi.lockedTitle', { count: locks.size })}
          <SiteZoneNote />
        </Space>
      }
      description={
        <Space orientation="vertical" size={4}>
          {[...locks.values()].map((user) => (
            <Space key={user.Id} wrap data-testid={`locked-${user.UserName}`}>
              <Typography.Text strong>{user.UserName}</Typography.Text>
              {user.Locks.map((lock) => (
                <LockText key={lock.Address ?? '*'} lock={lock} />
              ))}
              {canUnlock && (
                <PagePopconfirm
                  title={t('adminUi.confirmUnlock')}
                  okText={t('list.confirm')}
                  cancelText={t('list.cancel')}
                  onConfirm={() => unlock(user).catch(() => undefined)}
                >
                  <Button size="small" data-testid={`unlock-${user.UserName}`}>
                    {t('adminUi.unlock')}
                  </Button>
                </PagePopconfirm>
              )}
            </Space>
          ))}
        </Space>
      }
    />
  );
}
