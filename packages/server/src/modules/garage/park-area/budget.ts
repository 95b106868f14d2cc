import { STOP_REASON } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { Clock } from '../../../platform/clock.ts';
import { systemActor, type AreaContext, type Seams } from '../../../platform/context.ts';
import { sendCommand } from '../charge-host/commands.ts';
import { releaseSessionStop, requestSessionStop } from '../charge-record/stop-requests.ts';
import { chargerGateway, type CommandAnswer, type HostTarget } from '../common/gateway.ts';
import { planBudget, type PlanSession } from './budget-plan.ts';
import { drawOf, zoneSocketReadings, type ZoneSocketReading } from './power.ts';

/**
 * The zone power budget's sweep (issue 30; docs/garage.md "Zone power budget"): every BUDGET_SWEEP_MS, once
 * across the cluster (app.ts runs it as a singleton), each zone with a budget is evaluated from its sockets'
 * live readings (power.ts) and the figure is stored (ParkAreaPower: what every start's admission reads). A zone
 * above its budget for longer than BudgetGraceSeconds gets its sessions limited or stopped (budget-plan.ts);
 * once its draw has stayed at or below RELEASE_RATIO of the budget for as long, the limits are taken back.
 * Everything it does is audited on the zone, with the figures it acted on, by the system actor below.
 *
 * Once per excess, whatever the instances: an action is claimed first by a conditional update of the zone's row
 * (the `OverSince` it read, set back to null), so two sweeps that read the same excess (a lease changing hands)
 * cannot both act; and since the claim clears `OverSince`, a new action needs a whole new grace period above
 * the budget, in which the chargers have reported what the last one did. Commands reach each charger wherever
 * its connection is held: the charger seam carries them to the holding instance (docs/deployment.md).
 */

/** How often the sweep runs (ms). */
export const BUDGET_SWEEP_MS = 5_000;
/** Limits are taken back once the draw has stayed at or below this share of the budget for the grace period. */
export const RELEASE_RATIO = 0.8;
/**
 * A limited session drawing above its limit by more than this (W, or 5 %, whichever is more), in a reading taken
 * after the limit was accepted, does not honour it: it is treated as a charger that takes no limit.
 */
export const LIMIT_TOLERANCE_W = 10;
/** The sweep's actor in the operation log. */
const ACTOR = 'zone power budget';

/** A limit the sweep sent a session and its charger accepted (ParkAreaPower.Limits). */
export interface SentLimit {
  ChargeRecordId: number;
  LimitW: number;
  /** When it was accepted (ms). */
  At: number;
}

/** One session as an enforcement saw it and what was done to it (the audit entry's Sessions). */
export interface BudgetSessionEntry {
  ChargeRecordId: number;
  HostName: string;
  PortNumber: number;
  /** Its live power (W), null when unknown. */
  PowerW: number | null;
  SmartCharging: boolean;
  /** `limit` (a limit sent), `stop` (stopped), `kept` (left as it was: within its share, or its limit holds). */
  Action: 'limit' | 'stop' | 'kept';
  LimitW: number | null;
  /** The charger's answer to what was sent (Accepted, Rejected, NotSupported, sent, timeout, …); null: nothing sent. */
  Outcome: string | null;
}

/** What one sweep did in a zone (also in the operation log). */
export type BudgetAction =
  | {
      kind: 'enforce';
      zoneId: number;
      drawW: number;
      budgetW: number;
      shareW: number | null;
      sessions: BudgetSessionEntry[];
    }
  | { kind: 'release'; zoneId: number; drawW: number; budgetW: number | null; cleared: number[] };

/** What the sweep needs of the app: the database, the clock, the charger seam. */
export interface BudgetSweepDeps {
  db: Db;
  clock: Clock;
  seams?: Seams;
}

type Zone = {
  Id: number;
  AreaId: number;
  Name: string;
  PowerBudgetW: number | null;
  Stored: boolean;
};

/** The host facts a decision needs. */
interface HostFacts {
  target: HostTarget;
  name: string;
  maxW: number | null;
  smart: boolean;
}

/** One sweep over every zone with a budget (or with limits left to take back). Returns what it did. */
export async function sweepZoneBudgets(deps: BudgetSweepDeps, graceMs: number): Promise<BudgetAction[]> {
  const k = deps.db.kysely;
  const now = deps.clock.now();
  const zones: Zone[] = (
    await k
      .selectFrom('ParkArea')
      .leftJoin('ParkAreaPower', 'ParkAreaPower.ParkAreaId', 'ParkArea.Id')
      .select([
        'ParkArea.Id',
        'ParkArea.AreaId',
        'ParkArea.Name',
        'ParkArea.PowerBudgetW',
        'ParkAreaPower.ParkAreaId as StoredId',
      ])
      .where((eb) =>
        eb.or([eb('ParkArea.PowerBudgetW', 'is not', null), eb('ParkAreaPower.ParkAreaId', 'is not', null)]),
      )
      .execute()
  ).map(({ StoredId, ...z }) => ({ ...z, Stored: StoredId !== null }));
  if (zones.length === 0) return [];
  const readings = await zoneSocketReadings(
    k,
    zones.map((z) => z.Id),
    now,
  );
  const hosts = await hostFacts(k, [...new Set(readings.map((r) => r.hostId))]);
  const actions: BudgetAction[] = [];
  for (const zone of zones) {
    const ctx: AreaContext = {
      db: deps.db,
      clock: deps.clock,
      lang: 'en',
      actor: systemActor(ACTOR),
      areaId: zone.AreaId,
      ...(deps.seams ? { seams: deps.seams } : {}),
    };
    const sockets = readings.filter((r) => r.zoneId === zone.Id);
    const action = await sweepZone(ctx, zone, sockets, hosts, graceMs, now);
    if (action) actions.push(action);
  }
  return actions;
}

/** Each host's target, name, own limit and whether its charger takes limits (SupportedFeatureProfiles). */
async function hostFacts(k: Kysely<Database>, hostIds: number[]): Promise<Map<number, HostFacts>> {
  const out = new Map<number, HostFacts>();
  if (hostIds.length === 0) return out;
  const rows = await k
    .selectFrom('ChargeHost')
    .leftJoin('ChargeHostConfiguration', 'ChargeHostConfiguration.ChargeHostId', 'ChargeHost.Id')
    .select([
      'ChargeHost.Id',
      'ChargeHost.Name',
      'ChargeHost.SerialNumber',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.MaxPowerW',
      'ChargeHostConfiguration.Profiles',
    ])
    .where('ChargeHost.Id', 'in', hostIds)
    .execute();
  for (const r of rows) {
    const profiles = r.Profiles ? (JSON.parse(r.Profiles) as string[]) : [];
    out.set(r.Id, {
      target: { hostId: r.Id, serialNumber: r.SerialNumber, chargingSystemType: r.ChargingSystemType },
      name: r.Name,
      maxW: r.MaxPowerW,
      smart: profiles.includes('SmartCharging'),
    });
  }
  return out;
}

async function sweepZone(
  ctx: AreaContext,
  zone: Zone,
  sockets: ZoneSocketReading[],
  hosts: Map<number, HostFacts>,
  graceMs: number,
  now: number,
): Promise<BudgetAction | undefined> {
  const k = ctx.db.kysely;
  const draw = drawOf(sockets);
  const budget = zone.PowerBudgetW;
  if (budget === null) {
    // The budget was removed: its limits go with it, and so does its row (nothing refuses starts any more).
    const stored = await storedRow(k, zone.Id);
    const cleared = stored ? await clearLimits(ctx, running(stored, sockets), sockets, hosts) : [];
    await k.deleteFrom('ParkAreaPower').where('ParkAreaId', '=', zone.Id).execute();
    if (cleared.length === 0) return undefined;
    await auditRelease(ctx, zone, draw.drawW, cleared);
    return { kind: 'release', zoneId: zone.Id, drawW: draw.drawW, budgetW: null, cleared };
  }
  const over = draw.drawW > budget;
  const low = draw.drawW <= RELEASE_RATIO * budget;
  await k
    .insertInto('ParkAreaPower')
    .values({
      ParkAreaId: zone.Id,
      AreaId: zone.AreaId,
      DrawW: draw.drawW,
      EvaluatedAt: now,
      OverSince: null,
      LowSince: null,
      ActedAt: null,
      Limits: '[]',
    })
    .onConflict((oc) => oc.column('ParkAreaId').doNothing())
    .execute();
  // Since when it is over (or well under) holds across sweeps; a sweep that sees otherwise ends it.
  await k
    .updateTable('ParkAreaPower')
    .set((eb) => ({
      DrawW: draw.drawW,
      EvaluatedAt: now,
      OverSince: over ? eb.fn.coalesce('OverSince', eb.val(now)) : null,
      LowSince: low ? eb.fn.coalesce('LowSince', eb.val(now)) : null,
    }))
    .where('ParkAreaId', '=', zone.Id)
    .execute();
  const stored = (await storedRow(k, zone.Id))!;
  const limits = running(stored, sockets);
  if (over && stored.OverSince !== null && now - stored.OverSince >= graceMs) {
    if (!(await claim(k, zone.Id, 'OverSince', stored.OverSince, now))) return undefined;
    return enforce(ctx, zone, budget, draw.drawW, sockets, hosts, limits, graceMs);
  }
  if (low && limits.length > 0 && stored.LowSince !== null && now - stored.LowSince >= graceMs) {
    if (!(await claim(k, zone.Id, 'LowSince', stored.LowSince, now))) return undefined;
    const cleared = await clearLimits(ctx, limits, sockets, hosts);
    await storeLimits(
      k,
      zone.Id,
      limits.filter((l) => !cleared.includes(l.ChargeRecordId)),
    );
    await auditRelease(ctx, zone, draw.drawW, cleared, budget);
    return { kind: 'release', zoneId: zone.Id, drawW: draw.drawW, budgetW: budget, cleared };
  }
  return undefined;
}

/**
 * Claims a zone's pending act (over budget, or back under it with limits to lift): only the sweep whose update
 * clears that very `since` acts on it, so two instances sweeping together act once.
 */
async function claim(
  k: Kysely<Database>,
  zoneId: number,
  column: 'OverSince' | 'LowSince',
  since: number,
  now: number,
): Promise<boolean> {
  const claimed = await k
    .updateTable('ParkAreaPower')
    .set({ [column]: null, ActedAt: now })
    .where('ParkAreaId', '=', zoneId)
    .where(column, '=', since)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

function storedRow(k: Kysely<Database>, zoneId: number) {
  return k.selectFrom('ParkAreaPower').selectAll().where('ParkAreaId', '=', zoneId).executeTakeFirst();
}

/** The stored limits of sessions still running (a TxProfile ends with its transaction). */
function running(stored: { Limits: string }, sockets: ZoneSocketReading[]): SentLimit[] {
  const open = new Set(sockets.flatMap((s) => (s.session ? [s.session.recordId] : [])));
  return (JSON.parse(stored.Limits) as SentLimit[]).filter((l) => open.has(l.ChargeRecordId));
}

async function storeLimits(k: Kysely<Database>, zoneId: number, limits: SentLimit[]): Promise<void> {
  await k
    .updateTable('ParkAreaPower')
    .set({ Limits: JSON.stringify(limits) })
    .where('ParkAreaId', '=', zoneId)
    .execute();
}

/** Whether a reading taken after a limit was accepted shows the session drawing above it. */
function ignoresLimit(socket: ZoneSocketReading, limit: SentLimit | undefined): boolean {
  if (!limit || socket.powerW === null || socket.powerAt === null || socket.powerAt <= limit.At) return false;
  return socket.powerW > limit.LimitW + Math.max(LIMIT_TOLERANCE_W, limit.LimitW * 0.05);
}

/**
 * The zone is above its budget past the grace: limits for the sessions whose chargers take them, stops for the
 * newest of the others, until the zone is at or under its budget (budget-plan.ts). A limit a charger refuses
 * makes its session one that cannot be limited, and the plan is made again without it.
 */
async function enforce(
  ctx: AreaContext,
  zone: Zone,
  budgetW: number,
  drawW: number,
  sockets: ZoneSocketReading[],
  hosts: Map<number, HostFacts>,
  limits: SentLimit[],
  graceMs: number,
): Promise<BudgetAction> {
  const k = ctx.db.kysely;
  const sent = new Map(limits.map((l) => [l.ChargeRecordId, l]));
  // The sessions Gatehouse can act on: on a connected host, not already being stopped.
  const actionable = sockets.filter(
    (s) => s.session && s.hostConnected && s.session.stopRequest === null && hosts.has(s.hostId),
  );
  const refused = new Set<number>();
  const entries = new Map<number, BudgetSessionEntry>();
  const planOf = () =>
    planBudget(
      budgetW,
      actionable.map((s): PlanSession => ({
        recordId: s.session!.recordId,
        hostId: s.hostId,
        startAt: s.session!.startAt,
        powerW: s.powerW,
        limitable:
          hosts.get(s.hostId)!.smart &&
          !refused.has(s.session!.recordId) &&
          !ignoresLimit(s, sent.get(s.session!.recordId)),
        hostMaxW: hosts.get(s.hostId)!.maxW,
      })),
    );
  let plan = planOf();
  for (let round = 0; round < 2; round++) {
    let newlyRefused = false;
    for (const [recordId, limitW] of plan.limits) {
      const socket = actionable.find((s) => s.session!.recordId === recordId)!;
      const entry = entryOf(socket, hosts);
      entries.set(recordId, entry);
      const before = sent.get(recordId);
      if (before && before.LimitW === limitW) {
        Object.assign(entry, { Action: 'kept', LimitW: limitW });
        continue;
      }
      const answer = await sendCommand(ctx, hosts.get(socket.hostId)!.target, {
        kind: 'limitPower',
        portNumber: socket.portNumber,
        transactionId: recordId,
        limitW,
      });
      Object.assign(entry, { Action: 'limit', LimitW: limitW, Outcome: outcomeWord(answer) });
      if (answer.outcome === 'accepted') {
        sent.set(recordId, { ChargeRecordId: recordId, LimitW: limitW, At: ctx.clock.now() });
      } else {
        refused.add(recordId);
        newlyRefused = true;
      }
    }
    if (!newlyRefused) break;
    plan = planOf();
  }
  await storeLimits(k, zone.Id, [...sent.values()]);
  for (const recordId of plan.stops) {
    const socket = actionable.find((s) => s.session!.recordId === recordId)!;
    const entry = entries.get(recordId) ?? entryOf(socket, hosts);
    entries.set(recordId, entry);
    Object.assign(entry, {
      Action: 'stop',
      LimitW: null,
      Outcome: await stopSession(ctx, zone, budgetW, drawW, socket, hosts.get(socket.hostId)!),
    });
  }
  // Every session the decision counted, even those left as they were, with the power it saw.
  for (const s of actionable)
    if (!entries.has(s.session!.recordId)) entries.set(s.session!.recordId, entryOf(s, hosts));
  const sessions = [...entries.values()].sort((a, b) => a.ChargeRecordId - b.ChargeRecordId);
  await auditBudget(ctx, 'budgetEnforce', zone, {
    BudgetW: budgetW,
    DrawW: drawW,
    GraceSeconds: Math.round(graceMs / 1000),
    ShareW: plan.shareW,
    ProjectedW: plan.projectedW,
    PerSession: sessions,
  });
  return { kind: 'enforce', zoneId: zone.Id, drawW, budgetW, shareW: plan.shareW, sessions };
}

function entryOf(socket: ZoneSocketReading, hosts: Map<number, HostFacts>): BudgetSessionEntry {
  const host = hosts.get(socket.hostId)!;
  return {
    ChargeRecordId: socket.session!.recordId,
    HostName: host.name,
    PortNumber: socket.portNumber,
    PowerW: socket.powerW,
    SmartCharging: host.smart,
    Action: 'kept',
    LimitW: null,
    Outcome: null,
  };
}

function outcomeWord(answer: CommandAnswer): string {
  return 'status' in answer ? answer.status : answer.outcome === 'notSent' ? answer.reason : answer.outcome;
}

/**
 * Stops a session for the budget: the stop request (stop reason 9, "zone power budget", audited on the session
 * with the figures) is stored first, so the charger's StopTransaction ends the session with it; then
 * RemoteStopTransaction goes to the charger wherever it is connected. A refusal or no answer releases the request.
 */
async function stopSession(
  ctx: AreaContext,
  zone: Zone,
  budgetW: number,
  drawW: number,
  socket: ZoneSocketReading,
  host: HostFacts,
): Promise<string> {
  const recordId = socket.session!.recordId;
  const why = { ZoneName: zone.Name, BudgetW: budgetW, DrawW: drawW, PowerW: socket.powerW };
  if (!(await requestSessionStop(ctx, recordId, STOP_REASON.zoneBudget, why))) return 'alreadyStopping';
  const gateway = chargerGateway(ctx);
  const answer = gateway
    ? await gateway
        .powerOff({ ...host.target, portNumber: socket.portNumber, chargeRecordId: recordId })
        .catch(() => ({ outcome: 'failed' as const, reason: 'error' as const }))
    : ({ outcome: 'notSent', reason: 'noDeviceLink' } as const);
  if (answer.outcome === 'sent' || answer.outcome === 'cut') return 'sent';
  await releaseSessionStop(ctx.db.kysely, recordId, STOP_REASON.zoneBudget);
  return answer.reason;
}

/** ClearChargingProfile of each limit still in force; returns the sessions whose limit is gone. */
async function clearLimits(
  ctx: AreaContext,
  limits: SentLimit[],
  sockets: ZoneSocketReading[],
  hosts: Map<number, HostFacts>,
): Promise<number[]> {
  const cleared: number[] = [];
  for (const limit of limits) {
    const socket = sockets.find((s) => s.session?.recordId === limit.ChargeRecordId);
    const host = socket && hosts.get(socket.hostId);
    if (!socket || !host) continue;
    const answer = await sendCommand(ctx, host.target, {
      kind: 'clearPowerLimit',
      portNumber: socket.portNumber,
      transactionId: limit.ChargeRecordId,
    });
    // Unknown: the charger holds no such profile any more (its transaction ended): nothing is left to clear.
    if (answer.outcome === 'accepted' || (answer.outcome === 'refused' && answer.status === 'Unknown'))
      cleared.push(limit.ChargeRecordId);
  }
  return cleared;
}

async function auditRelease(
  ctx: AreaContext,
  zone: Zone,
  drawW: number,
  cleared: number[],
  budgetW: number | null = null,
): Promise<void> {
  await auditBudget(ctx, 'budgetRelease', zone, {
    BudgetW: budgetW,
    DrawW: drawW,
    ReleaseBelowW: budgetW === null ? null : Math.floor(RELEASE_RATIO * budgetW),
    ClearedSessions: cleared,
  });
}

/** What the budget did to a zone, in the operation log with the figures that made it act. */
function auditBudget(
  ctx: AreaContext,
  action: 'budgetEnforce' | 'budgetRelease',
  zone: Zone,
  figures: { BudgetW: number | null; DrawW: number } & Record<string, unknown>,
): Promise<void> {
  return audit(ctx, {
    action,
    entity: 'ParkArea',
    entityId: zone.Id,
    before: null,
    after: { ZoneName: zone.Name, ...figures },
  });
}
