import type { TimeUnitValue } from './tariff.ts';

/**
 * Calendar arithmetic in a site's time zone (IANA name), for what depends on the local calendar: when a
 * monthly pass ends, where a local day starts (dashboard "today" and per-day series) and which time-of-day
 * period of a tariff an instant falls in (periods.ts). Durations never depend on it: they are elapsed time.
 */

/** The zone of sites whose area names none (the product's sites are in China: no daylight saving). */
export const DEFAULT_SITE_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True for a time-zone name this runtime knows. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall clock read from the zone's formatter (Intl): exact, and the costly part (two calls per conversion). */
function formattedLocalTime(ms: number, zone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

function wallAsUtc(t: LocalTime): number {
  const ms = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);
  // Date.UTC maps years 0–99 to 1900–1999; set the year explicitly.
  const d = new Date(ms);
  d.setUTCFullYear(t.year);
  return d.getTime();
}

const OFFSET_SPAN_MS = 15 * 60_000;
const offsets = new Map<string, number | null>();

/**
 * The zone's offset from UTC at an instant (ms). Kept per zone and quarter hour when the offset is the same at
 * both ends of the quarter (an offset changes at most once in one, on a minute boundary): a device gateway
 * converts every record of a burst, thousands a second, and the formatter was most of that cost.
 */
function offsetAt(ms: number, zone: string): number {
  const span = Math.floor(ms / OFFSET_SPAN_MS);
  const key = `${zone}|${span}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const start = span * OFFSET_SPAN_MS;
    const first = wallAsUtc(formattedLocalTime(start, zone)) - start;
    const last = start + OFFSET_SPAN_MS - 1000;
    offset = wallAsUtc(formattedLocalTime(last, zone)) - last === first ? first : null;
    if (offsets.size >= 20_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset ?? wallAsUtc(formattedLocalTime(ms, zone)) - ms;
}

/**
 * The zone's offset from UTC at an instant, in ms (wall clock = instant + offset): exported for the
 * time-of-day periods, which walk the wall clock and must notice where the offset changes.
 */
export function utcOffsetMs(ms: number, zone: string): number {
  return offsetAt(ms, zone);
}

export function localTime(ms: number, zone: string): LocalTime {
  const d = new Date(ms + offsetAt(ms, zone));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

/**
 * The instant a local wall time happens. Exact for every wall time that exists once; one skipped or repeated
 * by a daylight-saving change maps to an instant an hour around it (sites in China never see one).
 */
export function fromLocalTime(t: LocalTime, zone: string): number {
  const wall = wallAsUtc(t);
  const first = wall - offsetAt(wall, zone);
  const second = wall - offsetAt(first, zone);
  return Math.min(first, second);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Start (00:00) of the local day containing an instant. */
export function startOfLocalDay(ms: number, zone: string): number {
  const t = localTime(ms, zone);
  return fromLocalTime({ ...t, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/** The same local wall time `days` calendar days later (earlier when negative). */
export function addLocalDays(ms: number, days: number, zone: string): number {
  const t = localTime(ms, zone);
  const date = new Date(Date.UTC(t.year, t.month - 1, t.day + days));
  return fromLocalTime(
    { ...t, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() },
    zone,
  );
}

/**
 * The same local wall time `months` calendar months later. A day the target month lacks becomes its last
 * day: 31 January + 1 month = 28 (or 29) February, 29 February + 12 months = 28 February.
 */
export function addLocalMonths(ms: number, months: number, zone: string): number {
  const t = localTime(ms, zone);
  const index = t.year * 12 + (t.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return fromLocalTime({ ...t, year, month, day: Math.min(t.day, daysInMonth(year, month)) }, zone);
}

/** 'YYYY-MM-DD' of the local day containing an instant. */
export function localDateKey(ms: number, zone: string): string {
  const t = localTime(ms, zone);
  return `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/**
 * When a pass of `units` time units starting at `startAt` ends (exclusive): hours are elapsed time; days,
 * months and years step the local calendar (a month from 31 January ends on the last day of February at
 * the same wall time). Always counted from the start, never month by month, so 3 months from 31 January
 * end on 30 April, not 28 April.
 */
export function passEnd(startAt: number, unit: TimeUnitValue, units: number, zone: string): number {
  if (!Number.isSafeInteger(units) || units < 1) throw new RangeError('units must be a positive integer');
  switch (unit) {
    case 0:
      return startAt + units * 3_600_000;
    case 1:
      return addLocalDays(startAt, units, zone);
    case 2:
      return addLocalMonths(startAt, units, zone);
    case 3:
      return addLocalMonths(startAt, units * 12, zone);
    default:
      throw new RangeError(`unknown time unit ${String(unit)}`);
  }
}
