import { doorCount, planSlots, weekdaysOf, type ProfileSlot, type SlotCount } from '@gatehouse/shared';
import { sql } from 'kysely';
import { audit } from '../../../platform/audit.ts';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';
import { MODE_ACTIONS, lockdownPlan, type LockdownPlan } from '../area-lockdown/plan.ts';
import type { Trx } from '../common.ts';
import { planInputs, usedProfiles } from '../time-profile/service.ts';

/**
 * The access-rule half of the door-controller seam (docs/devices.md, "Access rules"): what a controller must
 * hold besides its cards (time profiles compiled with the holidays, the task list of its door schedules,
 * interlock, anti-passback, keypads, passcodes, door modes), where its rules stand, and the evidence that it
 * forgot them. The module decides what; the gateway (gateways/wg/rules-sync.ts) writes it over the wire.
 */

/** One task of a controller's list: a door schedule. */
export interface PlannedTask {
  scheduleId: number;
  door: number;
  /** doorScheduleAction */
  action: number;
  /** HH:mm */
  time: string;
  weekdays: number[];
  from: string;
  to: string;
}

export interface RulesPlan {
  deviceId: number;
  /** Revision of the rules this plan reflects: a pass that applies it stores it as applied. */
  revision: number;
  doors: number;
  /** Compiled time profiles by slot; null when they do not fit (`budget` says why). */
  profiles: ProfileSlot[] | null;
  budget: SlotCount | null;
  tasks: PlannedTask[];
  interlock: number;
  antiPassback: number;
  /** Doors 1..4 (index 0..3). */
  keypads: boolean[];
  passcodes: number[][];
  /** Door modes an operator set (0x80), given back when a controller forgot them (not the doors `lockdown` holds). */
  doorModes: { door: number; mode: number; delay: number }[];
  /**
   * The area's lockdown or evacuation: every door held in its mode while it lasts (and `tasks` without the
   * schedules that set a door mode, so none undoes it), or the doors it changed given back their own mode once
   * released (area-lockdown/plan.ts). Null: none.
   */
  lockdown: LockdownPlan | null;
  /** Digests of the parts last written that cannot be read back (the gateway's business what they digest). */
  applied: Record<string, string>;
}

/** Where a controller's rules stand, as the gateway reads it before a pass. */
export interface RuleSyncRow {
  revision: number;
  appliedRevision: number;
  attempts: number;
  nextAt: number | null;
  applied: Record<string, string>;
}

const parse = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/**
 * Something a controller must hold changed (a profile, a holiday, a schedule, a door rule, a grant's profile):
 * its rules revision goes up, and the gateway's next look brings the controller in line.
 */
export async function markRulesChanged(
  db: Trx,
  target: { areaId: number } | { deviceIds: number[] },
  now: number,
): Promise<void> {
  let query = db.selectFrom('AccessControlDevice').select('Id').where('Protocol', '=', 0);
  query =
    'areaId' in target
      ? query.where('AreaId', '=', target.areaId)
      : query.where('Id', 'in', target.deviceIds.length ? target.deviceIds : [0]);
  for (const { Id } of await query.execute()) {
    await db
      .insertInto('AccessControlRuleSync')
      .values({ DeviceId: Id, Revision: 1, AppliedRevision: 0, UpdatedAt: now })
      .onConflict((oc) =>
        oc.column('DeviceId').doUpdateSet({
          Revision: sql<number>`"AccessControlRuleSync"."Revision" + 1`,
          NextAt: null,
          UpdatedAt: now,
        }),
      )
      .execute();
  }
}

/**
 * The door monitor has read the controller's records up to `watermark` (door-monitor/service.ts): kept in the
 * controller's rule-sync row, which this file alone writes.
 */
export async function storeRecordWatermark(
  trx: Trx,
  deviceId: number,
  watermark: number,
  now: number,
): Promise<void> {
  await trx
    .insertInto('AccessControlRuleSync')
    .values({ DeviceId: deviceId, RecordWatermark: watermark, UpdatedAt: now })
    .onConflict((oc) => oc.column('DeviceId').doUpdateSet({ RecordWatermark: watermark }))
    .execute();
}

export async function ruleSyncRow(ctx: ServiceContext, deviceId: number): Promise<RuleSyncRow> {
  const row = await ctx.db.kysely
    .selectFrom('AccessControlRuleSync')
    .select(['Revision', 'AppliedRevision', 'Attempts', 'NextAt', 'Applied'])
    .where('DeviceId', '=', deviceId)
    .executeTakeFirst();
  return {
    revision: Number(row?.Revision ?? 0),
    appliedRevision: Number(row?.AppliedRevision ?? 0),
    attempts: Number(row?.Attempts ?? 0),
    nextAt: row?.NextAt === null || row?.NextAt === undefined ? null : Number(row.NextAt),
    applied: parse(row?.Applied ?? null, {}),
  };
}

/** Controllers (of these) whose rules changed since they were last applied and whose back-off has passed. */
export async function devicesDueForRules(ctx: ServiceContext, deviceIds: number[]): Promise<number[]> {
  if (deviceIds.length === 0) return [];
  const now = ctx.clock.now();
  const rows = await ctx.db.kysely
    .selectFrom('AccessControlRuleSync')
    .select('DeviceId')
    .where('DeviceId', 'in', deviceIds)
    .whereRef('Revision', '>', 'AppliedRevision')
    .where((eb) => eb.or([eb('NextAt', 'is', null), eb('NextAt', '<=', now)]))
    .execute();
  return rows.map((r) => r.DeviceId);
}

/**
 * The controller profiles of the time profiles a controller's cards use, with stable slots: the assignment
 * is kept, so a card's door value changes only when its profile leaves the controller. Null when over budget.
 * `keep` false only reads (an access check): the slots a change would assign are not stored.
 */
export async function deviceProfilePlan(
  db: Trx,
  device: { Id: number; AreaId: number },
  now: number,
  keep = true,
): Promise<{ slots: ProfileSlot[]; head: Map<number, number> } | { over: SlotCount }> {
  const inputs = await planInputs(db, device.AreaId);
  const used = await usedProfiles(db, device.Id);
  const state = await db
    .selectFrom('AccessControlRuleSync')
    .select('Slots')
    .where('DeviceId', '=', device.Id)
    .executeTakeFirst();
  const previous = new Map(Object.entries(parse<Record<string, number>>(state?.Slots ?? null, {})));
  const result = planSlots(used, inputs.profiles, inputs.holidays, previous);
  if (!result.ok) return { over: result.count };
  const slots = JSON.stringify(Object.fromEntries(result.plan.assignment));
  if (keep && slots !== (state?.Slots ?? '{}'))
    await db
      .insertInto('AccessControlRuleSync')
      .values({ DeviceId: device.Id, Slots: slots, ProfileSlots: result.plan.slots.length, UpdatedAt: now })
      .onConflict((oc) =>
        oc.column('DeviceId').doUpdateSet({ Slots: slots, ProfileSlots: result.plan.slots.length }),
      )
      .execute();
  return { slots: result.plan.slots, head: result.plan.head };
}

/** Everything a controller must hold besides its cards, from the database. */
export async function rulesPlan(ctx: ServiceContext, deviceId: number): Promise<RulesPlan | undefined> {
  const k = ctx.db.kysely;
  const device = await k
    .selectFrom('AccessControlDevice')
    .select(['Id', 'AreaId', 'Type', 'Interlock', 'AntiPassback'])
    .where('Id', '=', deviceId)
    .executeTakeFirst();
  if (!device || device.AreaId === null) return undefined;
  const state = await ruleSyncRow(ctx, deviceId);
  const profiles = await deviceProfilePlan(k, { Id: device.Id, AreaId: device.AreaId }, ctx.clock.now());
  const doors = doorCount(device.Type);
  const lockdown = await lockdownPlan(k, { Id: device.Id, AreaId: device.AreaId }, doors);
  const tasks = await plannedTasks(k, deviceId, doors);
  const rules = await doorRules(k, deviceId, doors);
  const held = new Set(lockdown?.doors.map((d) => d.door));
  return {
    deviceId,
    revision: state.revision,
    doors,
    profiles: 'over' in profiles ? null : profiles.slots,
    budget: 'over' in profiles ? profiles.over : null,
    // While a lockdown lasts no schedule may set a door's mode on the controller (it would undo the lockdown).
    tasks: lockdown?.inForce ? tasks.filter((t) => !MODE_ACTIONS.includes(t.action)) : tasks,
    interlock: Number(device.Interlock),
    antiPassback: Number(device.AntiPassback),
    ...rules,
    doorModes: rules.doorModes.filter((m) => !held.has(m.door)),
    lockdown,
    applied: state.applied,
  };
}

async function plannedTasks(db: Trx, deviceId: number, doors: number): Promise<PlannedTask[]> {
  const rows = await db
    .selectFrom('DoorSchedule')
    .select(['Id', 'DoorNumber', 'Action', 'Time', 'Weekdays', 'StartDate', 'EndDate'])
    .where('DeviceId', '=', deviceId)
    .where('DoorNumber', '<=', doors)
    .orderBy('Time')
    .orderBy('Id')
    .execute();
  return rows.map((r) => ({
    scheduleId: r.Id,
    door: r.DoorNumber,
    action: r.Action,
    time: r.Time,
    weekdays: weekdaysOf(r.Weekdays),
    from: r.StartDate,
    to: r.EndDate,
  }));
}

async function doorRules(db: Trx, deviceId: number, doors: number) {
  const rows = await db
    .selectFrom('AccessControlDoorRule')
    .select(['DoorNumber', 'Keypad', 'Passcodes', 'Mode', 'Delay'])
    .where('DeviceId', '=', deviceId)
    .execute();
  const keypads = [false, false, false, false];
  const passcodes: number[][] = [[], [], [], []];
  const doorModes: RulesPlan['doorModes'] = [];
  for (const r of rows) {
    if (r.DoorNumber < 1 || r.DoorNumber > doors) continue;
    keypads[r.DoorNumber - 1] = Number(r.Keypad) === 1;
    passcodes[r.DoorNumber - 1] = parse<number[]>(r.Passcodes, []);
    if (r.Mode !== null) doorModes.push({ door: r.DoorNumber, mode: r.Mode, delay: Number(r.Delay ?? 3) });
  }
  return { keypads, passcodes, doorModes };
}

/** A rules pass is under way: the screens say so. */
export async function ruleSyncStarted(ctx: ServiceContext, deviceId: number): Promise<void> {
  await fencedWrite(ctx, (trx) =>
    trx
      .updateTable('AccessControlRuleSync')
      .set({ State: 'running', UpdatedAt: ctx.clock.now() })
      .where('DeviceId', '=', deviceId)
      .execute(),
  );
}

/** The parts of a controller's rules a pass writes: each is a field of its audit entry, labelled in the log. */
export type RulePart =
  | 'ProfilesCleared'
  | 'Profiles'
  | 'Tasks'
  | 'Interlock'
  | 'AntiPassback'
  | 'Keypads'
  | 'Passcodes'
  | 'DoorModes'
  | 'LockdownDoors';

export interface RulePassOutcome {
  /** The plan's revision the pass brought the controller to (on success). */
  revision: number;
  ok: boolean;
  error: string | null;
  /** What was written, by part (profiles: how many), for the audit entry. */
  written: Partial<Record<RulePart, number>>;
  applied: Record<string, string>;
  /** When the pass read its plan: a controller found to have forgotten its settings since voids it. */
  startedAt?: number;
}

/**
 * Records a pass: on success the revision applied and the digests of what was written, with an audit entry by
 * the device when anything was written; on failure the reason and the next attempt after a doubling back-off.
 */
export async function ruleSyncFinished(
  ctx: ServiceContext,
  deviceId: number,
  outcome: RulePassOutcome,
  backoff: { baseMs: number; maxMs: number },
): Promise<void> {
  const now = ctx.clock.now();
  await fencedWrite(ctx, async (trx) => {
    const row = await trx
      .selectFrom('AccessControlRuleSync')
      .select(['Attempts', 'AppliedRevision', 'RestoredAt'])
      .where('DeviceId', '=', deviceId)
      .executeTakeFirst();
    // The controller forgot everything while this pass ran: what it wrote says nothing now; the next pass
    // (due at once) writes every part again.
    if (
      outcome.startedAt !== undefined &&
      row?.RestoredAt != null &&
      Number(row.RestoredAt) >= outcome.startedAt
    ) {
      await trx
        .updateTable('AccessControlRuleSync')
        .set({ State: 'failed', Error: 'restoring', NextAt: null, UpdatedAt: now })
        .where('DeviceId', '=', deviceId)
        .execute();
      return;
    }
    const attempts = Number(row?.Attempts ?? 0);
    const common = {
      State: outcome.ok ? 'done' : 'failed',
      Error: outcome.error,
      FinishedAt: now,
      UpdatedAt: now,
    };
    const patch = outcome.ok
      ? {
          ...common,
          AppliedRevision: Math.max(outcome.revision, Number(row?.AppliedRevision ?? 0)),
          Applied: JSON.stringify(outcome.applied),
          Attempts: 0,
          NextAt: null,
        }
      : {
          ...common,
          Applied: JSON.stringify(outcome.applied),
          Attempts: attempts + 1,
          NextAt: now + Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempts, 20)),
        };
    await trx.updateTable('AccessControlRuleSync').set(patch).where('DeviceId', '=', deviceId).execute();
    if (Object.keys(outcome.written).length > 0 || !outcome.ok)
      await audit(
        ctx,
        {
          action: 'syncRules',
          entity: 'AccessControlDevice',
          entityId: deviceId,
          after: { Ok: outcome.ok, Error: outcome.error, ...outcome.written },
        },
        trx,
      );
  });
}

/**
 * The controller forgot its settings (reset to defaults, or replaced): nothing written before can be trusted,
 * so every part is written again at the next pass, which is due now. Audited by the device.
 */
export async function controllerForgot(
  ctx: ServiceContext,
  deviceId: number,
  evidence: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await markRulesChanged(trx, { deviceIds: [deviceId] }, now);
    await trx
      .updateTable('AccessControlRuleSync')
      .set({ Applied: null, RestoredAt: now, Attempts: 0, NextAt: null })
      .where('DeviceId', '=', deviceId)
      .execute();
    await audit(
      ctx,
      { action: 'restore', entity: 'AccessControlDevice', entityId: deviceId, after: { Evidence: evidence } },
      trx,
    );
  });
}

/** Lets a controller's rules be tried again now ("sync now"): the next pass compares everything. */
export async function clearRulesBackoff(ctx: ServiceContext, deviceId: number): Promise<void> {
  await markRulesChanged(ctx.db.kysely, { deviceIds: [deviceId] }, ctx.clock.now());
}
