import {
  STOP_REASON,
  type EmergencyActorKind,
  type EmergencyHostNotReached,
  type EmergencyReleaseOutcome,
  type EmergencyStopOutcome,
  type ZoneEmergencyStopItem,
} from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { actorDisplayName, actorUserId, type AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { sendCommand } from '../charge-host/commands.ts';
import { releaseSessionStop, requestSessionStop } from '../charge-record/stop-requests.ts';
import { socketSessions } from '../charge-record/service.ts';
import {
  chargerGateway,
  type CommandAnswer,
  type HostTarget,
  type PowerOffAnswer,
} from '../common/gateway.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../common/liveness.ts';
import { inForce, stopItem, zoneUnderEmergencyStop, type Trx } from './emergency-state.ts';

/**
 * A parking zone's emergency stop (docs/garage.md "Emergency stop"; issue 30): the one writer of
 * ParkAreaEmergencyStop. Stopping stores the stop first, so from its commit every start in the zone is refused
 * (charge-record/admission.ts reads it), whichever instance the charger talks to; then every running session is
 * asked to stop (the path a forced power-off and a safety rule take: the stop reason is stored on the session,
 * RemoteStopTransaction goes to the instance holding the charger, its StopTransaction ends the session "emergency
 * stop") and every connector of the zone's charging-API hosts is sent ChangeAvailability Inoperative. Releasing
 * sends Operative to every connector but those an operator disabled. A charger not reached gets the same when it
 * next connects (gateways/ocpp/emergency.ts asks `emergencyOnConnect`). Both are audited with who and why, told to
 * the area's browsers (hub `ZoneEmergency`) and to other systems (`zone.emergency_stopped`, `_released`).
 */

/** A unique violation (the zone's stop in force made by someone else a moment ago), on either database. */
function isUniqueViolation(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === '23505' ||
    (typeof code === 'string' &&
      code.startsWith('SQLITE_CONSTRAINT') &&
      typeof message === 'string' &&
      message.includes('UNIQUE'))
  );
}

const actorKind = (ctx: AreaContext): EmergencyActorKind =>
  ctx.actor.kind === 'user' || ctx.actor.kind === 'key' ? ctx.actor.kind : 'system';

async function zoneOfArea(k: Trx, ctx: AreaContext, zoneId: number) {
  const zone = await k
    .selectFrom('ParkArea')
    .select(['Id', 'Name'])
    .where('Id', '=', zoneId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!zone) throw notFound();
  return zone;
}

/** A host of the zone, its sockets and its running sessions: what the stop and the release send commands to. */
interface ZoneHost {
  target: HostTarget;
  name: string;
  sockets: { id: number; port: number; disabled: boolean }[];
  sessions: { recordId: number; port: number }[];
}

async function zoneHosts(k: Trx, areaId: number, zoneId: number): Promise<ZoneHost[]> {
  const [sockets, sessions] = await Promise.all([
    k
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select([
        'ChargeHost.Id as HostId',
        'ChargeHost.Name as HostName',
        'ChargeHost.SerialNumber',
        'ChargeHost.ChargingSystemType',
        'ChargeEquipment.Id',
        'ChargeEquipment.PortNumber',
        'ChargeEquipment.Disabled',
      ])
      .where('ChargeHost.ParkAreaId', '=', zoneId)
      .where('ChargeHost.AreaId', '=', areaId)
      .orderBy('ChargeHost.Id')
      .orderBy('ChargeEquipment.PortNumber')
      .execute(),
    zoneSessions(k, areaId, zoneId),
  ]);
  const hosts = new Map<number, ZoneHost>();
  for (const s of sockets) {
    let host = hosts.get(s.HostId);
    if (!host) {
      host = {
        target: { hostId: s.HostId, serialNumber: s.SerialNumber, chargingSystemType: s.ChargingSystemType },
        name: s.HostName,
        sockets: [],
        sessions: [],
      };
      hosts.set(s.HostId, host);
    }
    host.sockets.push({ id: s.Id, port: s.PortNumber, disabled: s.Disabled === 1 });
  }
  for (const s of sessions) hosts.get(s.hostId)?.sessions.push({ recordId: s.recordId, port: s.port });
  return [...hosts.values()];
}

/** The sessions running in the zone now. */
async function zoneSessions(k: Trx, areaId: number, zoneId: number) {
  const rows = await socketSessions(k, { areaId })
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select(['ChargeRecord.Id', 'ChargeEquipment.PortNumber', 'ChargeHost.Id as HostId'])
    .where('ChargeHost.ParkAreaId', '=', zoneId)
    .execute();
  return rows.map((r) => ({ recordId: r.Id, port: r.PortNumber, hostId: r.HostId }));
}

type NotReached = EmergencyHostNotReached['Outcome'];

/** A command's answer as a host "not reached", or null when the charger took it. */
function commandNotReached(answer: CommandAnswer): NotReached | null {
  if (answer.outcome === 'accepted') return null;
  if (answer.outcome === 'notSent') return answer.reason;
  return answer.outcome;
}

function powerOffNotReached(answer: PowerOffAnswer): NotReached | null {
  if (answer.outcome === 'sent' || answer.outcome === 'cut') return null;
  if (answer.outcome === 'notSent') return answer.reason;
  return answer.reason === 'timeout' ? 'timeout' : 'refused';
}

/** The commands to one host stop at a charger that is not there or does not answer: the rest would wait too. */
const gone = (outcome: NotReached | null) => outcome === 'notConnected' || outcome === 'timeout';

/** What one host's commands came to, added up into the stop's or the release's outcome. */
interface HostTally {
  sessions: number;
  sessionsStopped: number;
  sockets: number;
  socketsDone: number;
  keptDisabled: number;
  notReached: NotReached | null;
}

const tally = (): HostTally => ({
  sessions: 0,
  sessionsStopped: 0,
  sockets: 0,
  socketsDone: 0,
  keptDisabled: 0,
  notReached: null,
});

/**
 * Asks one session to stop "emergency stop": stored on the session first (its StopTransaction, whenever it comes,
 * ends it with that reason), then RemoteStopTransaction through the charger seam, carried to the instance holding
 * the charger. A refusal or no answer releases the request; a charger not connected keeps it, and is asked again
 * when it connects.
 */
async function stopSession(
  ctx: AreaContext,
  host: ZoneHost,
  session: { recordId: number; port: number },
  why: { ZoneName: string; Reason: string },
): Promise<NotReached | null> {
  await requestSessionStop(ctx, session.recordId, STOP_REASON.emergencyStop, why);
  const gateway = chargerGateway(ctx);
  const answer: PowerOffAnswer = gateway
    ? await gateway
        .powerOff({ ...host.target, portNumber: session.port, chargeRecordId: session.recordId })
        .catch((): PowerOffAnswer => ({ outcome: 'failed', reason: 'timeout' }))
    : { outcome: 'notSent', reason: 'noDeviceLink' };
  const outcome = powerOffNotReached(answer);
  if (outcome !== null && outcome !== 'notConnected')
    await releaseSessionStop(ctx.db.kysely, session.recordId, STOP_REASON.emergencyStop);
  return outcome;
}

/**
 * One host's part of the stop: its sessions asked to stop, then each connector sent Inoperative, in port order;
 * a charger not connected or not answering is not asked more (it gets all of it when it connects). Before each
 * connector the stop must still be in force: a release made meanwhile wins.
 */
async function stopHost(
  ctx: AreaContext,
  stopId: number,
  host: ZoneHost,
  why: { ZoneName: string; Reason: string },
): Promise<HostTally> {
  const t = tally();
  const live = host.target.chargingSystemType === LIVE_LINK_SYSTEM_TYPE;
  t.sessions = host.sessions.length;
  if (live) t.sockets = host.sockets.length;
  for (const session of host.sessions) {
    const outcome = await stopSession(ctx, host, session, why);
    if (outcome === null) t.sessionsStopped += 1;
    else t.notReached ??= outcome;
    if (gone(outcome)) return t;
  }
  if (!live) {
    // No protocol drives this host: nothing to send, and its sessions (if any) were not reached.
    if (t.sessions > 0) t.notReached ??= 'noDeviceLink';
    return t;
  }
  for (const socket of host.sockets) {
    if (!(await stillInForce(ctx.db.kysely, stopId))) break;
    const answer = await sendCommand(ctx, host.target, {
      kind: 'availability',
      portNumber: socket.port,
      operative: false,
    });
    const outcome = commandNotReached(answer);
    if (outcome === null) t.socketsDone += 1;
    else t.notReached ??= outcome;
    if (gone(outcome)) break;
  }
  return t;
}

async function stillInForce(k: Trx, stopId: number): Promise<boolean> {
  const row = await k
    .selectFrom('ParkAreaEmergencyStop')
    .select('Id')
    .where('Id', '=', stopId)
    .where('ReleasedAt', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

function notReachedList(hosts: ZoneHost[], tallies: HostTally[]): EmergencyHostNotReached[] {
  return hosts.flatMap((host, i) => {
    const outcome = tallies[i]!.notReached;
    return outcome ? [{ ChargeHostId: host.target.hostId, HostName: host.name, Outcome: outcome }] : [];
  });
}

/** Tells the area's browsers (every instance: the hub fans out over the cluster bus). */
function announce(ctx: AreaContext, item: ZoneEmergencyStopItem): void {
  ctx.seams?.live.publish(ctx.areaId, { Type: 'ZoneEmergency', ...item });
}

/** The outward event of a stop or a release, in the transaction that stored its outcome. */
async function emitZoneEvent(
  trx: Trx,
  ctx: AreaContext,
  type: 'zone.emergency_stopped' | 'zone.emergency_released',
  item: ZoneEmergencyStopItem,
  at: number,
): Promise<void> {
  const names = await areaNames(trx, [ctx.areaId]);
  await emitEvent(trx, {
    type,
    at,
    data: { ...item, AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' },
  });
}

/** Stores the stop and its audit entry (who and why): from this commit every start in the zone is refused. */
async function storeStop(ctx: AreaContext, zoneId: number, reason: string) {
  return ctx.db.kysely
    .transaction()
    .execute(async (trx) => {
      const zone = await zoneOfArea(trx, ctx, zoneId);
      if (await inForce(trx, zoneId)) throw new AppError(409, 'garage.error.zoneEmergencyStopped');
      const row = await trx
        .insertInto('ParkAreaEmergencyStop')
        .values({
          AreaId: ctx.areaId,
          ParkAreaId: zoneId,
          Reason: reason,
          StoppedAt: ctx.clock.now(),
          StoppedById: actorUserId(ctx.actor),
          StoppedBy: actorDisplayName(ctx.actor),
          StoppedByKind: actorKind(ctx),
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await audit(
        ctx,
        {
          action: 'emergencyStop',
          entity: 'ParkArea',
          entityId: zoneId,
          before: { Name: zone.Name },
          after: { Name: zone.Name, Reason: reason },
        },
        trx,
      );
      return { stopId: row.Id, zoneName: zone.Name };
    })
    .catch((error: unknown) => {
      // Two stops at once: the index lets one in; the other is told the zone is stopped already.
      if (isUniqueViolation(error)) throw new AppError(409, 'garage.error.zoneEmergencyStopped');
      throw error;
    });
}

/** Sends the stop's commands to every host of the zone at once, and adds up what they came to. */
async function sendStop(
  ctx: AreaContext,
  stopId: number,
  zoneId: number,
  why: { ZoneName: string; Reason: string },
): Promise<EmergencyStopOutcome> {
  const k = ctx.db.kysely;
  const hosts = await zoneHosts(k, ctx.areaId, zoneId);
  const tallies = await Promise.all(hosts.map((host) => stopHost(ctx, stopId, host, why)));
  // A start the admission gate let through just before the stop was stored: asked to stop too.
  const asked = new Set(hosts.flatMap((h) => h.sessions.map((s) => s.recordId)));
  for (const late of await zoneSessions(k, ctx.areaId, zoneId)) {
    const i = hosts.findIndex((h) => h.target.hostId === late.hostId);
    if (asked.has(late.recordId) || i < 0) continue;
    const outcome = await stopSession(ctx, hosts[i]!, late, why);
    tallies[i]!.sessions += 1;
    if (outcome === null) tallies[i]!.sessionsStopped += 1;
    else tallies[i]!.notReached ??= outcome;
  }
  const sum = (f: (t: HostTally) => number) => tallies.reduce((n, t) => n + f(t), 0);
  return {
    SessionsRunning: sum((t) => t.sessions),
    SessionsStopped: sum((t) => t.sessionsStopped),
    Sockets: sum((t) => t.sockets),
    SocketsInoperative: sum((t) => t.socketsDone),
    NotReached: notReachedList(hosts, tallies),
  };
}

/**
 * Stores what the commands of a stop or a release came to, audits it and writes its outward event, in one
 * transaction: an event exists exactly when its outcome does.
 */
async function storeOutcome(
  ctx: AreaContext,
  stop: { stopId: number; zoneId: number; zoneName: string },
  step: 'stop' | 'release',
  outcome: EmergencyStopOutcome | EmergencyReleaseOutcome,
  pending: number[] = [],
): Promise<ZoneEmergencyStopItem> {
  const { NotReached, ...figures } = outcome;
  // The operation log's words are looked up by the literal actions audited below (audit-labels reads them).
  const stopping = step === 'stop';
  const columns = stopping
    ? { StopOutcome: JSON.stringify(outcome) }
    : { ReleaseOutcome: JSON.stringify(outcome), ReleasePending: JSON.stringify(pending) };
  const item = await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('ParkAreaEmergencyStop').set(columns).where('Id', '=', stop.stopId).execute();
    await audit(
      ctx,
      {
        action: stopping ? 'emergencyStop.result' : 'emergencyRelease.result',
        entity: 'ParkArea',
        entityId: stop.zoneId,
        before: { Name: stop.zoneName },
        after: {
          Name: stop.zoneName,
          ...figures,
          NotReached: NotReached.map((h) => `${h.HostName}: ${h.Outcome}`),
        },
      },
      trx,
    );
    const stored = await stopItem(trx, stop.stopId);
    const type = step === 'stop' ? 'zone.emergency_stopped' : 'zone.emergency_released';
    await emitZoneEvent(trx, ctx, type, stored, ctx.clock.now());
    return stored;
  });
  announce(ctx, item);
  return item;
}

/**
 * The operator's (or a fire panel's) emergency stop of a zone: 404 for a zone of another area, 409 when it is
 * under emergency stop already. The stop is stored and audited (who and why) before anything is sent; the reply
 * is the stop with what its commands came to.
 */
export async function emergencyStop(
  ctx: AreaContext,
  zoneId: number,
  reason: string,
): Promise<ZoneEmergencyStopItem> {
  const { stopId, zoneName } = await storeStop(ctx, zoneId, reason);
  announce(ctx, await stopItem(ctx.db.kysely, stopId));
  const outcome = await sendStop(ctx, stopId, zoneId, { ZoneName: zoneName, Reason: reason });
  return storeOutcome(ctx, { stopId, zoneId, zoneName }, 'stop', outcome);
}

/**
 * One host's part of the release: each enabled connector sent Operative (a socket an operator disabled stays
 * Inoperative), while no new stop is in force; a charger not connected or not answering is made Operative when it
 * next connects.
 */
async function releaseHost(ctx: AreaContext, zoneId: number, host: ZoneHost): Promise<HostTally> {
  const t = tally();
  if (host.target.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) return t;
  for (const socket of host.sockets) {
    if (socket.disabled) {
      t.keptDisabled += 1;
      continue;
    }
    t.sockets += 1;
    if (gone(t.notReached) || (await zoneUnderEmergencyStop(ctx.db.kysely, zoneId))) continue;
    const answer = await sendCommand(ctx, host.target, {
      kind: 'availability',
      portNumber: socket.port,
      operative: true,
    });
    const outcome = commandNotReached(answer);
    if (outcome === null) t.socketsDone += 1;
    else t.notReached ??= outcome;
  }
  return t;
}

/** Marks the stop released with the note and audits it (before: why it was stopped): starts are allowed again. */
async function storeRelease(ctx: AreaContext, zoneId: number, note: string) {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const zone = await zoneOfArea(trx, ctx, zoneId);
    const stop = await inForce(trx, zoneId);
    if (!stop) throw new AppError(409, 'garage.error.zoneNotEmergencyStopped');
    const released = await trx
      .updateTable('ParkAreaEmergencyStop')
      .set({
        ReleasedAt: ctx.clock.now(),
        ReleasedById: actorUserId(ctx.actor),
        ReleasedBy: actorDisplayName(ctx.actor),
        ReleasedByKind: actorKind(ctx),
        Note: note,
      })
      .where('Id', '=', stop.Id)
      .where('ReleasedAt', 'is', null)
      .executeTakeFirst();
    // Released by someone else a moment ago.
    if (Number(released.numUpdatedRows) !== 1)
      throw new AppError(409, 'garage.error.zoneNotEmergencyStopped');
    await audit(
      ctx,
      {
        action: 'emergencyRelease',
        entity: 'ParkArea',
        entityId: zoneId,
        before: { Name: zone.Name, Reason: stop.Reason },
        after: { Name: zone.Name, Note: note },
      },
      trx,
    );
    return { stopId: stop.Id, zoneName: zone.Name };
  });
}

/**
 * Releases the zone's emergency stop with the operator's note: 404 for a zone of another area, 409 when it is not
 * under emergency stop. Starts are allowed from the commit on; the reply is the released stop with what the
 * Operative commands came to. Chargers that were not there are made Operative when they connect.
 */
export async function emergencyRelease(
  ctx: AreaContext,
  zoneId: number,
  note: string,
): Promise<ZoneEmergencyStopItem> {
  const { stopId, zoneName } = await storeRelease(ctx, zoneId, note);
  announce(ctx, await stopItem(ctx.db.kysely, stopId));
  const hosts = await zoneHosts(ctx.db.kysely, ctx.areaId, zoneId);
  const tallies = await Promise.all(hosts.map((host) => releaseHost(ctx, zoneId, host)));
  const sum = (f: (t: HostTally) => number) => tallies.reduce((n, t) => n + f(t), 0);
  const outcome: EmergencyReleaseOutcome = {
    Sockets: sum((t) => t.sockets),
    SocketsOperative: sum((t) => t.socketsDone),
    SocketsKeptDisabled: sum((t) => t.keptDisabled),
    NotReached: notReachedList(hosts, tallies),
  };
  const pending = outcome.NotReached.filter((h) => gone(h.Outcome)).map((h) => h.ChargeHostId);
  return storeOutcome(ctx, { stopId, zoneId, zoneName }, 'release', outcome, pending);
}
