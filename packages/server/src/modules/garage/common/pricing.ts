import { durationMinutes, estimateSession, type Tariff } from '@gatehouse/shared';
import type { TariffColumns } from '../tables.ts';

/** The terms an order copied from its rule, as the shared tariff engine takes them. */
export function tariffOf(row: TariffColumns): Tariff {
  return {
    ChargeType: row.ChargeType,
    TemporaryChargeType: row.TemporaryChargeType,
    UnitPriceCents: row.UnitPriceCents,
    TimeUnit: row.TimeUnit,
    FreeMinutes: row.FreeMinutes,
    CapCents: row.CapCents,
  } as Tariff;
}

/**
 * What an order shows as its amount: the settled price, or while the session or stay runs the live estimate
 * from the same tariff function (the final price at settlement is this same call with the end time).
 */
export function orderAmount(
  row: TariffColumns & { AmountCents: number | null },
  usage: { StartAt: number; EndAt: number | null; EnergyWh?: number | null },
  now: number,
): { AmountCents: number; Estimated: boolean; DurationMinutes: number } {
  if (usage.EndAt !== null && row.AmountCents !== null) {
    return {
      AmountCents: row.AmountCents,
      Estimated: false,
      DurationMinutes: durationMinutes(usage.StartAt, usage.EndAt),
    };
  }
  const price = estimateSession(tariffOf(row), usage, usage.EndAt ?? now);
  return { AmountCents: price.AmountCents, Estimated: true, DurationMinutes: price.DurationMinutes };
}
