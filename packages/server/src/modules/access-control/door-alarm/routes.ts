import { DoorAlarmApi, doorAlarmKind, doorAlarmState } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { enumColumn } from '../common.ts';
import { acknowledgeAlarms, alarmQuery, toAlarmItem } from './service.ts';

const api = DoorAlarmApi;

/** Alarms (Admin or User): the list and its export, and acknowledging with a note. */
export const doorAlarmRoutes = [
  ...implementResource(api, {
    table: 'DoorAlarm',
    query: alarmQuery,
    toItem: toAlarmItem,
    where: {
      Kind: match.equals('DoorAlarm.Kind'),
      State: match.equals('DoorAlarm.State'),
      DeviceId: match.equals('DoorAlarm.DeviceId'),
    },
    sorts: { RaisedAt: 'DoorAlarm.RaisedAt', Id: 'DoorAlarm.Id' },
    defaultOrder: 'desc',
    timeRange: { column: 'DoorAlarm.RaisedAt' },
    export: {
      titleKey: 'accessControl.title.doorAlarm',
      columns: [
        { key: 'RaisedAt', labelKey: 'accessControl.field.RaisedAt', kind: 'instant' },
        enumColumn('Kind', 'AlarmKind', doorAlarmKind, 18),
        { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
        { key: 'DoorName', labelKey: 'accessControl.field.ChannelName', width: 20 },
        { key: 'Count', labelKey: 'accessControl.field.AlarmCount', kind: 'number' },
        { key: 'Detail', labelKey: 'accessControl.field.AlarmDetail', width: 24 },
        { key: 'ClearedAt', labelKey: 'accessControl.field.ClearedAt', kind: 'instant' },
        enumColumn('State', 'AlarmState', doorAlarmState),
        { key: 'AcknowledgedAt', labelKey: 'accessControl.field.AcknowledgedAt', kind: 'instant' },
        { key: 'AcknowledgedBy', labelKey: 'accessControl.field.AcknowledgedBy' },
        { key: 'Note', labelKey: 'accessControl.field.AlarmNote', width: 30 },
      ],
    },
  }),
  route(api.acknowledge, ({ body }, ctx) => acknowledgeAlarms(ctx, body.Ids, body.Note)),
];
