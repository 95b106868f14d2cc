import { Card, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCents, formatKWh, type GarageSummary } from '@gatehouse/shared';

function Figure({
  title,
  value,
  suffix,
  note,
  testId,
}: {
  title: string;
  value: string | number;
  suffix?: string;
  /** A small line under the figure: what it leaves out. */
  note?: string | undefined;
  testId: string;
}) {
  return (
    <Card size="small" className="garage-figure">
      <Statistic title={title} value={value} suffix={suffix} data-testid={testId} />
      {note && (
        <Typography.Text type="secondary" className="garage-figure-note" data-testid={`${testId}-note`}>
          {note}
        </Typography.Text>
      )}
    </Card>
  );
}

/**
 * The garage's figures: sockets by state group, hosts online, sessions running, spaces and vehicles inside,
 * today's sessions, energy and revenue.
 */
export function GarageFigures({ summary: s }: { summary: GarageSummary }) {
  const { t } = useTranslation();
  return (
    <div className="garage-figures">
      <Figure
        title={t('garageUi.dashboard.socketsOccupied')}
        value={s.Sockets.Occupied}
        suffix={`/ ${s.Sockets.Total}`}
        testId="figure-sockets"
      />
      {/* The rest of the sockets, each in one group: with the occupied they add up to the total. */}
      <Figure
        title={t('garageUi.dashboard.socketsIdleFault')}
        value={`${s.Sockets.Idle} / ${s.Sockets.Fault} / ${s.Sockets.Disabled} / ${s.Sockets.Offline ?? 0}`}
        testId="figure-idle-fault"
      />
      <Figure
        title={t('garageUi.dashboard.hostsOnline')}
        value={s.Hosts.Online}
        suffix={`/ ${s.Hosts.Total}`}
        testId="figure-hosts"
      />
      <Figure
        title={t('garageUi.dashboard.openSessions')}
        value={s.OpenSessions}
        // Sessions on an offline charge point: open, but whether they charge is unknown.
        note={
          s.OpenSessionsOffline
            ? t('garageUi.dashboard.unknownSessions', { count: s.OpenSessionsOffline })
            : undefined
        }
        testId="figure-open-sessions"
      />
      <Figure
        title={t('garageUi.dashboard.parked')}
        value={s.Zones.Parked}
        suffix={`/ ${s.Zones.Capacity}`}
        testId="figure-parked"
      />
      <Figure
        title={t('garageUi.dashboard.sessionsToday')}
        value={s.Today.Sessions}
        testId="figure-sessions-today"
      />
      <Figure
        title={t('garageUi.dashboard.energyToday')}
        value={formatKWh(s.Today.EnergyWh)}
        testId="figure-energy-today"
      />
      <Figure
        title={t('garageUi.dashboard.chargingRevenueToday')}
        value={`¥${formatCents(s.Today.ChargingRevenueCents)}`}
        testId="figure-charging-revenue"
      />
      <Figure
        title={t('garageUi.dashboard.parkOrdersToday')}
        value={s.Today.ParkOrders}
        testId="figure-park-orders"
      />
      <Figure
        title={t('garageUi.dashboard.parkingRevenueToday')}
        value={`¥${formatCents(s.Today.ParkingRevenueCents)}`}
        testId="figure-parking-revenue"
      />
    </div>
  );
}
