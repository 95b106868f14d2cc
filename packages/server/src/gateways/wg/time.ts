// Controller clocks keep local wall-clock time with no zone. These helpers convert between that and instants
// with an explicit IANA zone (the area's), so no code path silently uses the server's own zone.

import type { LocalDateTime } from './codec.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time of `instant` in `timeZone`, e.g. to set a controller's clock (0x30). */
export function toLocalDateTime(instant: Date, timeZone: string): LocalDateTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
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
  const target = wallClockMs(t);
  let guess = target;
  // Two fixed-point steps settle the zone offset (it can change once across the guessed instant).
  for (let i = 0; i < 3; i++) {
    const offset = wallClockMs(toLocalDateTime(new Date(guess), timeZone)) - guess;
    guess = target - offset;
  }
  return new Date(guess);
}

/** Controller clock minus server clock, in seconds, for a controller time read at `serverNow`. */
export function clockDriftSeconds(controller: LocalDateTime, serverNow: Date, timeZone: string): number {
  return Math.round((wallClockMs(controller) - wallClockMs(toLocalDateTime(serverNow, timeZone))) / 1000);
}
