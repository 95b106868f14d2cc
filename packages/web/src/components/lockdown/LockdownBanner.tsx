import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ACCESS_CONTROL_ANY } from '@gatehouse/shared';
import { differsFromBrowser, formatSiteTime, useSiteZone } from '../../core/site-time.ts';
import { useCan } from '../list-page/permissions.ts';
import { useAreaLockdown } from './area-lockdown.ts';
import './lockdown.css';

/**
 * The red banner every screen of an area shows while the area is locked down or evacuated (placed in the layout,
 * above the page): what holds the doors, since when, who and why, and how many doors their controllers have
 * confirmed, live from the hub. Gone as soon as the lockdown is released, on every open browser.
 */
export function LockdownBanner() {
  const { t } = useTranslation();
  const { lockdown } = useAreaLockdown();
  const monitor = useCan(ACCESS_CONTROL_ANY);
  const zone = useSiteZone();
  if (!lockdown || lockdown.ReleasedAt !== null) return null;
  // The area's clock, named when the browser's reads otherwise.
  const zoneNote = differsFromBrowser(zone) ? ` (${zone})` : '';
  const detail = t('lockdownUi.banner.detail', {
    time: `${formatSiteTime(lockdown.StartedAt, 'MM-DD HH:mm')}${zoneNote}`,
    who: lockdown.StartedBy,
    reason: lockdown.Reason,
  });
  const confirmed = t('lockdownUi.banner.confirmed', {
    confirmed: lockdown.Confirmed,
    total: lockdown.Total,
  });
  return (
    <Alert
      banner
      type="error"
      showIcon
      role="alert"
      className={`lockdown-banner lockdown-banner-${lockdown.Mode}`}
      data-testid="lockdown-banner"
      data-mode={lockdown.Mode}
      title={<strong>{t(`lockdownUi.banner.${lockdown.Mode}`)}</strong>}
      description={
        <span className="lockdown-banner-detail">
          <span>{detail}</span>
          <span data-testid="lockdown-banner-confirmed">{confirmed}</span>
          {monitor && <Link to="/accesscontrol/doorMonitor">{t('lockdownUi.banner.open')}</Link>}
        </span>
      }
    />
  );
}
