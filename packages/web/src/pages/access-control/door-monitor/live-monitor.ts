import { notification } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  doorAlarmKind,
  findEnumItem,
  type DoorAlarmItem,
  type DoorLiveItem,
  type DoorMonitorReply,
  type DoorOpeningRecordItem,
  type EnumDef,
  type HubEventOf,
} from '@gatehouse/shared';
import type { TKey } from '../../../components/list-page/index.ts';
import { useHubEvents } from '../../../core/hub.ts';

/**
 * The live path of the dashboard's figures too: a record the gateway stores reaches the hub at once (Swipe, or
 * DoorAlarm for an alarm), and the monitor shows it from there; the door watch's DoorState and AlarmRaised follow
 * at its next look.
 */
const LIVE = ['DoorState', 'AlarmRaised', 'AlarmChanged', 'Swipe', 'DoorAlarm'] as const;
const FEED = 30;

/** A record the hub announced, at the head of the feed (once: a refetch may have brought it already). */
export function withRecord(reply: DoorMonitorReply, record: DoorOpeningRecordItem): DoorMonitorReply {
  const others = reply.Events.filter((e) => e.Id !== record.Id);
  return { ...reply, Events: [record, ...others].slice(0, FEED) };
}

export function enumText(t: (key: TKey) => string, def: EnumDef, value: number): string {
  const item = findEnumItem(def, value);
  return item ? t(item.key as TKey) : String(value);
}

const alarmKey = (id: number) => `door-alarm-${id}`;

/**
 * Tells the operator of a new alarm: in the page, and as a browser notification when allowed. The in-page notice
 * stays until the alarm is acknowledged (here or on another screen or instance: AlarmChanged closes it), since an
 * alarm waits for an operator; one that faded after 4.5 s could be missed by the operator it was for.
 */
function announce(alarm: DoorAlarmItem, t: (key: TKey, o?: Record<string, unknown>) => string) {
  const title = enumText(t, doorAlarmKind, alarm.Kind);
  const text = `${alarm.DeviceName}${alarm.DoorNumber > 0 ? ` · ${alarm.DoorName ?? alarm.DoorNumber}` : ''}`;
  notification.warning({
    key: alarmKey(alarm.Id),
    message: title,
    description: text,
    placement: 'topRight',
    duration: 0,
  });
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted')
    new Notification(title, { body: text, tag: `door-alarm-${alarm.Id}` });
}

/** Keeps the door monitor's cached reply (under `key`) live from the hub's door events. */
export function useLiveDoorMonitor(key: readonly unknown[]): void {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useHubEvents(LIVE, (event: HubEventOf<(typeof LIVE)[number]>) => {
    if (event.Type === 'Swipe' || event.Type === 'DoorAlarm') {
      // Shown now; the doors as the server reads them (records the door watch has not looked at included) next.
      // (A record's event carries the record's own time: the hub stamps only events without one.)
      const { Type: _type, ...record } = event;
      queryClient.setQueryData<DoorMonitorReply>(key, (reply) => (reply ? withRecord(reply, record) : reply));
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    if (event.Type === 'AlarmRaised') announce(event, t);
    if (event.Type === 'AlarmChanged' && event.State !== 0) notification.destroy(alarmKey(event.Id));
    queryClient.setQueryData<DoorMonitorReply>(key, (reply) => {
      if (!reply) return reply;
      if (event.Type === 'DoorState') {
        const same = (d: DoorLiveItem) => d.DeviceId === event.DeviceId && d.DoorNumber === event.DoorNumber;
        const { Type: _type, ...door } = event;
        return { ...reply, Doors: reply.Doors.map((d) => (same(d) ? door : d)) };
      }
      const { Type: _type, ...alarm } = event;
      const others = reply.OpenAlarms.filter((a) => a.Id !== alarm.Id);
      return { ...reply, OpenAlarms: alarm.State === 0 ? [alarm, ...others] : others };
    });
  });
}
