// The access rules of a WG controller (docs/devices.md, "Access rules"): what the module's rules plan says it must
// hold besides its cards (time profiles compiled with the holidays, the task list of its door schedules,
// interlock, anti-passback, keypads, passcodes, door modes), brought in line before each card pass, compare-
// then-correct like the cards. What the protocol can read back (time profiles 0x98, anti-passback 0x86, door
// control 0x82) is read and corrected in a full pass; what it cannot (tasks, interlock, keypads, passcodes) is
// written when it differs from the digest of what was last written, and written again whenever the controller
// is found to have forgotten its settings (door-watch.ts). Each part's digest is kept as soon as it is written,
// so a pass cut short by packet loss resumes where it stopped. An area's lockdown goes first: the task list without
// the schedules that would undo it, then each door held in its mode and read back (0x82), its answer stored and
// told live; once released, each door it changed given back its own mode the same way.

import { createHash } from 'node:crypto';
import { PROFILE_SLOTS, budgetDetail, type ProfileSlot } from '@gatehouse/shared';
import {
  lockdownDoorsRead,
  lockdownPriorRead,
  ruleSyncFinished,
  ruleSyncRow,
  ruleSyncStarted,
  rulesPlan,
  type ControllerRef,
  type LockdownDoorRead,
  type PlannedTask,
  type RulePassOutcome,
  type RulesPlan,
} from '../../modules/access-control/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import type { Doors4, LocalDate, LocalHHmm, Segments3, TimeProfile, Weekdays, WgTask } from './codec.ts';
import { WEEKDAYS } from './codec-fields.ts';
import { TaskType } from './constants.ts';
import { WgError, type WgDevice, type WgDriver } from './driver.ts';

export type RuleError = 'offline' | 'refused' | 'timeout';

export interface RuleSyncOptions {
  backoff: { baseMs: number; maxMs: number };
  /** Read back what can be read (a full pass: start, back online, sync now, after a reset). */
  compare: boolean;
  /** Write again what cannot be read back, whatever the digests say (an operator's "sync now"). */
  rewrite?: boolean;
  hub?: LiveEvents;
}

/** A door schedule's action as the controller's task type (doorScheduleAction 1..5). */
export const TASK_OF_ACTION: Record<number, number> = {
  1: TaskType.DoorNormallyOpen,
  2: TaskType.DoorNormallyClosed,
  3: TaskType.DoorControlled,
  4: TaskType.DisablePushButton,
  5: TaskType.EnablePushButton,
};

/** Rebuilds of the task list within one pass before the pass gives up (and the next one starts over). */
const TASK_ROUNDS = 8;

const digest = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

function localDate(text: string): LocalDate {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

function hhmm(text: string): LocalHHmm {
  const [hour, minute] = text.split(':').map(Number) as [number, number];
  return { hour, minute };
}

function weekdays(days: readonly number[]): Weekdays {
  const out = {} as Weekdays;
  WEEKDAYS.forEach((name, i) => (out[name] = days.includes(i + 1)));
  return out;
}

/** A compiled part as the controller stores it: unused segments 00:00-00:00, as uhppote-core writes them. */
export function wireProfile(slot: ProfileSlot): TimeProfile {
  const none = { start: { hour: 0, minute: 0 }, end: { hour: 0, minute: 0 } };
  const segments = [0, 1, 2].map((i) => {
    const s = slot.segments[i];
    return s ? { start: hhmm(s.Start), end: hhmm(s.End) } : none;
  }) as Segments3;
  return {
    id: slot.slot,
    from: localDate(slot.from),
    to: localDate(slot.to),
    weekdays: weekdays(slot.weekdays),
    segments,
    linked: slot.linked,
  };
}

export function wireTask(task: PlannedTask): WgTask {
  return {
    type: TASK_OF_ACTION[task.action]!,
    door: task.door,
    from: localDate(task.from),
    to: localDate(task.to),
    weekdays: weekdays(task.weekdays),
    start: hhmm(task.time),
    moreCards: 0,
  };
}

const sameProfile = (a: TimeProfile | null, b: TimeProfile) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Brings the controller's rules in line with the plan when they changed since last applied (or always, in a
 * full pass of a controller whose rules Gatehouse manages). Resolves with the failure that stopped it, if any:
 * the card pass that follows does not run then (a card names its profile by slot). A plan over the profile
 * budget sends nothing and is recorded as failed with why; its cards get no access on those doors meanwhile.
 */
export async function syncRules(
  driver: WgDriver,
  ctx: ServiceContext,
  device: ControllerRef,
  wg: WgDevice,
  options: RuleSyncOptions,
): Promise<RuleError | null> {
  const state = await ruleSyncRow(ctx, device.Id);
  // A controller whose rules were never set is left as it is; one already in line waits for a change.
  if (state.revision === 0) return null;
  if (!options.compare && state.revision <= state.appliedRevision) return null;
  const startedAt = ctx.clock.now();
  const plan = await rulesPlan(ctx, device.Id);
  if (!plan) return null;
  const publish = (State: string, Error: string | null = null) =>
    options.hub?.publish(device.AreaId, { Type: 'RuleSync', DeviceId: device.Id, State, Error });
  if (plan.budget) {
    const error = `profile budget: ${plan.budget.total} controller profiles needed, ${PROFILE_SLOTS} available (${budgetDetail(plan.budget)})`;
    await ruleSyncFinished(
      ctx,
      device.Id,
      { revision: plan.revision, ok: false, error, written: {}, applied: plan.applied },
      options.backoff,
    );
    publish('failed', error);
    return null;
  }
  await ruleSyncStarted(ctx, device.Id);
  publish('running');
  const applied = options.rewrite ? keepReadable(plan.applied) : plan.applied;
  const pass = new RulePass(
    driver,
    wg,
    { ...plan, applied },
    options.compare,
    lockdownSink(ctx, device, plan, options),
  );
  try {
    await pass.run();
  } catch (error) {
    if (!(error instanceof WgError)) throw error;
    const code: RuleError =
      error.code === 'refused' ? 'refused' : error.code === 'offline' ? 'offline' : 'timeout';
    await ruleSyncFinished(
      ctx,
      device.Id,
      {
        revision: plan.revision,
        ok: false,
        error: code,
        written: pass.written,
        applied: pass.applied,
        startedAt,
      },
      options.backoff,
    );
    publish('failed', code);
    return code;
  }
  await ruleSyncFinished(
    ctx,
    device.Id,
    {
      revision: plan.revision,
      ok: true,
      error: null,
      written: pass.written,
      applied: pass.applied,
      startedAt,
    },
    options.backoff,
  );
  publish('done');
  return null;
}

/** Where a pass leaves what the doors answered under a lockdown: the module's store, then the area's browsers. */
interface LockdownSink {
  /** A door's mode before the lockdown wrote its own (kept once, for the release). */
  priorRead(read: { door: number; mode: number; delay: number }): Promise<void>;
  /** What the doors answered when read back after the writes. */
  doorsRead(reads: LockdownDoorRead[]): Promise<void>;
}

function lockdownSink(
  ctx: ServiceContext,
  device: ControllerRef,
  plan: RulesPlan,
  options: RuleSyncOptions,
): LockdownSink {
  const lockdownId = plan.lockdown?.lockdownId ?? 0;
  return {
    priorRead: (read) => lockdownPriorRead(ctx, device.Id, lockdownId, read),
    async doorsRead(reads) {
      const { areaId, doors } = await lockdownDoorsRead(ctx, device.Id, lockdownId, reads);
      for (const door of doors) options.hub?.publish(areaId, { Type: 'LockdownDoor', ...door });
    },
  };
}

/** The digests of the parts a full pass reads back anyway (profiles, anti-passback, door modes). */
function keepReadable(applied: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(applied).filter(([key]) => key.startsWith('p:') || key === 'slots'),
  );
}

/** One pass over the parts, in the order a swipe depends on them: profiles first. */
class RulePass {
  readonly applied: Record<string, string>;
  // Typed by the parts the outcome declares: each becomes a labelled field of the pass's audit entry.
  readonly written: RulePassOutcome['written'] = {};

  constructor(
    private readonly driver: WgDriver,
    private readonly wg: WgDevice,
    private readonly plan: RulesPlan,
    private readonly compare: boolean,
    private readonly sink: LockdownSink,
  ) {
    this.applied = { ...plan.applied };
  }

  private count(part: keyof RulePassOutcome['written'], n = 1): void {
    this.written[part] = (this.written[part] ?? 0) + n;
  }

  async run(): Promise<void> {
    if (this.plan.lockdown) {
      // A lockdown is what the site is waiting for: its task list (no schedule left to undo it) and its doors
      // before anything else.
      await this.tasks();
      await this.lockdown();
    }
    await this.profiles();
    await this.tasks();
    await this.interlock();
    await this.antiPassback();
    await this.keypads();
    await this.passcodes();
    await this.doorModes();
  }

  private async profiles(): Promise<void> {
    const want = new Map((this.plan.profiles ?? []).map((s) => [s.slot, wireProfile(s)]));
    const before = (this.applied.slots ?? '').split(',').filter(Boolean).map(Number);
    // Slots the plan no longer uses are cleared all at once (0x8A), then the wanted ones are written again.
    if (before.some((slot) => !want.has(slot))) {
      for (const key of Object.keys(this.applied)) if (key.startsWith('p:')) delete this.applied[key];
      delete this.applied.slots;
      await this.driver.clearTimeProfiles(this.wg);
      this.count('ProfilesCleared');
    }
    for (const [slot, profile] of want) {
      const d = digest(profile);
      const same = this.compare
        ? sameProfile(await this.driver.getTimeProfile(this.wg, slot), profile)
        : this.applied[`p:${slot}`] === d;
      if (!same) {
        await this.driver.setTimeProfile(this.wg, profile);
        this.count('Profiles');
      }
      this.applied[`p:${slot}`] = d;
    }
    this.applied.slots = [...want.keys()].join(',');
  }

  /**
   * The task list cannot be read back, nor patched safely: a retried add whose first reply was lost adds the task
   * twice. So it is rebuilt whole, each add sent once; an add left unanswered starts the list over from the clear
   * (a few times within the pass, then at the next pass), so no task is ever held twice.
   */
  private async tasks(): Promise<void> {
    const tasks = this.plan.tasks.map(wireTask);
    const d = digest(tasks);
    if (this.applied.tasks === d) return;
    delete this.applied.tasks;
    for (let round = 1; ; round++) {
      await this.driver.clearTasks(this.wg);
      try {
        for (const task of tasks) await this.driver.addTask(this.wg, task, { tries: 1 });
        break;
      } catch (error) {
        if (!(error instanceof WgError) || error.code !== 'timeout' || round >= TASK_ROUNDS) throw error;
      }
    }
    await this.driver.refreshTasks(this.wg);
    this.count('Tasks', tasks.length);
    this.applied.tasks = d;
  }

  private async interlock(): Promise<void> {
    const d = String(this.plan.interlock);
    if (this.applied.interlock === d) return;
    await this.driver.setInterlock(this.wg, this.plan.interlock);
    this.count('Interlock');
    this.applied.interlock = d;
  }

  private async antiPassback(): Promise<void> {
    const d = String(this.plan.antiPassback);
    if (!this.compare && this.applied.antiPassback === d) return;
    if ((await this.driver.getAntiPassback(this.wg)) !== this.plan.antiPassback) {
      await this.driver.setAntiPassback(this.wg, this.plan.antiPassback);
      this.count('AntiPassback');
    }
    this.applied.antiPassback = d;
  }

  private async keypads(): Promise<void> {
    const d = digest(this.plan.keypads);
    if (this.applied.keypads === d) return;
    await this.driver.activateKeypads(this.wg, this.plan.keypads as Doors4<boolean>);
    this.count('Keypads');
    this.applied.keypads = d;
  }

  /** Only a digest of the codes is kept: the codes themselves live in the door's rule row alone. */
  private async passcodes(): Promise<void> {
    for (let door = 1; door <= this.plan.doors; door++) {
      const codes = this.plan.passcodes[door - 1] ?? [];
      const d = digest(['passcodes', door, codes]);
      if (this.applied[`pc:${door}`] === d) continue;
      await this.driver.setDoorPasscodes(this.wg, door, codes);
      this.count('Passcodes');
      this.applied[`pc:${door}`] = d;
    }
  }

  /**
   * The lockdown's doors: each read back (0x82; while it lasts, its mode before is kept first, for the release),
   * written (0x80) when it differs and read back again. A door counts as confirmed only when the controller answers
   * what was asked; what each answered is stored and told live even when the pass stops on the way.
   */
  private async lockdown(): Promise<void> {
    const plan = this.plan.lockdown!;
    const reads: LockdownDoorRead[] = [];
    try {
      for (const d of plan.doors) {
        const digest = `${plan.lockdownId}/${d.phase}/${d.mode}/${d.delay ?? ''}`;
        if (!this.compare && this.applied[`ld:${d.door}`] === digest) continue;
        const held = await this.driver.getDoorControl(this.wg, d.door);
        if (d.phase === 'hold' && !d.priorRead) await this.sink.priorRead({ door: d.door, ...held });
        const want = { mode: d.mode, delay: d.delay ?? held.delay };
        let now = held;
        if (held.mode !== want.mode || held.delay !== want.delay) {
          await this.driver.setDoorControl(this.wg, d.door, want);
          this.count('LockdownDoors');
          now = await this.driver.getDoorControl(this.wg, d.door);
        }
        const confirmed = now.mode === want.mode && now.delay === want.delay;
        reads.push({ door: d.door, ...now, phase: d.phase, confirmed });
        if (!confirmed)
          throw new WgError(
            'refused',
            `door ${d.door} reads mode ${now.mode} / ${now.delay} s, not ${want.mode} / ${want.delay} s`,
            this.wg.serial,
            'getDoorControl',
          );
        this.applied[`ld:${d.door}`] = digest;
      }
    } finally {
      await this.sink.doorsRead(reads);
    }
  }

  /** Door modes an operator set (0x80) are read back (0x82) and given back when they differ. */
  private async doorModes(): Promise<void> {
    for (const m of this.plan.doorModes) {
      const d = `${m.mode}/${m.delay}`;
      if (!this.compare && this.applied[`m:${m.door}`] === d) continue;
      const held = await this.driver.getDoorControl(this.wg, m.door);
      if (held.mode !== m.mode || held.delay !== m.delay) {
        await this.driver.setDoorControl(this.wg, m.door, { mode: m.mode, delay: m.delay });
        this.count('DoorModes');
      }
      this.applied[`m:${m.door}`] = d;
    }
  }
}
