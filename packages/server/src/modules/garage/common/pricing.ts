import {
  durationMinutes,
  estimateSession,
  priceSession,
  type MeterDigest,
  type PowerBand,
  type PriceLine,
  type Tariff,
  type TimeOfDayPeriod,
  type Usage,
} from '@gatehouse/shared';
import type { TariffColumns, TariffDimensionColumns } from '../tables.ts';

/** A JSON column read back (lists of the tariff dimensions, an order's lines, a session's meter digest). */
function parsed<T>(text: string | null | undefined): T | null {
  return text ? (JSON.parse(text) as T) : null;
}

/** The tariff dimensions of a rule or order row as its item shows them (the lists parsed); null: not used. */
export function dimensionsOf(row: Partial<TariffDimensionColumns>) {
  return {
    PowerBands: parsed<PowerBand[]>(row.PowerBands),
    TimeOfDay: parsed<TimeOfDayPeriod[]>(row.TimeOfDay),
    IdleFeeCentsPerHour: row.IdleFeeCentsPerHour ?? null,
    IdleGraceMinutes: row.IdleGraceMinutes ?? null,
    ServiceFeeCents: row.ServiceFeeCents ?? null,
  };
}

/** The dimension columns of checked terms: an empty list is no list, the lists JSON. */
export function dimensionColumns(t: Tariff): TariffDimensionColumns {
  const list = (items: readonly unknown[] | null | undefined) =>
    items?.length ? JSON.stringify(items) : null;
  return {
    PowerBands: list(t.PowerBands),
    TimeOfDay: list(t.TimeOfDay),
    IdleFeeCentsPerHour: t.IdleFeeCentsPerHour ?? null,
    IdleGraceMinutes: t.IdleGraceMinutes ?? null,
    ServiceFeeCents: t.ServiceFeeCents ?? null,
  };
}

/**
 * The terms an order copied from its rule, as the shared tariff engine takes them. A parking order has no
 * dimension columns: its dimensions are none.
 */
export function tariffOf(row: TariffColumns & Partial<TariffDimensionColumns>): Tariff {
  return {
    ChargeType: row.ChargeType,
    TemporaryChargeType: row.TemporaryChargeType,
    UnitPriceCents: row.UnitPriceCents,
    TimeUnit: row.TimeUnit,
    FreeMinutes: row.FreeMinutes,
    CapCents: row.CapCents,
    ...dimensionsOf(row),
  } as Tariff;
}

/** A session or stay as the readers of an order have it: its times and, for a metered session, its meter. */
export interface OrderUsage {
  StartAt: number;
  EndAt: number | null;
  EnergyWh?: number | null;
  /** ChargeRecord.MeterDigest: the device's readings folded (JSON), null when no device metered it. */
  MeterDigest?: string | null;
  /** ChargeRecord.FullAt: since when the battery has been full. */
  FullAt?: number | null;
}

/**
 * The usage the engine prices, up to `endAt` (the estimate's now, or the session's end): with the meter's
 * digest its energy is the digest's (the register's, as the session's EnergyWh is); since when the battery
 * was full is taken inside the session.
 */
export function usageOf(usage: OrderUsage, endAt: number): Usage {
  const meter = parsed<MeterDigest>(usage.MeterDigest);
  const fullAt = usage.FullAt ?? null;
  return {
    StartAt: usage.StartAt,
    EndAt: endAt,
    ...(meter ? { Meter: meter } : { EnergyWh: usage.EnergyWh ?? null }),
    FullAt: fullAt === null ? null : Math.min(Math.max(fullAt, usage.StartAt), endAt),
  };
}

export interface OrderPricing {
  AmountCents: number;
  Estimated: boolean;
  DurationMinutes: number;
  /** The itemised order: stored at settlement, or the estimate's; null when it cannot be told (below). */
  Lines: PriceLine[] | null;
}

type PricedRow = TariffColumns &
  Partial<TariffDimensionColumns> & { AmountCents: number | null; PriceLines?: string | null };

/**
 * The lines of a settled order: those stored at settlement. An order settled before orders were itemised
 * (migration 0031), or seeded by the demo, has none stored: its lines are those of the same engine on the terms
 * it copied and its session, shown only when they give the amount it was settled at (else null: its price came
 * otherwise, and lines that add up to another amount would mislead).
 */
function settledLines(row: PricedRow, usage: OrderUsage, endAt: number): PriceLine[] | null {
  const stored = parsed<PriceLine[]>(row.PriceLines);
  if (stored) return stored;
  try {
    const price = priceSession(tariffOf(row), usageOf(usage, endAt));
    return price.AmountCents === row.AmountCents ? price.Lines : null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * What an order shows as its amount and lines: the settled price and the lines stored with it, or while the
 * session or stay runs the live estimate from the same tariff function (the final price at settlement is this
 * same call with the end time).
 */
export function orderPricing(row: PricedRow, usage: OrderUsage, now: number, lines = true): OrderPricing {
  if (usage.EndAt !== null && row.AmountCents !== null) {
    return {
      AmountCents: row.AmountCents,
      Estimated: false,
      DurationMinutes: durationMinutes(usage.StartAt, usage.EndAt),
      Lines: lines ? settledLines(row, usage, usage.EndAt) : null,
    };
  }
  const running = usageOf(usage, usage.EndAt ?? now);
  const price = estimateSession(tariffOf(row), running, running.EndAt);
  return {
    AmountCents: price.AmountCents,
    Estimated: true,
    DurationMinutes: price.DurationMinutes,
    Lines: price.Lines,
  };
}

/** An order's amount without its lines (the lists that show no lines: parking orders, sessions, sockets). */
export function orderAmount(
  row: TariffColumns & Partial<TariffDimensionColumns> & { AmountCents: number | null },
  usage: OrderUsage,
  now: number,
): { AmountCents: number; Estimated: boolean; DurationMinutes: number } {
  const { Lines: _lines, ...amount } = orderPricing(row, usage, now, false);
  return amount;
}
