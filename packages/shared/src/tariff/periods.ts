import { utcOffsetMs } from './calendar.ts';
import type { MeterSample, TimeOfDayPeriod } from './tariff.ts';

/**
 * Time-of-day periods of a metered charging tariff: which period each Wh of a session falls in, read on the
 * wall clock of the area's time zone. docs/garage.md ("Tariff dimensions") states the rules.
 */

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
const DAY_MS = DAY_MINUTES * MINUTE_MS;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Energy outside every period: priced at the rule's UnitPriceCents per kWh. */
export const OUTSIDE_PERIODS = -1;

/** A part of the day one period covers, in minutes of the local day: [From, To). */
interface DaySpan {
  from: number;
  to: number;
  period: number;
}

function minutesOfDay(text: unknown, name: string): number {
  const match = typeof text === 'string' ? HH_MM.exec(text) : null;
  if (!match) throw new RangeError(`${name} must be a time "HH:mm" (00:00 to 23:59), got ${String(text)}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Is this a time of day as periods write it: "HH:mm", 00:00 to 23:59? */
export function isTimeOfDay(text: unknown): text is string {
  return typeof text === 'string' && HH_MM.test(text);
}

/** The spans of periods already known well-formed, sorted by their start in the day. */
function daySpans(periods: readonly TimeOfDayPeriod[]): DaySpan[] {
  const spans: DaySpan[] = [];
  periods.forEach((p, period) => {
    const from = minutesOfDay(p.From, `TimeOfDay[${period}].From`);
    const to = minutesOfDay(p.To, `TimeOfDay[${period}].To`);
    if (from < to) spans.push({ from, to, period });
    else if (from === to) spans.push({ from: 0, to: DAY_MINUTES, period });
    else {
      spans.push({ from, to: DAY_MINUTES, period });
      if (to > 0) spans.push({ from: 0, to, period });
    }
  });
  return spans.sort((a, b) => a.from - b.from || a.period - b.period);
}

/**
 * The first two periods that overlap, as their indexes (the earlier in the list first), or null. Periods must
 * have well-formed times ("HH:mm"); a rule form and the server name the pair with this.
 */
export function overlappingPeriods(periods: readonly TimeOfDayPeriod[]): [number, number] | null {
  const spans = daySpans(periods);
  for (let i = 1; i < spans.length; i++) {
    const [a, b] = [spans[i - 1]!, spans[i]!];
    if (b.from < a.to) return a.period < b.period ? [a.period, b.period] : [b.period, a.period];
  }
  return null;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The stretches of the day no period covers, as "HH:mm" [From, To) (a stretch across midnight is one), for a
 * rule form to say what costs the unit price; periods must have well-formed times.
 */
export function uncoveredTimes(periods: readonly TimeOfDayPeriod[]): { From: string; To: string }[] {
  const gaps: { from: number; to: number }[] = [];
  let at = 0;
  for (const span of daySpans(periods)) {
    if (span.from > at) gaps.push({ from: at, to: span.from });
    at = Math.max(at, span.to);
  }
  if (at < DAY_MINUTES) gaps.push({ from: at, to: DAY_MINUTES });
  // A gap up to midnight and one from it are one stretch of the wall clock.
  if (gaps.length > 1 && gaps[0]!.from === 0 && gaps[gaps.length - 1]!.to === DAY_MINUTES) {
    const first = gaps.shift()!;
    gaps[gaps.length - 1]!.to = DAY_MINUTES + first.to;
  }
  return gaps.map((g) => ({ From: hhmm(g.from), To: hhmm(g.to) }));
}

/**
 * The day spans of the periods, checked: each From and To a well-formed "HH:mm", a price in whole cents, no two
 * periods overlapping. From before To is one span; From after To crosses midnight (two spans); From equal to
 * To is the whole day. Time no period covers is allowed (it costs the rule's unit price).
 */
export function timeOfDaySpans(periods: readonly TimeOfDayPeriod[]): DaySpan[] {
  if (!Array.isArray(periods) || periods.length === 0)
    throw new RangeError('TimeOfDay must list at least one period (or be null)');
  periods.forEach((p, period) => {
    const price = p.PriceCentsPerKWh;
    if (typeof price !== 'number' || !Number.isSafeInteger(price) || price < 0)
      throw new RangeError(
        `TimeOfDay[${period}].PriceCentsPerKWh must be a non-negative integer, got ${String(price)}`,
      );
  });
  const spans = daySpans(periods);
  const overlap = overlappingPeriods(periods);
  if (overlap)
    throw new RangeError(
      `TimeOfDay[${overlap[0]}] and TimeOfDay[${overlap[1]}] overlap: a Wh must find one price`,
    );
  return spans;
}

/** The period a moment of the local day (ms since local midnight) falls in, and when that stretch ends. */
function stretchAt(spans: readonly DaySpan[], msOfDay: number): { period: number; endMs: number } {
  let endMs = DAY_MS;
  for (const s of spans) {
    if (msOfDay < s.from * MINUTE_MS) {
      endMs = s.from * MINUTE_MS;
      break;
    }
    if (msOfDay < s.to * MINUTE_MS) return { period: s.period, endMs: s.to * MINUTE_MS };
  }
  return { period: OUTSIDE_PERIODS, endMs };
}

/** The first instant in (from, to] whose offset differs from `offset` (there is one: the caller checked). */
function offsetChange(from: number, to: number, offset: number, zone: string): number {
  let lo = from;
  let hi = to;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (utcOffsetMs(mid, zone) === offset) lo = mid;
    else hi = mid;
  }
  return hi;
}

export interface PeriodPiece {
  period: number;
  from: number;
  to: number;
}

/**
 * Cuts [from, to) (epoch ms) where the local wall clock enters another period. The wall clock is the instant
 * plus the zone's offset; where the offset changes (a zone moving to another offset, or a daylight-saving
 * change) the walk restarts from the new wall time, so a skipped or repeated wall time is priced as the
 * clock on the wall reads it.
 */
export function periodPieces(
  spans: readonly DaySpan[],
  from: number,
  to: number,
  zone: string,
): PeriodPiece[] {
  const pieces: PeriodPiece[] = [];
  let t = from;
  while (t < to) {
    const offset = utcOffsetMs(t, zone);
    const wall = t + offset;
    const dayStart = Math.floor(wall / DAY_MS) * DAY_MS;
    const stretch = stretchAt(spans, wall - dayStart);
    let end = Math.min(dayStart + stretch.endMs - offset, to);
    if (utcOffsetMs(end - 1, zone) !== offset) end = offsetChange(t, end - 1, offset, zone);
    const last = pieces[pieces.length - 1];
    if (last && last.period === stretch.period && last.to === t) last.to = end;
    else pieces.push({ period: stretch.period, from: t, to: end });
    t = end;
  }
  return pieces;
}

/**
 * The Wh of a session in each period (OUTSIDE_PERIODS for time no period covers). Between two samples the
 * power is taken as constant; at a period boundary inside such an interval the register is interpolated
 * linearly and rounded down to the Wh, and each piece gets the difference of the register at its ends, so
 * the pieces are whole Wh and add up exactly to the samples' energy.
 */
export function energyByPeriod(
  spans: readonly DaySpan[],
  samples: readonly MeterSample[],
  zone: string,
): Map<number, number> {
  const byPeriod = new Map<number, number>();
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const wh = b.EnergyWh - a.EnergyWh;
    if (wh === 0) continue;
    const span = BigInt(b.At - a.At);
    const registerAt = (t: number) => Number((BigInt(wh) * BigInt(t - a.At)) / span);
    for (const piece of periodPieces(spans, a.At, b.At, zone)) {
      const part = registerAt(piece.to) - registerAt(piece.from);
      byPeriod.set(piece.period, (byPeriod.get(piece.period) ?? 0) + part);
    }
  }
  return byPeriod;
}
