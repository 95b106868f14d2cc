import { SUSTAINED_POWER_WINDOW_MS, assertSamples, meanPowerW } from './meter.ts';
import { OUTSIDE_PERIODS, energyByPeriod, timeOfDaySpans } from './periods.ts';
import type { MeterSample, TimeOfDayPeriod } from './tariff.ts';

/**
 * A session's meter readings folded one at a time into what the engine reads of them, in bounded space: a
 * running session's readings arrive for hours (one every 10 to 30 s), and a server stores this digest on the
 * session instead of every reading. Folding the same readings gives exactly what the engine computes from
 * the whole list (`priceSession` itself folds the samples it is given), so a live estimate from the stored
 * digest and the final price agree. docs/garage.md ("Tariff dimensions", "The stored meter") states it.
 *
 * Plain JSON (whole numbers, arrays): a server stores it as text.
 */
export interface MeterDigest {
  /** The first reading: the register when measuring started (OCPP's meterStart, at the session's start). */
  First: MeterSample;
  /** The newest reading folded in. */
  Last: MeterSample;
  /** Readings folded in, the first included. */
  Count: number;
  /** The sustained power of the readings so far (W): what `sustainedPowerW` gives for all of them. */
  SustainedW: number;
  /**
   * Readings a five-minute window may still start from (no run of five minutes from them is complete yet),
   * with the lowest interval power since each (W). Those older than five minutes have completed and left, so
   * this holds at most the readings of the last five minutes.
   */
  Open: { At: number; LowW: number }[];
  /**
   * Wh drawn in each time-of-day period, as [index in the tariff's TimeOfDay, Wh] (OUTSIDE_PERIODS, -1, for
   * time no period covers); empty when folded without periods.
   */
  PeriodWh: [number, number][];
}

/** What the digest is folded against: the periods of the session's tariff (if any), in the area's zone. */
export interface DigestTerms {
  TimeOfDay?: readonly TimeOfDayPeriod[] | null;
  TimeZone: string;
}

/** A digest of one reading: the register when measuring starts. */
export function startDigest(first: MeterSample): MeterDigest {
  assertSamples([first], first.At, first.At);
  return { First: { ...first }, Last: { ...first }, Count: 1, SustainedW: 0, Open: [], PeriodWh: [] };
}

/**
 * The digest with one more reading, strictly after the last one and with a register not below it (else a
 * RangeError: `placeReading` says where a reading as a device sends it goes). The digest given is not changed.
 *
 * Sustained power, as `sustainedPowerW` defines it over the whole list: the highest, over runs of consecutive
 * intervals spanning five minutes (the shortest such run from each reading), of the lowest interval power in
 * the run. Each reading opens a run; each new interval lowers the runs still open; a run whose lowest power is
 * no more than the best found can no longer raise it and is dropped; a run reaching five minutes sets the best
 * and is done. So the result is the list's, whatever order the runs completed in.
 */
export function foldReading(digest: MeterDigest, next: MeterSample, terms: DigestTerms): MeterDigest {
  const last = digest.Last;
  // Instants strictly after the last, a register not below it: the same check as a list of samples.
  assertSamples([last, next], last.At, next.At);
  const powerW = meanPowerW(last, next);
  let best = digest.SustainedW;
  const open: MeterDigest['Open'] = [];
  for (const run of [...digest.Open, { At: last.At, LowW: powerW }]) {
    const low = Math.min(run.LowW, powerW);
    if (low <= best) continue;
    if (next.At - run.At >= SUSTAINED_POWER_WINDOW_MS) best = low;
    else open.push({ At: run.At, LowW: low });
  }
  const periodWh = new Map(digest.PeriodWh);
  if (terms.TimeOfDay) {
    const byPeriod = energyByPeriod(timeOfDaySpans(terms.TimeOfDay), [last, next], terms.TimeZone);
    for (const [period, wh] of byPeriod) if (wh > 0) periodWh.set(period, (periodWh.get(period) ?? 0) + wh);
  }
  return {
    First: digest.First,
    Last: { ...next },
    Count: digest.Count + 1,
    SustainedW: best,
    Open: open,
    PeriodWh: [...periodWh].sort((a, b) => a[0] - b[0]),
  };
}

/** The digest of a whole list of readings (at least one), as folding them one by one gives it. */
export function digestOf(samples: readonly MeterSample[], terms: DigestTerms): MeterDigest {
  if (samples.length === 0) throw new RangeError('a meter digest needs at least one reading');
  return samples.slice(1).reduce((d, s) => foldReading(d, s, terms), startDigest(samples[0]!));
}

/**
 * Where a reading as a device reports it goes in the digest: its instant and register, or null when it adds
 * nothing. A register below the last one (a late reading, a retry) adds nothing, as does the same register
 * again at or before the last instant; a higher register dated at or before the last reading (the device's
 * clock went back) is placed one millisecond after it, so the energy is never lost and instants stay
 * strictly ascending.
 */
export function placeReading(digest: MeterDigest, at: number, registerWh: number): MeterSample | null {
  const last = digest.Last;
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(registerWh) || registerWh < 0)
    throw new RangeError('a reading needs a whole instant and a whole, non-negative register');
  if (registerWh < last.EnergyWh) return null;
  if (at > last.At) return { At: at, EnergyWh: registerWh };
  if (registerWh === last.EnergyWh) return null;
  return { At: last.At + 1, EnergyWh: registerWh };
}

/** Energy the digest measured, in Wh: the last register reading minus the first. */
export function digestEnergyWh(digest: MeterDigest): number {
  return digest.Last.EnergyWh - digest.First.EnergyWh;
}

function whole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Checks a digest read back from storage against its session (StartAt to EndAt) and the tariff's periods: its
 * readings inside the session in order, whole numbers, its period indexes the tariff's, and with periods every
 * Wh placed in one (a digest folded without the tariff's periods cannot price them).
 */
export function assertDigest(
  digest: MeterDigest,
  startAt: number,
  endAt: number,
  periods: readonly TimeOfDayPeriod[] | null,
): void {
  const d = digest as Partial<MeterDigest> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    !d.First ||
    !d.Last ||
    !Array.isArray(d.Open) ||
    !Array.isArray(d.PeriodWh)
  )
    throw new RangeError('Meter is not a meter digest');
  assertSamples(d.First.At === d.Last.At ? [d.First] : [d.First, d.Last], startAt, endAt);
  if (!whole(d.Count) || d.Count < 1 || (d.Count === 1) !== (d.First.At === d.Last.At))
    throw new RangeError('Meter.Count must count the readings folded');
  if (!whole(d.SustainedW)) throw new RangeError('Meter.SustainedW must be a non-negative integer');
  let placed = 0;
  for (const entry of d.PeriodWh) {
    const [period, wh] = Array.isArray(entry) ? entry : [];
    const known =
      period === OUTSIDE_PERIODS || (periods !== null && whole(period) && period < periods.length);
    if (!known || !whole(wh)) throw new RangeError('Meter.PeriodWh names a period the tariff does not have');
    placed += wh;
  }
  if (periods !== null && placed !== digestEnergyWh(d as MeterDigest))
    throw new RangeError("Meter was folded without the tariff's periods: its energy is not placed in them");
}
