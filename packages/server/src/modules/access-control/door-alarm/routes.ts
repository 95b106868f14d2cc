import { DoorAlarmApi, doorAlarmKind, doorAlarmState } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
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
      columns: exportColumns('accessControl.field', {
        RaisedAt: 'instant',
        Kind: { header: 'AlarmKind', enum: doorAlarmKind, width: 18 },
        DeviceName: 20,
        DoorName: { header: 'ChannelName', width: 20 },
        Count: { header: 'AlarmCount', kind: 'number' },
        Detail: { header: 'AlarmDetail', width: 24 },
        ClearedAt: 'instant',
        State: { header: 'AlarmState', enum: doorAlarmState },
        AcknowledgedAt: 'instant',
        AcknowledgedBy: 'text',
        Note: { header: 'AlarmNote', width: 30 },
      }),
    },
  }),
  route(api.acknowledge, ({ body }, ctx) => acknowledgeAlarms(ctx, body.Ids, body.Note)),
];
