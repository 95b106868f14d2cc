// The access rules a virtual controller keeps besides its card list: time profiles (with linked chains), the task
// list (door schedules), interlock, anti-passback, reader keypads, door passcodes and first-card settings; how they
// are written by their requests (0x84..0xAC) and how they judge a swipe. Written from uhppoted/uhppote-core
// `messages/*.go` (layouts) and `types/*.go` (values), and, for the behaviour, from uhppoted/uhppote-simulator
// (simulator/UT0311L04/actions.go, entities/anti-passback.go, entities/tasklist.go, entities/door.go), the
// reference emulation by the same authors. Where this file departs from it, a comment says why.
import type { Out } from './protocol.ts';
import {
  F,
  readDate,
  readFlags,
  readHHmm,
  type SimDate,
  type SimDateTime,
  type SimHHmm,
} from './protocol.ts';

export interface SimTimeSegment {
  start: SimHHmm;
  end: SimHHmm;
}

export interface SimTimeProfile {
  /** 2..254 */
  id: number;
  from: SimDate | null;
  to: SimDate | null;
  /** Monday first */
  weekdays: boolean[];
  segments: SimTimeSegment[];
  /** next profile of the chain, 0 none */
  linked: number;
}

export interface SimTask {
  /** task type 0..12 (uhppote-core types/task.go) */
  type: number;
  door: number;
  from: SimDate | null;
  to: SimDate | null;
  /** Monday first */
  weekdays: boolean[];
  start: SimHHmm;
  moreCards: number;
}

export interface SimFirstCard {
  door: number;
  start: SimHHmm;
  startMode: number;
  end: SimHHmm;
  endMode: number;
  weekdays: boolean[];
}

/** When a card with a PIN must also key it in (tasks 5, 6, 7 switch it per door). */
export type PinMode = 'none' | 'in' | 'in-out';

/** What the task list has done to one door. */
export interface DoorTaskState {
  /** door mode forced by a task (1 open, 2 closed, 3 controlled); null: the 0x80 setting applies */
  mode: number | null;
  /** "disable time profile" ran: cards whose door value is a profile are refused (reason 15) */
  profileDisabled: boolean;
  /** "disable push button" ran */
  buttonDisabled: boolean;
  pinMode: PinMode;
  /** cards "enable more cards" asked for (stored, not enforced); 0 off */
  moreCards: number;
}

/** What `AccessRules.snapshot()` returns. */
export interface RulesSnapshot {
  profiles: SimTimeProfile[];
  tasks: SimTask[];
  pendingTasks: SimTask[];
  interlock: number;
  antiPassback: number;
  keypads: boolean[];
  passcodes: number[][];
  firstCards: SimFirstCard[];
  doorTasks: DoorTaskState[];
}

const MAGIC = 0x55aaaa55;
const TASK_TYPES = 13;
/** Valid interlock values (uhppote-core types/interlock.go @11f5ee4): door groups that lock each other out. */
const INTERLOCK_GROUPS: Record<number, number[][]> = {
  0x00: [],
  0x01: [[1, 2]],
  0x02: [[3, 4]],
  0x03: [
    [1, 2],
    [3, 4],
  ],
  0x04: [[1, 2, 3]],
  0x08: [[1, 2, 3, 4]],
};

/**
 * Anti-passback, uhppote-simulator entities/anti-passback.go: after a granted swipe at door d, the card is refused
 * at `deny[d]` until it passes a door of `allow[d]`. Modes 1..4 of uhppote-core types/anti_passback.go.
 */
const PASSBACK: Record<number, Record<number, { deny: number[]; allow: number[] }>> = {
  0x01: {
    1: { deny: [1], allow: [2] },
    2: { deny: [2], allow: [1] },
    3: { deny: [3], allow: [4] },
    4: { deny: [4], allow: [3] },
  },
  0x02: {
    1: { deny: [1], allow: [3] },
    2: { deny: [2], allow: [4] },
    3: { deny: [3], allow: [1] },
    4: { deny: [4], allow: [2] },
  },
  0x03: {
    1: { deny: [1], allow: [2, 3] },
    2: { deny: [2, 3], allow: [1] },
    3: { deny: [2, 3], allow: [1] },
  },
  0x04: {
    1: { deny: [1], allow: [2, 3, 4] },
    2: { deny: [2, 3, 4], allow: [1] },
    3: { deny: [2, 3, 4], allow: [1] },
    4: { deny: [2, 3, 4], allow: [1] },
  },
};

/** A task list that was silent for longer than this is only replayed over its last week (one weekly cycle). */
const TASK_REPLAY_DAYS = 8;
const DAY_MS = 86_400_000;

function freshDoors(): DoorTaskState[] {
  return Array.from({ length: 4 }, () => ({
    mode: null,
    profileDisabled: false,
    buttonDisabled: false,
    // Default: a card with a PIN keys it in at a reader whose keypad is on, both ways (a simulator assumption:
    // neither uhppote-core nor uhppote-simulator says what the controller does before any PIN task ran).
    pinMode: 'in-out' as PinMode,
    moreCards: 0,
  }));
}

export class AccessRules {
  readonly profiles = new Map<number, SimTimeProfile>();
  /** the active task list (refreshed with 0xAC) */
  tasks: SimTask[] = [];
  /** tasks added with 0xA8 since the last refresh: not active yet (uhppote-simulator entities/tasklist.go) */
  pendingTasks: SimTask[] = [];
  interlock = 0;
  antiPassback = 0;
  /** reader keypads on (0xA4), readers 1..4 */
  keypads = [false, false, false, false];
  /** per door, four passcodes (0 none) */
  passcodes: number[][] = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  readonly firstCards = new Map<number, SimFirstCard>();
  doors: DoorTaskState[] = freshDoors();
  /** card:door pairs refused by anti-passback until the card passes the other side */
  private readonly passbackDenied = new Set<string>();
  /** controller-local ms up to which the task list has run; null until first asked */
  private tasksRanUntil: number | null = null;

  constructor(private readonly doorCount: number) {}

  /** Back to the factory state (restore default parameters). */
  reset(): void {
    this.profiles.clear();
    this.tasks = [];
    this.pendingTasks = [];
    this.interlock = 0;
    this.antiPassback = 0;
    this.keypads = [false, false, false, false];
    this.passcodes = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
    this.firstCards.clear();
    this.doors = freshDoors();
    this.passbackDenied.clear();
    this.tasksRanUntil = null;
  }

  /** A copy of everything stored, for the control API (doors limited to the controller's). */
  snapshot(): RulesSnapshot {
    const copy = <T>(v: T): T => structuredClone(v);
    return {
      profiles: copy([...this.profiles.values()].sort((a, b) => a.id - b.id)),
      tasks: copy(this.tasks),
      pendingTasks: copy(this.pendingTasks),
      interlock: this.interlock,
      antiPassback: this.antiPassback,
      keypads: this.keypads.slice(0, this.doorCount),
      passcodes: copy(this.passcodes.slice(0, this.doorCount)),
      firstCards: copy([...this.firstCards.values()].sort((a, b) => a.door - b.door)),
      doorTasks: copy(this.doors.slice(0, this.doorCount)),
    };
  }

  // ---- time profiles ---------------------------------------------------------------------------------------------

  /**
   * Whether profile `id`, or one of the profiles linked from it, covers `now`. As uhppote-simulator's
   * checkTimeProfile: a profile the controller does not hold lets the card through ("IRL, a controller seems to
   * default to ok if time profile is not present"), and so does a chain that reaches a missing profile.
   */
  profileAllows(id: number, now: SimDateTime): boolean {
    const chain: number[] = [];
    for (let p: number = id; p >= 2 && p <= 254 && !chain.includes(p);) {
      chain.push(p);
      const profile = this.profiles.get(p);
      if (!profile) return true;
      p = profile.linked;
    }
    return chain.some((p) => covers(this.profiles.get(p)!, now));
  }

  // ---- task list -------------------------------------------------------------------------------------------------

  /**
   * Runs every task whose start time fell in (last run, now], in time order (ties in list order), calling
   * `trigger` for "trigger once". A clock set back moves the mark back too, so the tasks of the skipped-back
   * stretch run again when time passes them, as they would on a controller whose clock was set back.
   */
  runTasks(now: SimDateTime, trigger: (door: number) => void): void {
    const t = wallMs(now);
    if (this.tasksRanUntil === null || t <= this.tasksRanUntil) {
      this.tasksRanUntil = t;
      return;
    }
    const from = Math.max(this.tasksRanUntil, t - TASK_REPLAY_DAYS * DAY_MS);
    const due: { at: number; index: number; task: SimTask }[] = [];
    for (let day = startOfDay(from); day <= t; day += DAY_MS) {
      const date = dateOf(day);
      this.tasks.forEach((task, index) => {
        const at = day + (task.start.hour * 60 + task.start.minute) * 60_000;
        if (at > from && at <= t && activeOn(task, date)) due.push({ at, index, task });
      });
    }
    due.sort((a, b) => a.at - b.at || a.index - b.index);
    for (const { task } of due) this.apply(task, trigger);
    this.tasksRanUntil = t;
  }

  private apply(task: SimTask, trigger: (door: number) => void): void {
    const door = this.doors[task.door - 1];
    if (!door) return;
    // uhppote-simulator UT0311L04.RunTasks for 0..4, 10..12; 5..7 (PIN modes) and 8..9 (more cards) it leaves
    // out, so here they only change what the simulator asks of a card with a PIN, or are stored.
    switch (task.type) {
      case 0:
      case 1:
      case 2:
        door.mode = [3, 1, 2][task.type]!;
        return;
      case 3:
      case 4:
        door.profileDisabled = task.type === 3;
        return;
      case 5:
      case 6:
      case 7:
        door.pinMode = (['none', 'in', 'in-out'] as const)[task.type - 5]!;
        return;
      case 8:
        door.moreCards = task.moreCards;
        return;
      case 9:
        door.moreCards = 0;
        return;
      case 10:
        trigger(task.door);
        return;
      case 11:
      case 12:
        door.buttonDisabled = task.type === 11;
        return;
    }
  }

  // ---- interlock, anti-passback, PIN -----------------------------------------------------------------------------

  /** The doors interlocked with `door` (empty when interlock is off or does not include it). */
  interlockedWith(door: number): number[] {
    const group = (INTERLOCK_GROUPS[this.interlock] ?? []).find((g) => g.includes(door)) ?? [];
    return group.filter((d) => d !== door && d <= this.doorCount);
  }

  passbackAllows(card: number, door: number): boolean {
    return !this.passbackDenied.has(`${card}:${door}`);
  }

  /** A granted swipe: the card is now on the other side of `door` (uhppote-simulator AntiPassback.Allowed). */
  passed(card: number, door: number): void {
    const rule = PASSBACK[this.antiPassback]?.[door];
    if (!rule) return;
    for (const d of rule.deny) this.passbackDenied.add(`${card}:${d}`);
    for (const d of rule.allow) this.passbackDenied.delete(`${card}:${d}`);
  }

  /** Whether a card with a PIN must key it in at `door` in `direction` (1 in, 2 out). */
  pinRequired(door: number, direction: number): boolean {
    if (!this.keypads[door - 1]) return false;
    const mode = this.doors[door - 1]!.pinMode;
    return mode === 'in-out' || (mode === 'in' && direction === 1);
  }

  /** True when `code` is one of the door's passcodes (0 is "no passcode" and never opens). */
  passcodeOpens(door: number, code: number): boolean {
    return code !== 0 && (this.passcodes[door - 1] ?? []).includes(code);
  }

  // ---- protocol --------------------------------------------------------------------------------------------------

  /**
   * Answers a rule request; undefined when `fn` is not one (restore defaults is the controller's own business: it
   * clears more than the rules). `now` is the controller's clock, for the task list.
   */
  answer(fn: number, bytes: Uint8Array, out: Out, now: SimDateTime): Uint8Array | undefined {
    const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const result = (ok: boolean) => out.u8(8, ok ? 1 : 0).bytes;
    const magic = data.getUint32(8, true) === MAGIC;
    switch (fn) {
      case F.SET_TIME_PROFILE: {
        const profile = readProfile(bytes);
        if (!profile) return result(false);
        this.profiles.set(profile.id, profile);
        return result(true);
      }
      case F.GET_TIME_PROFILE: {
        const profile = this.profiles.get(bytes[8]!);
        return profile ? writeProfile(out, profile) : out.bytes;
      }
      case F.CLEAR_TIME_PROFILES:
        if (magic) this.profiles.clear();
        return result(magic);
      case F.ADD_TASK: {
        const task = readTask(bytes, this.doorCount);
        if (task) this.pendingTasks.push(task);
        return result(task !== undefined);
      }
      case F.CLEAR_TASKS:
        if (magic) {
          this.tasks = [];
          this.pendingTasks = [];
        }
        return result(magic);
      case F.REFRESH_TASKS:
        if (magic) {
          this.tasks.push(...this.pendingTasks);
          this.pendingTasks = [];
          // Tasks whose start has passed today wait for their next day; one starting this minute still runs
          // (uhppote-simulator TaskList.refresh schedules start >= now at minute resolution).
          this.tasksRanUntil = wallMs({ ...now, second: 0 }) - 1;
        }
        return result(magic);
      case F.SET_INTERLOCK:
        if (!(bytes[8]! in INTERLOCK_GROUPS)) return result(false);
        this.interlock = bytes[8]!;
        return result(true);
      case F.SET_ANTIPASSBACK:
        if (bytes[8]! > 4) return result(false);
        // A new mode starts from a clean slate (uhppote-simulator keeps the old refusals, which then outlive even
        // "disabled"; a controller that no longer enforces anti-passback should not refuse for it).
        if (bytes[8] !== this.antiPassback) this.passbackDenied.clear();
        this.antiPassback = bytes[8]!;
        return result(true);
      case F.GET_ANTIPASSBACK:
        return out.u8(8, this.antiPassback).bytes;
      case F.ACTIVATE_KEYPADS:
        this.keypads = readFlags(bytes, 8, 4);
        return result(true);
      case F.SET_PASSCODES: {
        const door = bytes[8]!;
        const codes = [12, 16, 20, 24].map((at) => data.getUint32(at, true));
        if (door < 1 || door > this.doorCount || codes.some((c) => c > 999_999)) return result(false);
        this.passcodes[door - 1] = codes;
        return result(true);
      }
      case F.SET_FIRST_CARD: {
        const rule = readFirstCard(bytes, this.doorCount);
        if (rule) this.firstCards.set(rule.door, rule);
        return result(rule !== undefined);
      }
      default:
        return undefined;
    }
  }
}

function readProfile(bytes: Uint8Array): SimTimeProfile | undefined {
  const id = bytes[8]!;
  const from = readDate(bytes, 9);
  const to = readDate(bytes, 13);
  const segments = [0, 1, 2].map((i) => ({
    start: readHHmm(bytes, 24 + 4 * i),
    end: readHHmm(bytes, 26 + 4 * i),
  }));
  // uhppote-simulator entities/time_profiles.go: only ids 2..254 are stored
  if (id < 2 || id > 254 || from === undefined || to === undefined) return undefined;
  if (segments.some((s) => !s.start || !s.end)) return undefined;
  return {
    id,
    from,
    to,
    weekdays: readFlags(bytes, 17, 7),
    segments: segments as SimTimeSegment[],
    linked: bytes[36]!,
  };
}

function writeProfile(out: Out, p: SimTimeProfile): Uint8Array {
  out.u8(8, p.id).date(9, p.from).date(13, p.to).flags(17, p.weekdays);
  p.segments.forEach((s, i) => out.hhmm(24 + 4 * i, s.start).hhmm(26 + 4 * i, s.end));
  return out.u8(36, p.linked).bytes;
}

function readTask(bytes: Uint8Array, doorCount: number): SimTask | undefined {
  const from = readDate(bytes, 8);
  const to = readDate(bytes, 12);
  const start = readHHmm(bytes, 23);
  const door = bytes[25]!;
  const type = bytes[26]!;
  if (from === undefined || to === undefined || !start || door < 1 || door > doorCount || type >= TASK_TYPES)
    return undefined;
  return { type, door, from, to, weekdays: readFlags(bytes, 16, 7), start, moreCards: bytes[27]! };
}

function readFirstCard(bytes: Uint8Array, doorCount: number): SimFirstCard | undefined {
  const door = bytes[8]!;
  const start = readHHmm(bytes, 9);
  const end = readHHmm(bytes, 12);
  const [startMode, endMode] = [bytes[11]!, bytes[14]!];
  const mode = (m: number) => m >= 1 && m <= 4;
  if (door < 1 || door > doorCount || !start || !end || !mode(startMode) || !mode(endMode)) return undefined;
  return { door, start, startMode, end, endMode, weekdays: readFlags(bytes, 15, 7) };
}

// ---- time ----------------------------------------------------------------------------------------------------------

/** Wall-clock fields as if UTC, in ms (zone-less arithmetic). */
function wallMs(t: SimDateTime): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

function startOfDay(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

function dateOf(ms: number): SimDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function cmpDate(a: SimDate, b: SimDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** 0 Monday .. 6 Sunday, the order of the weekday flags on the wire. */
function weekdayIndex(d: SimDate): number {
  return (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7;
}

/** A task runs on a day inside its dates (both required, as uhppote-core's AddTask insists) with its flag set. */
function activeOn(task: SimTask, date: SimDate): boolean {
  if (!task.from || !task.to || cmpDate(date, task.from) < 0 || cmpDate(date, task.to) > 0) return false;
  return task.weekdays[weekdayIndex(date)] === true;
}

/**
 * One profile covers `now`: inside its dates (a profile without dates covers nothing, as in uhppote-simulator),
 * on a flagged weekday, and within a segment, ends included, at minute resolution. A 00:00-00:00 segment is an
 * unused one (the 0x98 reply of an empty profile is all zeros) and covers nothing; uhppote-simulator would let it
 * match at midnight.
 */
function covers(p: SimTimeProfile, now: SimDateTime): boolean {
  if (!p.from || !p.to || cmpDate(now, p.from) < 0 || cmpDate(now, p.to) > 0) return false;
  if (!p.weekdays[weekdayIndex(now)]) return false;
  const minute = now.hour * 60 + now.minute;
  const m = (t: SimHHmm) => t.hour * 60 + t.minute;
  return p.segments.some(
    (s) => !(m(s.start) === 0 && m(s.end) === 0) && m(s.start) <= minute && minute <= m(s.end),
  );
}
