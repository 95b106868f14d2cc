/**
 * Access rules on the controllers (docs/access-control.md, "Access rules"): the pure part both sides apply.
 *
 * - Local dates ("2026-05-01") and minutes ("08:30") as the area's wall clock, which is what a controller keeps.
 * - What a controller model supports: interlock and anti-passback modes by door count.
 * - Time profiles compiled for a controller: a profile marked "not on holidays" becomes a chain of controller
 *   profiles whose date ranges skip the holidays (the controller has no holiday concept); a linked profile is
 *   the next link of the chain. Each controller has 253 profile slots (ids 2..254): a plan is counted before
 *   anything is sent and refused when it does not fit.
 */

/** Controller profile ids: 0 (no access) and 1 (always) are door values, 2..254 are profiles. */
export const PROFILE_SLOT_FIRST = 2;
export const PROFILE_SLOT_LAST = 254;
export const PROFILE_SLOTS = PROFILE_SLOT_LAST - PROFILE_SLOT_FIRST + 1;

/** The controller's dates are BCD with the century 20: 2000-01-01 to 2099-12-31. */
export const CONTROLLER_DATE_MIN = '2000-01-01';
export const CONTROLLER_DATE_MAX = '2099-12-31';

/** At most this many passcodes per door (0x8C), each 1..999999. */
export const PASSCODES_PER_DOOR = 4;
export const PASSCODE_MAX = 999_999;

/**
 * A door passcode, keyed in at the reader: 1 to 6 digits, not 0 (the controller takes 1..999999 and reads 0
 * as "no passcode", docs/devices.md 0x8C). The API's rule (contract access-control-channel.ts) and the form's.
 */
export function isPasscode(code: unknown): boolean {
  return typeof code === 'number' && Number.isInteger(code) && code >= 1 && code <= PASSCODE_MAX;
}

/** What is wrong with a door's list of passcodes, as a catalogue key; null when it may be sent. */
export function passcodesProblem(
  codes: readonly unknown[],
): 'validation.passcode' | 'validation.passcodeCount' | 'validation.passcodeRepeated' | null {
  if (!codes.every(isPasscode)) return 'validation.passcode';
  if (codes.length > PASSCODES_PER_DOOR) return 'validation.passcodeCount';
  return new Set(codes).size === codes.length ? null : 'validation.passcodeRepeated';
}

/** What an operator types to clear a door's passcodes (an empty field keeps them). */
export const PASSCODES_CLEAR = '-';

/**
 * The passcodes field as an operator types it: empty keeps the door's passcodes (undefined), "-" clears them
 * ([]), else codes separated by commas or spaces, each 1 to 6 digits. Answers the codes, or the catalogue key of
 * what is wrong (the same rule as the API's: passcodesProblem).
 */
export function parsePasscodes(
  text: string,
):
  | { ok: true; codes: number[] | undefined }
  | { ok: false; key: NonNullable<ReturnType<typeof passcodesProblem>> } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, codes: undefined };
  if (trimmed === PASSCODES_CLEAR) return { ok: true, codes: [] };
  const parts = trimmed.split(/[,，、\s]+/).filter(Boolean);
  // Digits only: "abc" or "12a" is not a passcode (Number() would make NaN, or a hexadecimal "0x1f" a number).
  if (!parts.every((p) => /^\d{1,6}$/.test(p))) return { ok: false, key: 'validation.passcode' };
  const codes = parts.map(Number);
  const key = passcodesProblem(codes);
  return key ? { ok: false, key } : { ok: true, codes };
}

/** Seconds a door may stand open before it counts as held open, when the door says nothing else. */
export const HELD_OPEN_DEFAULT_SECONDS = 60;

// ---- local dates and minutes ------------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isLocalDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1;
}

/** Whether `text` is a minute of the day written HH:mm (00:00..23:59). */
export function isLocalMinute(text: string): boolean {
  return MINUTE.test(text);
}

/** Days since 1970-01-01 of a YYYY-MM-DD date (zone-free: a local date is a calendar day). */
export function dayNumber(date: string): number {
  const m = DATE.exec(date)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
}

/** The YYYY-MM-DD date of a day number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 1 Monday .. 7 Sunday (ISO), the weekday numbering of the API. */
export function isoWeekday(day: number): number {
  // 1970-01-01 was a Thursday (4).
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Minutes since midnight of an HH:mm text. */
export function minuteOfDay(text: string): number {
  const m = MINUTE.exec(text)!;
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Weekdays 1..7 as a bit mask (bit 0 Monday), how they are stored. */
export function weekdayMask(days: readonly number[]): number {
  return days.reduce((mask, d) => mask | (1 << (d - 1)), 0);
}

/** The weekdays 1..7 of a bit mask, in order. */
export function weekdaysOf(mask: number): number[] {
  return [1, 2, 3, 4, 5, 6, 7].filter((d) => (mask & (1 << (d - 1))) !== 0);
}

// ---- what a controller model supports ---------------------------------------------------------------------

/**
 * Interlock modes (0xA2) a controller with this many doors can use: 1 doors 1&2, 2 doors 3&4, 3 both pairs,
 * 4 doors 1&2&3, 8 all four (uhppote-core types/interlock.go). A one-door controller has nothing to interlock.
 */
export function interlockModes(doors: number): number[] {
  if (doors >= 4) return [0, 1, 2, 3, 4, 8];
  if (doors >= 2) return [0, 1];
  return [0];
}

/**
 * Anti-passback modes (0x84) by door count: 1 doors 1:2 and 3:4, 2 doors (1,3):(2,4), 3 door 1:(2,3), 4 door
 * 1:(2,3,4) (uhppote-core types/anti_passback.go): a card that passed one side is refused there until it
 * passes the other.
 */
export function antiPassbackModes(doors: number): number[] {
  if (doors >= 4) return [0, 1, 2, 3, 4];
  if (doors >= 2) return [0, 1];
  return [0];
}

// ---- time profiles and holidays ---------------------------------------------------------------------------

export interface ProfileSegment {
  /** HH:mm, inclusive */
  Start: string;
  /** HH:mm, inclusive; after Start */
  End: string;
}

/** A time profile as the area defines it. */
export interface ProfileDef {
  Id: number;
  Name: string;
  /** YYYY-MM-DD, inclusive */
  StartDate: string;
  EndDate: string;
  /** 1 Monday .. 7 Sunday */
  Weekdays: readonly number[];
  Segments: readonly ProfileSegment[];
  /** Checked next when this one does not grant access (a chain on the controller). */
  LinkedProfileId: number | null;
  /** Not on the area's holidays. */
  NotOnHolidays: boolean;
}

export interface HolidayDef {
  Name: string;
  StartDate: string;
  EndDate: string;
}

/** One controller profile of a compiled time profile: a date range with the profile's days and segments. */
export interface ProfilePart {
  from: string;
  to: string;
  /** 1..7; empty: a part that never grants (every day of the range is a holiday). */
  weekdays: number[];
}

/**
 * The date ranges of a profile on a controller. A profile that applies on holidays is one range. One marked
 * "not on holidays" is split around every holiday day that falls on one of its weekdays (a holiday on a day
 * it does not cover changes nothing), and ranges left without one of its weekdays are dropped; a profile that
 * holidays cover entirely is one part that never grants, so a card pointing at it is refused, never let in
 * by a missing profile.
 */
export function compileProfile(profile: ProfileDef, holidays: readonly HolidayDef[]): ProfilePart[] {
  const weekdays = [...profile.Weekdays].sort((a, b) => a - b);
  const start = dayNumber(clampDate(profile.StartDate));
  const end = dayNumber(clampDate(profile.EndDate));
  if (!profile.NotOnHolidays) return [{ from: dayText(start), to: dayText(end), weekdays }];
  const blocked = blockedDays(start, end, weekdays, holidays);
  const parts: ProfilePart[] = [];
  let runStart = start;
  for (const day of [...blocked, end + 1]) {
    if (day > runStart && coversWeekday(runStart, day - 1, weekdays))
      parts.push({ from: dayText(runStart), to: dayText(day - 1), weekdays });
    runStart = day + 1;
  }
  return parts.length > 0 ? parts : [{ from: dayText(start), to: dayText(end), weekdays: [] }];
}

function clampDate(date: string): string {
  if (date < CONTROLLER_DATE_MIN) return CONTROLLER_DATE_MIN;
  return date > CONTROLLER_DATE_MAX ? CONTROLLER_DATE_MAX : date;
}

/** Holiday days inside [start, end] on one of the weekdays, sorted and unique. */
function blockedDays(start: number, end: number, weekdays: number[], holidays: readonly HolidayDef[]) {
  const days = new Set<number>();
  for (const h of holidays) {
    const from = Math.max(start, dayNumber(h.StartDate));
    const to = Math.min(end, dayNumber(h.EndDate));
    for (let d = from; d <= to; d++) if (weekdays.includes(isoWeekday(d))) days.add(d);
  }
  return [...days].sort((a, b) => a - b);
}

/** Whether [from, to] contains a day of one of the weekdays. */
function coversWeekday(from: number, to: number, weekdays: number[]): boolean {
  if (to - from >= 6) return weekdays.length > 0;
  for (let d = from; d <= to; d++) if (weekdays.includes(isoWeekday(d))) return true;
  return false;
}

/** The profiles a controller must hold: those its cards use and every profile linked from them. */
export function profileClosure(used: Iterable<number>, profiles: ReadonlyMap<number, ProfileDef>): number[] {
  const out: number[] = [];
  for (const first of used) {
    for (let id: number | null = first; id !== null && !out.includes(id);) {
      const p = profiles.get(id);
      if (!p) break;
      out.push(id);
      id = p.LinkedProfileId;
    }
  }
  return out;
}

/** Whether linking `profileId` to `linkedId` would close a loop (the chain comes back to it). */
export function linkMakesLoop(
  profileId: number,
  linkedId: number | null,
  profiles: ReadonlyMap<number, Pick<ProfileDef, 'LinkedProfileId'>>,
): boolean {
  const seen = new Set<number>();
  for (let id = linkedId; id !== null && id !== undefined; id = profiles.get(id)?.LinkedProfileId ?? null) {
    if (id === profileId || seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/** How many controller profiles a set of time profiles takes, in total and per profile. */
export interface SlotCount {
  total: number;
  byProfile: { Id: number; Name: string; Parts: number }[];
}

export function slotsNeeded(
  used: Iterable<number>,
  profiles: ReadonlyMap<number, ProfileDef>,
  holidays: readonly HolidayDef[],
): SlotCount {
  const byProfile = profileClosure(used, profiles).map((id) => {
    const p = profiles.get(id)!;
    return { Id: id, Name: p.Name, Parts: compileProfile(p, holidays).length };
  });
  return { total: byProfile.reduce((n, p) => n + p.Parts, 0), byProfile };
}

/** What an over-budget plan is refused with: the count, the limit and the largest users of slots. */
export function budgetDetail(count: SlotCount, listed = 3): string {
  return [...count.byProfile]
    .sort((a, b) => b.Parts - a.Parts || a.Id - b.Id)
    .slice(0, listed)
    .map((p) => `${p.Name} ×${p.Parts}`)
    .join(', ');
}

/** One controller profile as a controller must hold it (0x88). */
export interface ProfileSlot extends ProfilePart {
  /** 2..254 */
  slot: number;
  profileId: number;
  /** index of the part within its profile's chain */
  part: number;
  segments: ProfileSegment[];
  /** next slot of the chain, 0 for none */
  linked: number;
}

export interface SlotPlan {
  slots: ProfileSlot[];
  /** profile id → the slot a card's door value names (the head of its chain) */
  head: Map<number, number>;
  /** slot keys `profileId:part` → slot, to keep them stable next time */
  assignment: Map<string, number>;
}

export type SlotPlanResult = { ok: true; plan: SlotPlan } | { ok: false; count: SlotCount };

/**
 * The controller profiles for the time profiles a controller's cards use. Slots already assigned to a part
 * (`previous`) keep it, so a card's door value (the head slot) does not change when holidays add parts to
 * its profile or other profiles come and go; new parts take the lowest free slot. Refused (`ok: false`) when
 * more than 253 slots would be needed.
 */
export function planSlots(
  used: Iterable<number>,
  profiles: ReadonlyMap<number, ProfileDef>,
  holidays: readonly HolidayDef[],
  previous: ReadonlyMap<string, number> = new Map(),
): SlotPlanResult {
  const ids = profileClosure(used, profiles);
  const parts = new Map(ids.map((id) => [id, compileProfile(profiles.get(id)!, holidays)]));
  const total = [...parts.values()].reduce((n, p) => n + p.length, 0);
  if (total > PROFILE_SLOTS) return { ok: false, count: slotsNeeded(ids, profiles, holidays) };
  const assignment = assignSlots(parts, previous);
  const head = new Map(ids.map((id) => [id, assignment.get(`${id}:0`)!]));
  const slots: ProfileSlot[] = [];
  for (const [id, list] of parts) {
    const p = profiles.get(id)!;
    list.forEach((part, i) => {
      // Within a chain each part links to the next; the last links to the head of the linked profile.
      const tail = p.LinkedProfileId === null ? 0 : (head.get(p.LinkedProfileId) ?? 0);
      const linked = i + 1 < list.length ? assignment.get(`${id}:${i + 1}`)! : tail;
      slots.push({
        ...part,
        slot: assignment.get(`${id}:${i}`)!,
        profileId: id,
        part: i,
        segments: [...p.Segments],
        linked,
      });
    });
  }
  slots.sort((a, b) => a.slot - b.slot);
  return { ok: true, plan: { slots, head, assignment } };
}

function assignSlots(
  parts: ReadonlyMap<number, ProfilePart[]>,
  previous: ReadonlyMap<string, number>,
): Map<string, number> {
  const keys = [...parts].flatMap(([id, list]) => list.map((_, i) => `${id}:${i}`));
  const assignment = new Map<string, number>();
  const taken = new Set<number>();
  for (const key of keys) {
    const slot = previous.get(key);
    if (slot !== undefined && !taken.has(slot) && slot >= PROFILE_SLOT_FIRST && slot <= PROFILE_SLOT_LAST) {
      assignment.set(key, slot);
      taken.add(slot);
    }
  }
  let free = PROFILE_SLOT_FIRST;
  for (const key of keys) {
    if (assignment.has(key)) continue;
    while (taken.has(free)) free++;
    assignment.set(key, free);
    taken.add(free);
  }
  return assignment;
}
