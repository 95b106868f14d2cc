import type { chargeType, temporaryChargeType, timeUnit } from '../enums/garage.ts';
import type { EnumValueOf } from '../enums/define.ts';
import { DEFAULT_SITE_TIME_ZONE, isTimeZone } from './calendar.ts';
import { assertDigest, digestEnergyWh, digestOf, type MeterDigest } from './digest.ts';
import { assertPowerBands, assertSamples, bandIndexFor } from './meter.ts';
import { OUTSIDE_PERIODS, timeOfDaySpans } from './periods.ts';

export type ChargeTypeValue = EnumValueOf<typeof chargeType>;
export type TemporaryChargeTypeValue = EnumValueOf<typeof temporaryChargeType>;
export type TimeUnitValue = EnumValueOf<typeof timeUnit>;

/**
 * The pricing terms of a charge rule. A rule row has these columns, and every order copies them when its
 * session starts, so a later edit of the rule never reprices a session already running or settled.
 */
export interface Tariff {
  /** chargeType: 0 temporary parking, 1 monthly parking, 2 monthly parking with charging, 3 temporary charging. */
  ChargeType: ChargeTypeValue;
  /** temporaryChargeType (temporary types only): 1 per started hour, 2 per kWh, 3 per use; 0 for monthly types. */
  TemporaryChargeType: TemporaryChargeTypeValue;
  /** Price of one unit in cents: an hour, a kWh or a use; for monthly types one TimeUnit of the pass. */
  UnitPriceCents: number;
  /** timeUnit of a monthly pass (monthly types only). */
  TimeUnit: TimeUnitValue | null;
  /** Grace period: a stay or session of at most this many whole minutes costs nothing. */
  FreeMinutes: number;
  /** Most an order can cost, in cents, every line included; null for no cap. */
  CapCents: number | null;
  /*
   * The tariff dimensions below are optional: a rule without them (absent or null) prices exactly as before
   * they existed. docs/garage.md ("Tariff dimensions") states their rules with a worked bill.
   */
  /**
   * Temporary charging only, timed or metered: a price per started hour chosen by the session's sustained
   * power (meter.ts). On a timed rule the band's price replaces UnitPriceCents; on a metered rule it is
   * charged per started hour on top of the energy.
   */
  PowerBands?: readonly PowerBand[] | null;
  /**
   * Temporary metered charging only: prices per kWh by the local time of day (area time zone) the energy was
   * drawn in, from the meter samples. Energy outside every period costs UnitPriceCents per kWh.
   */
  TimeOfDay?: readonly TimeOfDayPeriod[] | null;
  /** Temporary charging only: cents per hour (prorated by whole minutes) the plug stays in once full. */
  IdleFeeCentsPerHour?: number | null;
  /** Whole minutes after the battery is full before the idle fee starts (null: 0). */
  IdleGraceMinutes?: number | null;
  /** Temporary types: a fixed fee once per order that is billed (not within the grace period). */
  ServiceFeeCents?: number | null;
}

/** A power band: sustained power up to and including UpToW costs PriceCents per started hour. */
export interface PowerBand {
  UpToW: number;
  PriceCents: number;
}

/** A time-of-day period, local wall clock [From, To); From after To crosses midnight, From = To is all day. */
export interface TimeOfDayPeriod {
  From: string;
  To: string;
  PriceCentsPerKWh: number;
}

/** A meter reading: the energy register (Wh, never going down) at an instant (epoch ms). */
export interface MeterSample {
  At: number;
  EnergyWh: number;
}

/** A parking stay or a charging session as measured. */
export interface Usage {
  /** Epoch milliseconds. */
  StartAt: number;
  /** Epoch milliseconds, not before StartAt. */
  EndAt: number;
  /**
   * Energy drawn, in Wh (needed by metered tariffs only). With Samples it may be left out; when both are
   * given they must agree (last register reading minus the first).
   */
  EnergyWh?: number | null;
  /** Meter readings, ascending, inside the session; the first is the register at the start of measuring. */
  Samples?: readonly MeterSample[] | null;
  /**
   * The same readings already folded (digest.ts), as a server stores them for a running session: instead of
   * Samples, never with them. Folded against this tariff's TimeOfDay and TimeZone.
   */
  Meter?: MeterDigest | null;
  /** When the battery became full (epoch ms, inside the session): the idle fee counts from here. */
  FullAt?: number | null;
  /** IANA zone of the area, for time-of-day periods; null: DEFAULT_SITE_TIME_ZONE. */
  TimeZone?: string | null;
}

/** Why an order costs nothing although the tariff has a price. */
export type FreeBasis = 'grace' | 'pass';

export type PriceLineKind = 'time' | 'band' | 'energy' | 'period' | 'use' | 'service' | 'idle' | 'cap';

/**
 * One line of an itemised order. AmountCents is Quantity × UnitPriceCents per PriceUnit, rounded half up to
 * the cent on the line (Wh are priced per kWh, minutes per hour); the cap line is negative. The lines of a
 * price always add up to its AmountCents.
 */
export interface PriceLine {
  Kind: PriceLineKind;
  /** Catalogue key (garage namespace) naming the line, with its placeholders in LabelParams. */
  LabelKey: string;
  LabelParams: Readonly<Record<string, string | number>>;
  Quantity: number;
  QuantityUnit: 'hour' | 'Wh' | 'use' | 'minute' | null;
  UnitPriceCents: number;
  PriceUnit: 'hour' | 'kWh' | 'use' | null;
  AmountCents: number;
}

export interface Price {
  /** Whole minutes of the stay (seconds are dropped): what the order shows and the grace period compares. */
  DurationMinutes: number;
  /** What was counted: started hours, Wh or uses (0 when free). */
  Quantity: number;
  QuantityUnit: 'hour' | 'Wh' | 'use' | null;
  /** Price before the cap: the sum of the lines other than the cap line. */
  GrossCents: number;
  /** What the order costs: the sum of the lines. */
  AmountCents: number;
  Capped: boolean;
  Free: FreeBasis | null;
  /** The itemised order; none when free. */
  Lines: PriceLine[];
}

export const MINUTE_MS = 60_000;
export const HOUR_MINUTES = 60;
const WH_PER_KWH = 1000;

/** Monthly types are paid for by the pass; stays and sessions under them cost nothing. */
export function isMonthlyChargeType(type: number): type is 1 | 2 {
  return type === 1 || type === 2;
}

function assertCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}

function given<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/** The optional dimensions: each checked, and each only where it means something. */
function assertDimensions(t: Tariff): void {
  const charging = t.ChargeType === 3;
  if (given(t.PowerBands)) {
    if (!charging || (t.TemporaryChargeType !== 1 && t.TemporaryChargeType !== 2))
      throw new RangeError('PowerBands price temporary charging by the hour or by the kWh only');
    assertPowerBands(t.PowerBands);
  }
  if (given(t.TimeOfDay)) {
    if (!charging || t.TemporaryChargeType !== 2)
      throw new RangeError('TimeOfDay prices metered temporary charging only');
    timeOfDaySpans(t.TimeOfDay);
  }
  if (given(t.IdleFeeCentsPerHour) || given(t.IdleGraceMinutes)) {
    if (!charging) throw new RangeError('an idle fee applies to temporary charging only');
    if (given(t.IdleFeeCentsPerHour)) assertCount('IdleFeeCentsPerHour', t.IdleFeeCentsPerHour);
    if (given(t.IdleGraceMinutes)) assertCount('IdleGraceMinutes', t.IdleGraceMinutes);
  }
  if (given(t.ServiceFeeCents)) {
    if (isMonthlyChargeType(t.ChargeType)) throw new RangeError('a monthly pass has no service fee');
    assertCount('ServiceFeeCents', t.ServiceFeeCents);
  }
}

function assertTariff(t: Tariff): void {
  assertCount('UnitPriceCents', t.UnitPriceCents);
  assertCount('FreeMinutes', t.FreeMinutes);
  if (t.CapCents !== null) assertCount('CapCents', t.CapCents);
  assertDimensions(t);
  if (isMonthlyChargeType(t.ChargeType)) return;
  if (t.ChargeType !== 0 && t.ChargeType !== 3)
    throw new RangeError(`unknown ChargeType ${String(t.ChargeType)}`);
  if (t.TemporaryChargeType === 0) throw new RangeError('a temporary tariff needs a TemporaryChargeType');
  if (t.ChargeType === 0 && t.TemporaryChargeType === 2)
    throw new RangeError('parking is not metered: temporary parking is timed or per use');
  if (![1, 2, 3].includes(t.TemporaryChargeType))
    throw new RangeError(`unknown TemporaryChargeType ${String(t.TemporaryChargeType)}`);
}

/** Whole minutes between two instants (seconds dropped); throws when the end is before the start. */
export function durationMinutes(startAt: number, endAt: number): number {
  assertCount('StartAt', startAt);
  assertCount('EndAt', endAt);
  if (endAt < startAt) throw new RangeError('EndAt is before StartAt');
  return Math.floor((endAt - startAt) / MINUTE_MS);
}

/** What the engine reads from a usage besides its duration, checked. */
interface Meter {
  /** Wh drawn: EnergyWh, else the samples' energy when there are samples, else null. */
  energyWh: number | null;
  /** The readings folded (from Samples or as given), or null without any. */
  digest: MeterDigest | null;
  fullAt: number | null;
  zone: string;
}

/**
 * The usage's readings as a digest: Samples are checked and folded here (so a list and a stored digest of the
 * same readings price alike), a given digest is checked against the session and the tariff's periods.
 */
function readDigest(tariff: Tariff, usage: Usage, zone: string): MeterDigest | null {
  const samples = usage.Samples ?? [];
  const periods = given(tariff.TimeOfDay) ? tariff.TimeOfDay : null;
  if (given(usage.Meter)) {
    if (samples.length > 0) throw new RangeError('give the readings as Samples or as Meter, not both');
    assertDigest(usage.Meter, usage.StartAt, usage.EndAt, periods);
    return usage.Meter;
  }
  assertSamples(samples, usage.StartAt, usage.EndAt);
  return samples.length > 0 ? digestOf(samples, { TimeOfDay: periods, TimeZone: zone }) : null;
}

function readMeter(tariff: Tariff, usage: Usage): Meter {
  const zone = usage.TimeZone ?? DEFAULT_SITE_TIME_ZONE;
  if (!isTimeZone(zone)) throw new RangeError(`unknown time zone ${String(zone)}`);
  const digest = readDigest(tariff, usage, zone);
  let energyWh = usage.EnergyWh ?? null;
  if (digest) {
    const measured = digestEnergyWh(digest);
    if (energyWh !== null) {
      assertCount('EnergyWh', energyWh);
      if (energyWh !== measured)
        throw new RangeError(`EnergyWh ${energyWh} disagrees with the samples (${measured} Wh)`);
    }
    energyWh = measured;
  }
  const fullAt = usage.FullAt ?? null;
  if (fullAt !== null) {
    assertCount('FullAt', fullAt);
    if (fullAt < usage.StartAt || fullAt > usage.EndAt)
      throw new RangeError('FullAt is outside the session (StartAt to EndAt)');
  }
  return { energyWh, digest, fullAt, zone };
}

/** quantity × price / per, rounded half up to the cent (per: 1000 Wh in a kWh, 60 minutes in an hour). */
function halfUp(quantity: number, price: number, per: number): number {
  return Math.floor((quantity * price + per / 2) / per);
}

function line(
  Kind: PriceLineKind,
  Quantity: number,
  QuantityUnit: PriceLine['QuantityUnit'],
  UnitPriceCents: number,
  PriceUnit: PriceLine['PriceUnit'],
  AmountCents: number,
  LabelParams: PriceLine['LabelParams'] = {},
): PriceLine {
  return {
    Kind,
    LabelKey: `garage.priceLine.${Kind}`,
    LabelParams,
    Quantity,
    QuantityUnit,
    UnitPriceCents,
    PriceUnit,
    AmountCents,
  };
}

/** The started hours at the band of the session's sustained power. */
function bandLine(bands: readonly PowerBand[], hours: number, meter: Meter): PriceLine {
  const sustainedW = meter.digest?.SustainedW ?? 0;
  const index = bandIndexFor(bands, sustainedW);
  const band = bands[index]!;
  return line('band', hours, 'hour', band.PriceCents, 'hour', hours * band.PriceCents, {
    Band: index + 1,
    FromW: index === 0 ? 0 : bands[index - 1]!.UpToW,
    UpToW: band.UpToW,
    SustainedW: sustainedW,
  });
}

/** The energy of a metered session: one line, or with time-of-day periods a line per period drawn in. */
function energyLines(tariff: Tariff, meter: Meter): PriceLine[] {
  const wh = meter.energyWh!;
  const price = tariff.UnitPriceCents;
  if (!given(tariff.TimeOfDay))
    return [line('energy', wh, 'Wh', price, 'kWh', halfUp(wh, price, WH_PER_KWH))];
  if (wh > 0 && (meter.digest?.Count ?? 0) < 2)
    throw new RangeError('a time-of-day tariff needs the meter samples to place the energy in the day');
  const byPeriod = new Map(meter.digest?.PeriodWh ?? []);
  const lines: PriceLine[] = [];
  tariff.TimeOfDay.forEach((p, index) => {
    const part = byPeriod.get(index) ?? 0;
    if (part > 0) {
      const amount = halfUp(part, p.PriceCentsPerKWh, WH_PER_KWH);
      lines.push(line('period', part, 'Wh', p.PriceCentsPerKWh, 'kWh', amount, { From: p.From, To: p.To }));
    }
  });
  const outside = byPeriod.get(OUTSIDE_PERIODS) ?? 0;
  if (outside > 0)
    lines.push(line('energy', outside, 'Wh', price, 'kWh', halfUp(outside, price, WH_PER_KWH)));
  return lines;
}

/** What the rule's own price charges: the time, the energy or the use (and the power band). */
function chargeLines(tariff: Tariff, minutes: number, meter: Meter): PriceLine[] {
  const price = tariff.UnitPriceCents;
  const hours = Math.ceil(minutes / HOUR_MINUTES);
  const bands = tariff.PowerBands ?? null;
  switch (tariff.TemporaryChargeType) {
    case 1:
      return [
        bands ? bandLine(bands, hours, meter) : line('time', hours, 'hour', price, 'hour', hours * price),
      ];
    case 2:
      return [...energyLines(tariff, meter), ...(bands ? [bandLine(bands, hours, meter)] : [])];
    default:
      return [line('use', 1, 'use', price, 'use', price)];
  }
}

/** The idle fee: whole minutes the plug stayed in after the battery was full, beyond the idle grace. */
function idleLines(tariff: Tariff, endAt: number, fullAt: number | null): PriceLine[] {
  const fee = tariff.IdleFeeCentsPerHour ?? 0;
  if (fee === 0 || fullAt === null) return [];
  const grace = tariff.IdleGraceMinutes ?? 0;
  const minutes = Math.floor((endAt - fullAt) / MINUTE_MS) - grace;
  if (minutes <= 0) return [];
  return [
    line('idle', minutes, 'minute', fee, 'hour', halfUp(minutes, fee, HOUR_MINUTES), { GraceMinutes: grace }),
  ];
}

function free(minutes: number, basis: FreeBasis, unit: Price['QuantityUnit']): Price {
  return {
    DurationMinutes: minutes,
    Quantity: 0,
    QuantityUnit: unit,
    GrossCents: 0,
    AmountCents: 0,
    Capped: false,
    Free: basis,
    Lines: [],
  };
}

/**
 * Prices a parking stay or a charging session under a tariff: the one function behind every live estimate
 * and every final order price. Integer cents throughout. docs/garage.md states the rules with examples:
 *
 * 1. The duration counts whole minutes (seconds are dropped), by elapsed time: midnight, a month end or a
 *    time-zone change mean nothing to it.
 * 2. Monthly types cost nothing here (the pass was paid when sold).
 * 3. Grace: at most FreeMinutes whole minutes is free (so is any stay under one minute, and a zero-length one);
 *    beyond that the whole duration is billed.
 * 4. Timed: every started hour is a full hour (61 minutes are 2 hours), at the unit price or at the power
 *    band's price. Metered: Wh × price per kWh / 1000, rounded half up to the cent, per time-of-day period
 *    when the rule has periods (plus the band per started hour when it has bands). Per use: one unit price.
 * 5. The service fee once, the idle fee by the minute after the battery was full and the idle grace.
 * 6. Each line is rounded on its own; the gross is the sum of the lines. The cap, when set, limits the
 *    amount, shown as a negative last line, so the lines always add up to the amount.
 */
export function priceSession(tariff: Tariff, usage: Usage): Price {
  assertTariff(tariff);
  const minutes = durationMinutes(usage.StartAt, usage.EndAt);
  const meter = readMeter(tariff, usage);
  const kind = tariff.TemporaryChargeType;
  const unit: Price['QuantityUnit'] = kind === 1 ? 'hour' : kind === 2 ? 'Wh' : kind === 3 ? 'use' : null;
  if (isMonthlyChargeType(tariff.ChargeType)) return free(minutes, 'pass', null);
  if (kind === 2) assertCount('EnergyWh', meter.energyWh);
  if (minutes <= tariff.FreeMinutes) return free(minutes, 'grace', unit);

  const service = tariff.ServiceFeeCents ?? 0;
  const lines = [
    ...chargeLines(tariff, minutes, meter),
    ...(service > 0 ? [line('service', 1, null, service, null, service)] : []),
    ...idleLines(tariff, usage.EndAt, meter.fullAt),
  ];
  const gross = lines.reduce((sum, l) => sum + l.AmountCents, 0);
  if (!Number.isSafeInteger(gross) || lines.some((l) => !Number.isSafeInteger(l.AmountCents)))
    throw new RangeError('the price exceeds the safe integer range');
  const capped = tariff.CapCents !== null && gross > tariff.CapCents;
  if (capped) {
    const cut = tariff.CapCents! - gross;
    lines.push(line('cap', 1, null, cut, null, cut, { CapCents: tariff.CapCents! }));
  }
  return {
    DurationMinutes: minutes,
    Quantity: kind === 1 ? Math.ceil(minutes / HOUR_MINUTES) : kind === 2 ? meter.energyWh! : 1,
    QuantityUnit: unit,
    GrossCents: gross,
    AmountCents: capped ? tariff.CapCents! : gross,
    Capped: capped,
    Free: null,
    Lines: lines,
  };
}

/**
 * The live estimate of a session still running: the same pricing as the final order, as if it ended now
 * with the meter read so far. A clock behind the start reads as a zero-length session; a clock behind the
 * last reading (or the instant the battery became full) as a session ending there.
 */
export function estimateSession(tariff: Tariff, running: Omit<Usage, 'EndAt'>, now: number): Price {
  const samples = running.Samples ?? [];
  const lastReadAt =
    samples.length > 0 ? samples[samples.length - 1]!.At : (running.Meter?.Last.At ?? running.StartAt);
  const endAt = Math.max(now, running.StartAt, lastReadAt, running.FullAt ?? running.StartAt);
  return priceSession(tariff, { ...running, EndAt: endAt });
}

/** Maximum number of time units one monthly pass may be sold for. */
export const MAX_PASS_UNITS = 1000;

/** The price of a monthly pass of `units` time units: the unit price times the units (no grace, no cap). */
export function pricePass(tariff: Tariff, units: number): number {
  assertTariff(tariff);
  if (!isMonthlyChargeType(tariff.ChargeType)) throw new RangeError('only monthly types sell passes');
  if (!Number.isSafeInteger(units) || units < 1 || units > MAX_PASS_UNITS)
    throw new RangeError(`units must be 1 to ${MAX_PASS_UNITS}`);
  return tariff.UnitPriceCents * units;
}
