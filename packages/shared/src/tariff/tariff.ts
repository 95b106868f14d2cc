import type { chargeType, temporaryChargeType, timeUnit } from '../enums/garage.ts';
import type { EnumValueOf } from '../enums/define.ts';

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
  /** Most an order can cost, in cents; null for no cap. */
  CapCents: number | null;
}

/** A parking stay or a charging session as measured. */
export interface Usage {
  /** Epoch milliseconds. */
  StartAt: number;
  /** Epoch milliseconds, not before StartAt. */
  EndAt: number;
  /** Energy drawn, in Wh (needed by metered tariffs only). */
  EnergyWh?: number | null;
}

/** Why an order costs nothing although the tariff has a price. */
export type FreeBasis = 'grace' | 'pass';

export interface Price {
  /** Whole minutes of the stay (seconds are dropped): what the order shows and the grace period compares. */
  DurationMinutes: number;
  /** What was counted: started hours, Wh or uses (0 when free). */
  Quantity: number;
  QuantityUnit: 'hour' | 'Wh' | 'use' | null;
  /** Price before the cap. */
  GrossCents: number;
  /** What the order costs. */
  AmountCents: number;
  Capped: boolean;
  Free: FreeBasis | null;
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

function assertTariff(t: Tariff): void {
  assertCount('UnitPriceCents', t.UnitPriceCents);
  assertCount('FreeMinutes', t.FreeMinutes);
  if (t.CapCents !== null) assertCount('CapCents', t.CapCents);
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

function free(minutes: number, basis: FreeBasis, unit: Price['QuantityUnit']): Price {
  return {
    DurationMinutes: minutes,
    Quantity: 0,
    QuantityUnit: unit,
    GrossCents: 0,
    AmountCents: 0,
    Capped: false,
    Free: basis,
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
 * 4. Timed: every started hour is a full hour (61 minutes are 2 hours). Metered: Wh × price per kWh / 1000,
 *    rounded half up to the cent. Per use: one unit price.
 * 5. The cap, when set, limits the amount.
 */
export function priceSession(tariff: Tariff, usage: Usage): Price {
  assertTariff(tariff);
  const minutes = durationMinutes(usage.StartAt, usage.EndAt);
  const kind = tariff.TemporaryChargeType;
  const unit: Price['QuantityUnit'] = kind === 1 ? 'hour' : kind === 2 ? 'Wh' : kind === 3 ? 'use' : null;
  if (isMonthlyChargeType(tariff.ChargeType)) return free(minutes, 'pass', null);
  if (kind === 2) assertCount('EnergyWh', usage.EnergyWh);
  if (minutes <= tariff.FreeMinutes) return free(minutes, 'grace', unit);

  let quantity: number;
  let gross: number;
  if (kind === 1) {
    quantity = Math.ceil(minutes / HOUR_MINUTES);
    gross = quantity * tariff.UnitPriceCents;
  } else if (kind === 2) {
    quantity = usage.EnergyWh!;
    gross = Math.floor((quantity * tariff.UnitPriceCents + WH_PER_KWH / 2) / WH_PER_KWH);
  } else {
    quantity = 1;
    gross = tariff.UnitPriceCents;
  }
  if (!Number.isSafeInteger(gross)) throw new RangeError('the price exceeds the safe integer range');
  const capped = tariff.CapCents !== null && gross > tariff.CapCents;
  return {
    DurationMinutes: minutes,
    Quantity: quantity,
    QuantityUnit: unit,
    GrossCents: gross,
    AmountCents: capped ? tariff.CapCents! : gross,
    Capped: capped,
    Free: null,
  };
}

/**
 * The live estimate of a session still running: the same pricing as the final order, as if it ended now
 * with the energy measured so far. A clock behind the start reads as a zero-length session.
 */
export function estimateSession(
  tariff: Tariff,
  running: { StartAt: number; EnergyWh?: number | null },
  now: number,
): Price {
  return priceSession(tariff, { ...running, EndAt: Math.max(now, running.StartAt) });
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
