import { z } from 'zod';
import { doorAlarmKind, doorAlarmState } from '../../enums/access-rules.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema, idList } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** An alarm a door or controller raised (docs/access-control.md, "Door monitor and alarms"). */
export const doorAlarmItem = z.object({
  Id: z.number(),
  /** doorAlarmKind: 1 forced, 2 held open, 3 repeated refused swipes, 4 controller offline */
  Kind: z.number(),
  /** doorAlarmState: 0 open, 1 acknowledged */
  State: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  /** 0 for the whole controller (offline). */
  DoorNumber: z.number(),
  DoorName: z.string().nullable(),
  RaisedAt: z.string(),
  /** The latest occurrence while it was open (refused swipes go on counting). */
  LastAt: z.string(),
  Count: z.number(),
  /** When the condition ended (the door closed, the controller answered again); null while it lasts. */
  ClearedAt: z.string().nullable(),
  /** What the alarm saw: the refused cards, how long the door stood open. */
  Detail: z.string().nullable(),
  AcknowledgedAt: z.string().nullable(),
  AcknowledgedBy: z.string().nullable(),
  Note: z.string().nullable(),
});
export type DoorAlarmItem = z.output<typeof doorAlarmItem>;

export const acknowledgeAlarmsBody = z.strictObject({
  Ids: idList(200),
  Note: z.string().trim().min(1).max(200),
});

/**
 * Alarms (AccessControl/Admin or User): every alarm raised in the area, with its acknowledgement; listed,
 * exported and acknowledged with a note (all or none). Raised by the device gateway, never by a caller.
 */
export const DoorAlarmApi = {
  ...resourceApi({
    name: 'DoorAlarm',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: doorAlarmItem,
    filters: {
      Kind: filterSchema.oneOf(doorAlarmKind),
      State: filterSchema.oneOf(doorAlarmState),
      DeviceId: filterSchema.id(),
    },
    sorts: ['RaisedAt', 'Id'],
    timeRange: true,
  }),
  acknowledge: operation({
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    method: 'POST',
    path: '/api/DoorAlarm/Acknowledge',
    summary: 'Acknowledge open alarms with a note (all or none; an alarm acknowledged before is refused)',
    body: acknowledgeAlarmsBody,
    reply: z.object({ Acknowledged: z.number() }),
  }),
};
