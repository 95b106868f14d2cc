import { MAX_DAY_SPAN } from '../constants.ts';
import { toDayjs, type DateInput } from './date-input.ts';

const DAY_MS = 86_400_000;

function instant(value: DateInput, name: string): number {
  const d = toDayjs(value);
  if (!d) throw new RangeError(`${name} is not a valid date: ${String(value)}`);
  return d.valueOf();
}

/**
 * How many days a range spans, counting every started 24-hour period: ceil((to − from) / 24 h).
 * For a whole-day range (from 00:00:00 of the first day to 23:59:59.999 of the last) this is the number of
 * calendar days, both ends included: 1 Jan to 1 Mar 2024 is 61. Working on elapsed time rather than on
 * calendar dates keeps server (UTC) and browser (local zone) in agreement. A reversed range gives a
 * negative number; an invalid date throws a RangeError.
 */
export function dateSpanDays(from: DateInput, to: DateInput): number {
  // `+ 0` turns the -0 of a small reversed range into 0.
  return Math.ceil((instant(to, 'to') - instant(from, 'from')) / DAY_MS) + 0;
}

/** True when a record-list or export range is longer than MAX_DAY_SPAN (61) days: to − from > 61 × 24 h. */
export function exceedsMaxDaySpan(from: DateInput, to: DateInput): boolean {
  return dateSpanDays(from, to) > MAX_DAY_SPAN;
}
