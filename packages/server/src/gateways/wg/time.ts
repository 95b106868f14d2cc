// Controller clocks keep local wall-clock time with no zone. These helpers convert between that and instants
// with an explicit IANA zone (the area's), so no code path silently uses the server's own zone; the calendar
// itself is the shared one (packages/shared tariff/calendar.ts), the one every other local time goes through.

import { fromLocalTime, localTime } from '@gatehouse/shared';
import type { LocalDateTime } from './codec.ts';

/** The wall-clock time of `instant` in `timeZone`, e.g. to set a controller's clock (0x30). */
export function toLocalDateTime(instant: Date, timeZone: string): LocalDateTime {
  const { year, month, day, hour, minute, second } = localTime(instant.getTime(), timeZone);
  return { year, month, day, hour, minute, second };
}

/** The wall-clock value as if it were UTC, in ms: a zone-free number to subtract wall-clock times. */
export function wallClockMs(t: LocalDateTime): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/**
 * The instant a controller's wall-clock value denotes in `timeZone`. In a DST gap or overlap the earlier
 * candidate wins, which is what a controller that does not know about DST effectively reports.
 */
export function fromLocalDateTime(t: LocalDateTime, timeZone: string): Date {
  return new Date(fromLocalTime({ ...t, millisecond: 0 }, timeZone));
}

/** Controller clock minus server clock, in seconds, for a controller time read at `serverNow`. */
export function clockDriftSeconds(controller: LocalDateTime, serverNow: Date, timeZone: string): number {
  return Math.round((wallClockMs(controller) - wallClockMs(toLocalDateTime(serverNow, timeZone))) / 1000);
}
