/**
 * The access check (docs/access-control.md, "Access check"): how a controller judges a card's time profile at one
 * minute of its wall clock, and the local dates a card's validity becomes on a controller. One evaluation serves
 * both sides of the check: what Gatehouse compiles for the controller (planSlots, holidays included) and what the
 * controller answers it holds (0x98 read back), so the two are judged by the same rule.
 */
import {
  CONTROLLER_DATE_MAX,
  CONTROLLER_DATE_MIN,
  PROFILE_SLOT_FIRST,
  PROFILE_SLOT_LAST,
  dayNumber,
  isLocalDate,
  isLocalMinute,
  isoWeekday,
  minuteOfDay,
  planSlots,
  profileClosure,
  type HolidayDef,
  type ProfileDef,
  type ProfileSegment,
} from './access-rules.ts';
import { fromLocalTime, localDateKey, localTime } from './tariff/calendar.ts';
import type { LocalMinute } from './visitor-pass-rules.ts';

/** A controller profile as the evaluation reads it: ours (a compiled part) or the controller's (read back). */
export interface ChainSlot {
  /** 2..254 */
  slot: number;
  /** YYYY-MM-DD, inclusive; null: the controller holds no date */
  from: string | null;
  to: string | null;
  /** 1 Monday .. 7 Sunday */
  weekdays: readonly number[];
  /** HH:mm, both ends included */
  segments: readonly ProfileSegment[];
  /** next slot of the chain, 0 for none */
  linked: number;
}

/**
 * What a chain of controller profiles says of one minute: granted by the slot whose segment covers it; granted
 * because a slot of the chain is missing (a controller lets a card whose profile it lacks in at any time:
 * uhppote-simulator, "IRL, a controller seems to default to ok"); or refused after every slot it visited.
 */
export type ChainVerdict =
  | { granted: true; slot: number; missing: null; visited: number[] }
  | { granted: true; slot: null; missing: number; visited: number[] }
  | { granted: false; slot: null; missing: null; visited: number[] };

/** Whether a segment covers a minute of the day: ends included; 00:00–00:00 is an unused segment. */
function covers(segment: ProfileSegment, minute: number): boolean {
  const start = minuteOfDay(segment.Start);
  const end = minuteOfDay(segment.End);
  if (start === 0 && end === 0) return false;
  return minute >= start && minute <= end;
}

/** Whether one controller profile grants at that minute: its dates, its weekday, one of its segments. */
export function slotGrantsAt(slot: ChainSlot, at: LocalMinute): boolean {
  if (slot.from === null || slot.to === null) return false;
  if (at.date < slot.from || at.date > slot.to) return false;
  if (!slot.weekdays.includes(isoWeekday(dayNumber(at.date)))) return false;
  return slot.segments.some((s) => covers(s, at.minute));
}

/**
 * A card's door value 2..254 names the head of a chain; the controller checks each profile of the chain in turn
 * (a loop is stopped) and grants on the first that covers the minute.
 */
export function chainGrantsAt(
  head: number,
  slots: ReadonlyMap<number, ChainSlot>,
  at: LocalMinute,
): ChainVerdict {
  const visited: number[] = [];
  for (let id = head; id >= PROFILE_SLOT_FIRST && id <= PROFILE_SLOT_LAST && !visited.includes(id);) {
    const slot = slots.get(id);
    if (!slot) return { granted: true, slot: null, missing: id, visited };
    visited.push(id);
    if (slotGrantsAt(slot, at)) return { granted: true, slot: id, missing: null, visited };
    id = slot.linked;
  }
  return { granted: false, slot: null, missing: null, visited };
}

/** What a time profile of the area says of one minute, as the controller holding its compiled chain would. */
export interface ProfileVerdict {
  granted: boolean;
  /** The profile (this one or one linked from it) whose compiled part granted. */
  grantedBy: number | null;
  /** The holiday that kept a "not on holidays" profile of the chain from granting at that minute. */
  holiday: string | null;
  /** The profile is not (or no longer) the area's: the controller gets door value 0 for it (no access). */
  missing: boolean;
}

/**
 * A time profile at one minute of the area's wall clock: compiled with the holidays exactly as the controller
 * gets it (planSlots), then judged as the controller judges the chain. A refusal names the holiday that made it,
 * when a holiday is the reason.
 */
export function profileGrantsAt(
  profileId: number,
  profiles: ReadonlyMap<number, ProfileDef>,
  holidays: readonly HolidayDef[],
  at: LocalMinute,
): ProfileVerdict {
  const result = planSlots([profileId], profiles, holidays);
  const head = result.ok ? result.plan.head.get(profileId) : undefined;
  if (!result.ok || head === undefined)
    return { granted: false, grantedBy: null, holiday: null, missing: true };
  const slots = new Map(result.plan.slots.map((s) => [s.slot, s]));
  const verdict = chainGrantsAt(head, slots, at);
  if (verdict.granted) {
    const by = verdict.slot === null ? null : (slots.get(verdict.slot)?.profileId ?? null);
    return { granted: true, grantedBy: by, holiday: null, missing: false };
  }
  return {
    granted: false,
    grantedBy: null,
    holiday: blockingHoliday(profileId, profiles, holidays, at),
    missing: false,
  };
}

/** The holiday that took the minute out of a "not on holidays" profile of the chain, if one did. */
function blockingHoliday(
  profileId: number,
  profiles: ReadonlyMap<number, ProfileDef>,
  holidays: readonly HolidayDef[],
  at: LocalMinute,
): string | null {
  const holiday = holidays.find((h) => at.date >= h.StartDate && at.date <= h.EndDate);
  if (!holiday) return null;
  for (const id of profileClosure([profileId], profiles)) {
    const p = profiles.get(id)!;
    const slot = {
      slot: 0,
      from: p.StartDate,
      to: p.EndDate,
      weekdays: p.Weekdays,
      segments: p.Segments,
      linked: 0,
    };
    if (p.NotOnHolidays && slotGrantsAt(slot, at)) return holiday.Name;
  }
  return null;
}

// ---- local dates and minutes of an area ------------------------------------------------------------------------

/**
 * The local date a card's validity bound becomes on a controller: the area's wall-clock date of the instant, kept
 * inside the dates the protocol carries (BCD, century 20). What the device sync writes and the check compares.
 */
export function controllerDate(ms: number, zone: string): string {
  const clamped = Math.min(Math.max(ms, Date.UTC(2000, 0, 2)), Date.UTC(2099, 11, 30));
  const date = localDateKey(clamped, zone);
  if (date < CONTROLLER_DATE_MIN) return CONTROLLER_DATE_MIN;
  return date > CONTROLLER_DATE_MAX ? CONTROLLER_DATE_MAX : date;
}

/** The minute of the area's wall clock an instant falls in. */
export function localMinuteOf(ms: number, zone: string): LocalMinute {
  const t = localTime(ms, zone);
  return { date: localDateKey(ms, zone), minute: t.hour * 60 + t.minute };
}

/** `YYYY-MM-DD HH:mm`, the way the check writes a minute of the area's wall clock. */
export function localMinuteText(at: LocalMinute): string {
  const hh = String(Math.floor(at.minute / 60)).padStart(2, '0');
  const mm = String(at.minute % 60).padStart(2, '0');
  return `${at.date} ${hh}:${mm}`;
}

const LOCAL_MINUTE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})$/;

/** A minute of the area's wall clock typed `YYYY-MM-DD HH:mm` (or with a `T`), or null when it is not one. */
export function parseLocalMinute(text: string): LocalMinute | null {
  const m = LOCAL_MINUTE.exec(text.trim());
  if (!m || !isLocalDate(m[1]!) || !isLocalMinute(m[2]!)) return null;
  return { date: m[1]!, minute: minuteOfDay(m[2]!) };
}

/** The instant a minute of the area's wall clock happens (in a daylight-saving change, the earlier one). */
export function instantOfLocalMinute(at: LocalMinute, zone: string): number {
  const [year, month, day] = at.date.split('-').map(Number) as [number, number, number];
  const hour = Math.floor(at.minute / 60);
  return fromLocalTime({ year, month, day, hour, minute: at.minute % 60, second: 0, millisecond: 0 }, zone);
}
