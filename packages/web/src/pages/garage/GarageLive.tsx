import { useEffect, useMemo } from 'react';
import { App, Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { chargePortState, findEnumItem, type HeatAlarmItem } from '@gatehouse/shared';
import { useHubEvents } from '../../core/hub.ts';
import { useAreaStore } from '../../stores/area.ts';
import { faultCode, portFaultAlert, useFaultAlerts } from './fault-alerts.ts';
import { heatAlarmText, heatCause } from './charge-host/HeatAlarm.tsx';
import { GARAGE_EVENTS, GarageLiveUpdates } from './live.ts';
import { socketsHref } from './options.ts';

/**
 * The garage's live link, mounted once in the layout for users of the garage: the area's charger events keep
 * every garage screen current without reload (the socket grid, the lists, the dashboard), and a port that
 * enters a fault state raises a notification on whatever screen is open, and an alert on the dashboard; so does
 * a host entering heat alarm (its notification goes once the alarm is cleared).
 */
export default function GarageLive() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const updates = useMemo(() => new GarageLiveUpdates(queryClient), [queryClient]);
  useEffect(() => () => updates.dispose(), [updates]);
  // Alerts belong to the area they came from.
  useEffect(() => useFaultAlerts.getState().clear(), [areaId]);

  /** A host entered heat alarm: an error that stays until closed or the alarm is cleared. */
  const heatAlarmNotice = (alarm: HeatAlarmItem) => {
    const key = `heat-alarm-${alarm.ChargeHostId}`;
    notification.error({
      key,
      duration: 0,
      title: t('garageUi.heat.notification'),
      description: t('garageUi.heat.notificationText', {
        host: `${alarm.HostName} (${alarm.SerialNumber})`,
        // The language's own comma (zh '，'): a Latin ', ' read as a typo in the zh notification.
        cause: `${heatCause(t, alarm)}${t('acUi.separator')}${heatAlarmText(t, alarm)}`,
        count: alarm.Sessions.length,
      }),
      actions: (
        <Button
          size="small"
          type="primary"
          danger
          onClick={() => {
            notification.destroy(key);
            void navigate(socketsHref({ ChargeHostId: alarm.ChargeHostId }));
          }}
        >
          {t('garageUi.alert.viewSockets')}
        </Button>
      ),
      props: { 'data-testid': 'heat-alarm-notification' },
    });
  };

  useHubEvents(GARAGE_EVENTS, (event) => {
    updates.handle(event);
    if (event.Type === 'HeatAlarm') {
      if (event.InAlarm) heatAlarmNotice(event.Alarm);
      else notification.destroy(`heat-alarm-${event.HostId}`);
      return;
    }
    if (event.Type !== 'PortFault') return;
    const alert = portFaultAlert(event);
    useFaultAlerts.getState().add(alert);
    const item = findEnumItem(chargePortState, alert.State);
    const key = `port-fault-${alert.SocketId}`;
    notification.warning({
      key,
      // A fault needs someone to go and look: it stays until closed.
      duration: 0,
      title: t('garageUi.alert.portFault'),
      description: t('garageUi.alert.portFaultText', {
        host: alert.Serial,
        port: alert.PortNumber,
        state: item ? t(item.key as never) : String(alert.State),
        code: faultCode(alert) || '-',
      }),
      actions: (
        <Button
          size="small"
          type="primary"
          onClick={() => {
            notification.destroy(key);
            void navigate(socketsHref({ ChargeHostId: alert.HostId }));
          }}
        >
          {t('garageUi.alert.viewSockets')}
        </Button>
      ),
      props: { 'data-testid': 'port-fault-notification' },
    });
  });
  return null;
}
