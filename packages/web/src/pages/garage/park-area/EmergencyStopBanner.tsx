import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { differsFromBrowser, formatSiteTime, useSiteZone } from '../../../core/site-time.ts';
import { actorText, notReachedText, useEmergencyStops } from './emergency.ts';
import './emergency.css';

/**
 * The red banner of the garage screens (zones, sockets and grid, the dashboard's garage panel) while any zone of
 * the area is under emergency stop: which zones, why, who stopped them and since when (the area's clock), and the
 * chargers the stop has not reached yet. It goes when the last one is released (the hub's `ZoneEmergency`).
 */
export function EmergencyStopBanner() {
  const { t } = useTranslation();
  const zone = useSiteZone();
  const stops = useEmergencyStops().data?.Items ?? [];
  if (stops.length === 0) return null;
  const zoneNote = differsFromBrowser(zone) ? ` (${zone})` : '';
  return (
    <Alert
      type="error"
      showIcon
      className="garage-emergency-banner"
      data-testid="emergency-stop-banner"
      role="alert"
      title={t('garageUi.emergency.banner', {
        count: stops.length,
        zones: stops.map((s) => s.ZoneName).join(t('garageUi.emergency.separator')),
      })}
      description={
        <ul>
          {stops.map((s) => {
            const missed = s.Stop ? notReachedText(t, s.Stop.NotReached) : '';
            return (
              <li key={s.Id} data-zone={s.ParkAreaId}>
                {t('garageUi.emergency.bannerLine', {
                  zone: s.ZoneName,
                  reason: s.Reason,
                  by: actorText(t, s.StoppedBy, s.StoppedByKind),
                  since: `${formatSiteTime(s.StoppedAt, 'YYYY-MM-DD HH:mm')}${zoneNote}`,
                })}
                {s.Stop === null && ` ${t('garageUi.emergency.sending')}`}
                {missed && ` ${t('garageUi.emergency.bannerMissed', { hosts: missed })}`}
              </li>
            );
          })}
        </ul>
      }
    />
  );
}
