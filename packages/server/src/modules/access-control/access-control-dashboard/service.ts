import { PROTOCOL_WG, addLocalDays, startOfLocalDay, type AccessControlSummary } from '@gatehouse/shared';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { controllerStateAsKnown, gatewayRunning } from '../access-control-device/controllers.ts';
import { PENDING_SYNC } from '../card-user-link-channel/lifecycle.ts';
import { openAlarms as alarmsToAcknowledge } from '../door-alarm/service.ts';
import { ALARM_WINDOW_MS, RECORD, doorsInAlarm } from '../door-monitor/door-rule.ts';
import { occupancySummary } from '../occupancy/service.ts';

/**
 * The access-control overview of the dashboard (docs/access-control.md, "Dashboard"): controllers by
 * connection, today's swipes, authorisations waiting for the device sync, doors in alarm, and who is inside.
 */

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
  const driven = gatewayRunning(ctx);
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
    .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', RECORD.swipe)]))
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

/** Doors in alarm by the rule the door monitor follows too (door-monitor/door-rule.ts): count, and the newest few. */
async function openAlarms(ctx: AreaContext): Promise<AccessControlSummary['Alarms']> {
  const doors = await doorsInAlarm(ctx.db.kysely, ctx.areaId, ctx.clock.now() - ALARM_WINDOW_MS);
  return { Open: doors.length, Items: doors.slice(0, ALARMS_LISTED) };
}

export async function accessControlSummary(ctx: AreaContext): Promise<AccessControlSummary> {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const [Controllers, Today, Authorizations, Alarms, OpenAlarms, Occupancy] = await Promise.all([
    controllersByState(ctx),
    todaysSwipes(ctx, zone),
    waitingAuthorizations(ctx),
    openAlarms(ctx),
    alarmsToAcknowledge(ctx, ALARMS_LISTED),
    occupancySummary(ctx),
  ]);
  return { TimeZone: zone, Controllers, Today, Authorizations, Alarms, OpenAlarms, Occupancy };
}
