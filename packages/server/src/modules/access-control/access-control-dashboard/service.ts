import {
  PROTOCOL_WG,
  addLocalDays,
  startOfLocalDay,
  type AccessControlSummary,
  type OpenDoorAlarm,
} from '@gatehouse/shared';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { controllerStateAsKnown, gatewayRunning } from '../access-control-device/controllers.ts';
import { PENDING_SYNC } from '../card-user-link-channel/lifecycle.ts';
import { iso } from '../common.ts';

/**
 * The access-control overview of the dashboard (docs/access-control.md, "Dashboard"): controllers by
 * connection, today's swipes, authorisations waiting for the device sync and doors in alarm.
 */

/** Record types a controller reports (docs/devices.md, "Record"); records not read from a controller have none. */
const RECORD_SWIPE = 1;
const RECORD_DOOR = 2;
const RECORD_ALARM = 3;
/** The controller's reason code of a door-sensor "closed" event (doorEventReason 24). */
const DOOR_CLOSED = 24;
/** How far back an alarm that no door-closed event followed still counts as open. */
export const ALARM_WINDOW_MS = 24 * 3_600_000;
/** Doors in alarm the overview lists (the count covers all). */
const ALARMS_LISTED = 5;

const n = (v: unknown) => Number(v ?? 0);

export async function accessControlSummary(ctx: AreaContext): Promise<AccessControlSummary> {
  const k = ctx.db.kysely;
  const areaId = ctx.areaId;
  const now = ctx.clock.now();
  const zone = await areaTimeZone(k, areaId);
  const today = startOfLocalDay(now, zone);
  const [controllers, swipes, waiting, alarms] = await Promise.all([
    k
      .selectFrom('AccessControlDevice as D')
      .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'D.Id')
      .select(['S.Online', 'S.SyncState', 'S.SyncPhase'])
      .where('D.AreaId', '=', areaId)
      .where('D.Protocol', '=', PROTOCOL_WG)
      .where('D.Disabled', '=', 0)
      .execute(),
    k
      .selectFrom('DoorOpeningRecord')
      .select((eb) => ['Result', eb.fn.countAll().as('n')])
      .where('AreaId', '=', areaId)
      .where('At', '>=', today)
      .where('At', '<', addLocalDays(today, 1, zone))
      // Card swipes only: door events (button, remote open, sensor) and alarms are not swipes.
      .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', RECORD_SWIPE)]))
      .groupBy('Result')
      .execute(),
    k
      .selectFrom('CardUserLinkChannel')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('SyncError').as('failing')])
      .where('AreaId', '=', areaId)
      .where('IssueStatus', 'in', PENDING_SYNC)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('DoorOpeningRecord as A')
      .select([
        'A.Id',
        'A.At',
        'A.DeviceId',
        'A.DeviceName',
        'A.DoorNumber',
        'A.ChannelName',
        'A.EventReason',
      ])
      .where('A.AreaId', '=', areaId)
      .where('A.At', '>=', now - ALARM_WINDOW_MS)
      .where('A.EventType', '=', RECORD_ALARM)
      // Cleared by the door reporting closed after it (the controller's own ring order).
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('DoorOpeningRecord as C')
              .select('C.Id')
              .whereRef('C.DeviceId', '=', 'A.DeviceId')
              .whereRef('C.DoorNumber', '=', 'A.DoorNumber')
              .whereRef('C.RecordIndex', '>', 'A.RecordIndex')
              .where('C.EventType', '=', RECORD_DOOR)
              .where('C.EventReason', '=', DOOR_CLOSED),
          ),
        ),
      )
      .orderBy('A.At', 'desc')
      .orderBy('A.Id', 'desc')
      .execute(),
  ]);

  const driven = gatewayRunning(ctx.db);
  const byState = { Online: 0, Offline: 0, Unknown: 0, Syncing: 0 };
  for (const c of controllers) {
    const state = controllerStateAsKnown(driven, {
      Online: c.Online === null ? null : n(c.Online) === 1,
      SyncState: c.SyncState,
      SyncPhase: c.SyncPhase,
    });
    if (state.Online === null) byState.Unknown++;
    else if (state.Online) byState.Online++;
    else byState.Offline++;
    if (state.SyncState === 'running') byState.Syncing++;
  }

  // One entry per door: its newest open alarm.
  const doors = new Map<string, OpenDoorAlarm>();
  for (const a of alarms) {
    const key = `${a.DeviceId}:${a.DoorNumber}`;
    if (doors.has(key)) continue;
    doors.set(key, {
      Id: a.Id,
      At: iso(a.At)!,
      DeviceId: a.DeviceId,
      DeviceName: a.DeviceName,
      DoorNumber: a.DoorNumber,
      ChannelName: a.ChannelName,
      EventReason: a.EventReason === null ? null : n(a.EventReason),
    });
  }

  return {
    TimeZone: zone,
    Controllers: { Total: controllers.length, ...byState },
    Today: {
      Granted: n(swipes.find((s) => n(s.Result) === 1)?.n),
      Denied: n(swipes.find((s) => n(s.Result) === 0)?.n),
    },
    Authorizations: { Pending: n(waiting.n), Failing: n(waiting.failing) },
    Alarms: { Open: doors.size, Items: [...doors.values()].slice(0, ALARMS_LISTED) },
  };
}
