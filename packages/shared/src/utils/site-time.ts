import dayjs, { type Dayjs } from 'dayjs';
import { DEFAULT_DATE_FORMAT } from '../constants.ts';
import { DEFAULT_SITE_TIME_ZONE, fromLocalTime, isTimeZone, localTime } from '../tariff/calendar.ts';
import { parseCustom } from './custom.ts';
import { toDayjs, type DateInput } from './date-input.ts';

/*
 * One clock per site: every instant an operator reads or types is the wall time of the area's zone, whatever
 * zone the browser runs in. Pickers (antd over dayjs) only know the runtime's own zone, so a picker value is a
 * "wall clock": a dayjs in the runtime's zone whose fields (year … second) are the site's wall time. These
 * helpers are the only way across that boundary; the API keeps ISO instants.
 */

/** The zone an area's Custom names (`timezone`, text or parsed), else the default site zone. */
export function siteTimeZone(custom: unknown): string {
  const parsed =
    typeof custom === 'string' ? parseCustom(custom) : (custom as Record<string, unknown> | null);
  const zone = parsed && typeof parsed === 'object' ? parsed.timezone : undefined;
  return isTimeZone(zone) ? zone : DEFAULT_SITE_TIME_ZONE;
}

/** The instant as a wall clock of `zone` (see above); null when missing or not a date. */
export function toWallClock(input: DateInput | null | undefined, zone: string): Dayjs | null {
  const d = toDayjs(input);
  if (!d) return null;
  const t = localTime(d.valueOf(), zone);
  return dayjs(new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond));
}

/** The instant a wall clock of `zone` names (epoch milliseconds): the reverse of `toWallClock`. */
export function fromWallClock(wall: Dayjs, zone: string): number {
  return fromLocalTime(
    {
      year: wall.year(),
      month: wall.month() + 1,
      day: wall.date(),
      hour: wall.hour(),
      minute: wall.minute(),
      second: wall.second(),
      millisecond: wall.millisecond(),
    },
    zone,
  );
}

/** `fromWallClock` as the API's ISO text. */
export function wallClockToIso(wall: Dayjs, zone: string): string {
  return new Date(fromWallClock(wall, zone)).toISOString();
}

/** Formats an instant with a dayjs pattern as the wall time of `zone`; '' when missing or invalid. */
export function formatInZone(
  input: DateInput | null | undefined,
  zone: string,
  pattern: string = DEFAULT_DATE_FORMAT,
): string {
  return toWallClock(input, zone)?.format(pattern) ?? '';
}

/** The zone's offset from UTC at an instant as text: 'UTC+8', 'UTC-3:30', 'UTC'. */
export function zoneOffsetLabel(zone: string, at: number = Date.now()): string {
  const t = localTime(at, zone);
  const minutes = Math.round(
    (Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(at / 1000) * 1000) /
      60_000,
  );
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const hm =
    abs % 60 === 0 ? String(abs / 60) : `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  return `UTC${minutes > 0 ? '+' : '-'}${hm}`;
}
