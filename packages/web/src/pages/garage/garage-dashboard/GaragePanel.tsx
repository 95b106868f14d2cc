import { Suspense, lazy, useEffect, useState } from 'react';
import { Alert, Card, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GarageDashboardApi, chargePortState, findEnumItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { faultCode, useFaultAlerts } from '../fault-alerts.ts';
import { DASHBOARD_KEY } from '../live.ts';
import { EmergencyStopBanner } from '../park-area/EmergencyStopBanner.tsx';
import { socketsHref } from '../options.ts';
import { ZonePowerList } from '../park-area/ZonePower.tsx';
import { GarageFigures } from './GarageFigures.tsx';
import './garage-dashboard.css';

const GarageCharts = lazy(() => import('./GarageCharts.tsx'));

/** True once the element has come near the viewport: the charts (and echarts) load only then. */
function useSeen<T extends Element>(): [(element: T | null) => void, boolean] {
  // A callback ref: the element appears only once the figures have loaded.
  const [element, setElement] = useState<T | null>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (seen || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen]);
  return [setElement, seen];
}

/**
 * Ports that entered a fault state since this page was opened (the hub's `PortFault` alerts, newest first),
 * each with a link to its host's grid.
 */
function FaultAlerts() {
  const { t } = useTranslation();
  const alerts = useFaultAlerts((s) => s.alerts);
  if (alerts.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      className="garage-fault-alerts"
      data-testid="garage-fault-alerts"
      title={t('garageUi.alert.recentFaults', { count: alerts.length })}
      description={
        <ul>
          {alerts.map((a) => {
            const item = findEnumItem(chargePortState, a.State);
            return (
              <li key={`${a.SocketId}-${a.At}`} data-socket={a.SocketId}>
                {formatSiteTime(a.At, 'HH:mm:ss')}{' '}
                <Link to={socketsHref({ ChargeHostId: a.HostId })}>
                  {t('garageUi.socket.hostPort', { host: a.Serial, port: a.PortNumber })}
                </Link>
                {': '}
                {item ? t(item.key as never) : a.State}
                {faultCode(a) && ` (${faultCode(a)})`}
              </li>
            );
          })}
        </ul>
      }
    />
  );
}

/**
 * The garage on the dashboard, for the current area: port-fault alerts as they arrive, sockets by state
 * group (those of an offline charge point apart, in no idle or occupied total), hosts online, spaces and
 * vehicles inside, sessions running, today's sessions, energy and revenue; below them the charts, loaded
 * when scrolled to. The hub's events keep the figures current (GarageLive).
 */
export default function GaragePanel() {
  const { t } = useTranslation();
  const summary = useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: () => call(GarageDashboardApi.summary),
  });
  const [chartsRef, chartsSeen] = useSeen<HTMLDivElement>();
  const s = summary.data;
  return (
    <Card
      title={t('garage.title.dashboard')}
      extra={
        <Link to="/Bicycle/chargeEquipment?view=grid" data-testid="garage-panel-grid">
          {t('garage.title.socketGrid')}
        </Link>
      }
      data-testid="garage-panel"
    >
      <EmergencyStopBanner />
      <FaultAlerts />
      {!s ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <>
          <GarageFigures summary={s} />
          <ZonePowerList zones={s.ZonePower} />
          <Typography.Paragraph type="secondary" className="garage-panel-note">
            {t('garageUi.dashboard.note', { zone: s.TimeZone })}
          </Typography.Paragraph>
          <div ref={chartsRef} className="garage-panel-charts">
            {chartsSeen ? (
              <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
                <GarageCharts summary={s} />
              </Suspense>
            ) : (
              <Skeleton active paragraph={{ rows: 6 }} />
            )}
          </div>
        </>
      )}
    </Card>
  );
}
