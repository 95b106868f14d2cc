import { z } from 'zod';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';
import { doorAlarmItem } from './door-alarm.ts';
import { occupancySummary } from './occupancy.ts';

/** An alarm a door has raised and not yet cleared (GET /api/AccessControlDashboard, docs/access-control.md). */
export const openDoorAlarm = z.object({
  /** The alarm's swipe record. */
  Id: z.number(),
  At: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  DoorNumber: z.number(),
  ChannelName: z.string().nullable(),
  /** The controller's reason code (doorEventReason: 37 held open, 38 forced open, 39 fire…). */
  EventReason: z.number().nullable(),
});
export type OpenDoorAlarm = z.output<typeof openDoorAlarm>;

/** The access-control overview on the dashboard, for the current area. */
export const accessControlSummary = z.object({
  /** The area's zone: where "today" starts. */
  TimeZone: z.string(),
  /** Enabled WG controllers of the area by connection state (unknown: never answered, or no gateway runs). */
  Controllers: z.object({
    Total: z.number(),
    Online: z.number(),
    Offline: z.number(),
    Unknown: z.number(),
    /** Controllers whose authorisation sync is running now. */
    Syncing: z.number(),
  }),
  /** Card swipes of the area's local day so far (door events and alarms not counted). */
  Today: z.object({ Granted: z.number(), Denied: z.number() }),
  /** Authorisations waiting for the device sync (pending issue, update, deletion); Failing: their last attempt failed. */
  Authorizations: z.object({ Pending: z.number(), Failing: z.number() }),
  /** Doors in alarm: count, and the newest few. */
  Alarms: z.object({ Open: z.number(), Items: z.array(openDoorAlarm) }),
  /** Alarm records waiting for an operator's acknowledgement: count, and the newest few. */
  OpenAlarms: z.object({ Count: z.number(), Items: z.array(doorAlarmItem) }),
  /** Who is inside now, and the roll call under way (GET /api/Occupancy/Summary). */
  Occupancy: occupancySummary,
});
export type AccessControlSummary = z.output<typeof accessControlSummary>;

export const AccessControlDashboardApi = {
  summary: operation({
    method: 'GET',
    path: '/api/AccessControlDashboard',
    summary:
      "Access control at a glance for the current area: controllers online, today's swipes, authorisations waiting for sync, doors in alarm",
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    reply: accessControlSummary,
  }),
};
