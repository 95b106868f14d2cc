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
import { openAlarms as alarmsToAcknowledge } from '../door-alarm/service.ts';

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

/** The area's enabled WG controllers by connection as the gateway last stored it, and how many sync now. */
async function controllersByState(ctx: AreaContext): Promise<AccessControlSummary['Controllers']> {
  const controllers = await ctx.db.kysely
    .selectFrom('AccessControlDevice as D')
    .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'D.Id')
    .select(['S.Online', 'S.SyncState', 'S.SyncPhase'])
    .where('D.AreaId', '=', ctx.areaId)
    .where('D.Protocol', '=', PROTOCOL_WG)
    .where('D.Disabled', '=', 0)
    .execute();
  const driven = gatewayRunning(ctx.db);
  const byState = { Total: controllers.length, Online: 0, Offline: 0, Unknown: 0, Syncing: 0 };
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
  return byState;
}

/** Card swipes of the area's local day by result (door events and alarms are not swipes). */
async function todaysSwipes(ctx: AreaContext, zone: string): Promise<AccessControlSummary['Today']> {
  const today = startOfLocalDay(ctx.clock.now(), zone);
  const swipes = await ctx.db.kysely
    .selectFrom('DoorOpeningRecord')
    .select((eb) => ['Result', eb.fn.countAll().as('n')])
    .where('AreaId', '=', ctx.areaId)
    .where('At', '>=', today)
    .where('At', '<', addLocalDays(today, 1, zone))
    .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', RECORD_SWIPE)]))
    .groupBy('Result')
    .execute();
  return {
    Granted: n(swipes.find((s) => n(s.Result) === 1)?.n),
    Denied: n(swipes.find((s) => n(s.Result) === 0)?.n),
  };
}

/** Authorisations waiting for the device sync, and those whose last attempt failed. */
async function waitingAuthorizations(ctx: AreaContext): Promise<AccessControlSummary['Authorizations']> {
  const waiting = await ctx.db.kysely
    .selectFrom('CardUserLinkChannel')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('SyncError').as('failing')])
    .where('AreaId', '=', ctx.areaId)
    .where('IssueStatus', 'in', PENDING_SYNC)
    .executeTakeFirstOrThrow();
  return { Pending: n(waiting.n), Failing: n(waiting.failing) };
}

/** Doors in alarm: per door its newest alarm of the window that no door-closed event followed. */
async function openAlarms(ctx: AreaContext): Promise<AccessControlSummary['Alarms']> {
  const alarms = await ctx.db.kysely
    .selectFrom('DoorOpeningRecord as A')
    .select(['A.Id', 'A.At', 'A.DeviceId', 'A.DeviceName', 'A.DoorNumber', 'A.ChannelName', 'A.EventReason'])
    .where('A.AreaId', '=', ctx.areaId)
    .where('A.At', '>=', ctx.clock.now() - ALARM_WINDOW_MS)
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
    .execute();
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
  return { Open: doors.size, Items: [...doors.values()].slice(0, ALARMS_LISTED) };
}

export async function accessControlSummary(ctx: AreaContext): Promise<AccessControlSummary> {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const [Controllers, Today, Authorizations, Alarms, OpenAlarms] = await Promise.all([
    controllersByState(ctx),
    todaysSwipes(ctx, zone),
    waitingAuthorizations(ctx),
    openAlarms(ctx),
    alarmsToAcknowledge(ctx, ALARMS_LISTED),
  ]);
  return { TimeZone: zone, Controllers, Today, Authorizations, Alarms, OpenAlarms };
}
