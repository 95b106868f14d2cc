/**
 * Visitor passes (docs/access-control.md, "Visitor passes"): the rules both sides apply to a pass's window, and
 * the time-profile parts that carry its hours on a controller, which holds a card's validity as dates only.
 */

/** The longest pass: a visit, not a tenancy (a contractor on site for months is a card holder). */
export const VISITOR_PASS_MAX_DAYS = 30;
/** How far in the past a pass may start: the minute being typed in. */
export const VISITOR_PASS_PAST_GRACE_MS = 60_000;
/** Doors one pass may open. */
export const VISITOR_PASS_CHANNELS_MAX = 50;
export const VISITOR_NAME_MAX = 50;
export const VISITOR_COMPANY_MAX = 100;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A problem with a pass's window: the field it belongs to and the catalogue key of its message. */
export interface PassWindowProblem {
  field: 'ValidFrom' | 'ValidTo';
  key: string;
  params?: Record<string, string | number>;
}

/**
 * Whether a pass may run from `from` to `to` (epoch ms, `to` exclusive) issued at `now`: both to the minute (the
 * area's clock and the controller's profiles count minutes; every zone's offset is whole minutes), the end after
 * the start and after now, the start no earlier than a minute ago, and at most VISITOR_PASS_MAX_DAYS long.
 */
export function passWindowProblem(from: number, to: number, now: number): PassWindowProblem | null {
  if (from % MINUTE_MS !== 0) return { field: 'ValidFrom', key: 'accessControl.error.passWholeMinute' };
  if (to % MINUTE_MS !== 0) return { field: 'ValidTo', key: 'accessControl.error.passWholeMinute' };
  if (from < now - VISITOR_PASS_PAST_GRACE_MS)
    return { field: 'ValidFrom', key: 'accessControl.error.passInPast' };
  if (to <= from) return { field: 'ValidTo', key: 'validation.endBeforeStart' };
  if (to - from > VISITOR_PASS_MAX_DAYS * DAY_MS)
    return {
      field: 'ValidTo',
      key: 'accessControl.error.passTooLong',
      params: { days: VISITOR_PASS_MAX_DAYS },
    };
  return null;
}

/** A minute of an area's wall clock: its local date and the minute of that day (0..1439). */
export interface LocalMinute {
  /** YYYY-MM-DD */
  date: string;
  minute: number;
}

/** One time profile of a pass's chain: a date range (every weekday) with one segment, ends included. */
export interface PassProfilePart {
  StartDate: string;
  EndDate: string;
  /** HH:mm */
  Start: string;
  End: string;
}

const LAST_MINUTE = 24 * 60 - 1;

function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The time profiles that let a pass in from its first minute to its last (both included, the area's wall clock),
 * linked first to last: the first day from its start, the whole days between, the last day up to its end. Null
 * when the pass runs whole days, which the card's dates on the controller say alone. A part that would be the
 * single minute 00:00 is left out: a controller reads the segment 00:00–00:00 as none.
 */
export function passProfileParts(first: LocalMinute, last: LocalMinute): PassProfilePart[] | null {
  if (first.minute === 0 && last.minute === LAST_MINUTE) return null;
  const part = (from: string, to: string, start: number, end: number): PassProfilePart => ({
    StartDate: from,
    EndDate: to,
    Start: hhmm(start),
    End: hhmm(end),
  });
  if (first.date === last.date) return [part(first.date, first.date, first.minute, last.minute)];
  const parts: PassProfilePart[] = [];
  let wholeFrom = first.date;
  if (first.minute !== 0) {
    parts.push(part(first.date, first.date, first.minute, LAST_MINUTE));
    wholeFrom = shiftDate(first.date, 1);
  }
  const wholeTo = last.minute === LAST_MINUTE ? last.date : shiftDate(last.date, -1);
  if (wholeFrom <= wholeTo) parts.push(part(wholeFrom, wholeTo, 0, LAST_MINUTE));
  if (last.minute !== LAST_MINUTE && last.minute !== 0)
    parts.push(part(last.date, last.date, 0, last.minute));
  return parts;
}

/** The key of a pass window's profiles (shared by the passes of the same window in an area). */
export function passWindowKey(first: LocalMinute, last: LocalMinute): string {
  return `${first.date} ${hhmm(first.minute)}/${last.date} ${hhmm(last.minute)}`;
}
