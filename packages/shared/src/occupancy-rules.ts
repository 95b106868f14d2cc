import { fromLocalTime, localTime } from './tariff/calendar.ts';

/**
 * Who is inside (docs/access-control.md, "Occupancy and muster"; issue 31): the rules the server and the screens
 * share. A holder is inside from a granted swipe at an in reader until a granted swipe at an out reader, or until
 * the area's reset hour comes round (whoever left without swiping out is then no longer counted).
 */

/** The reset hour of an area that never chose one: 04:00, after the night shift's and before the day's arrivals. */
export const OCCUPANCY_RESET_HOUR_DEFAULT = 4;

/** Readers one roll call may take as muster points. */
export const MUSTER_POINTS_MAX = 50;

/** Longest reason of a roll call, or note of a mark or an end. */
export const MUSTER_TEXT_MAX = 200;

/** People marked safe by hand in one request. */
export const MUSTER_MARK_MAX = 500;

/**
 * The last time the area's reset hour came round at or before `now`, in the area's zone: today at that hour when
 * it has passed, else yesterday. A swipe in before it no longer counts as inside.
 */
export function occupancySince(now: number, zone: string, resetHour: number): number {
  const today = localTime(now, zone);
  const at = (year: number, month: number, day: number) =>
    fromLocalTime({ year, month, day, hour: resetHour, minute: 0, second: 0, millisecond: 0 }, zone);
  const todays = at(today.year, today.month, today.day);
  if (todays <= now) return todays;
  const yesterday = new Date(Date.UTC(today.year, today.month - 1, today.day - 1));
  return at(yesterday.getUTCFullYear(), yesterday.getUTCMonth() + 1, yesterday.getUTCDate());
}
