import { isMonthlyChargeType, type Tariff } from './tariff.ts';

/** Largest unit price, cap and pass price a rule may carry: ¥100,000.00. */
export const MAX_PRICE_CENTS = 10_000_000;
/** Longest grace period: one day. */
export const MAX_FREE_MINUTES = 1440;

/** Which temporary charge types each temporary charge type allows (parking is never metered). */
export const TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE: Readonly<Record<number, readonly number[]>> = {
  0: [1, 3],
  1: [0],
  2: [0],
  3: [1, 2, 3],
};

export interface TermProblem {
  field: keyof Tariff;
  /** Catalogue key of the message (garage namespace). */
  key: string;
}

/**
 * What is wrong with a rule's terms for its charge type, field by field: the rule form shows the same
 * messages the server answers with. Temporary types need a temporary charge type fitting them and no time
 * unit; monthly types need a time unit and take no grace period, cap or temporary charge type.
 */
export function tariffProblems(t: Tariff): TermProblem[] {
  const problems: TermProblem[] = [];
  const allowed = TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE[t.ChargeType] ?? [];
  if (isMonthlyChargeType(t.ChargeType)) {
    if (t.TemporaryChargeType !== 0)
      problems.push({ field: 'TemporaryChargeType', key: 'garage.validation.monthlyHasNoTemporaryType' });
    if (t.TimeUnit === null) problems.push({ field: 'TimeUnit', key: 'garage.validation.timeUnitRequired' });
    if (t.FreeMinutes !== 0)
      problems.push({ field: 'FreeMinutes', key: 'garage.validation.monthlyHasNoFreeMinutes' });
    if (t.CapCents !== null) problems.push({ field: 'CapCents', key: 'garage.validation.monthlyHasNoCap' });
  } else {
    if (t.TemporaryChargeType === 0)
      problems.push({ field: 'TemporaryChargeType', key: 'garage.validation.temporaryTypeRequired' });
    else if (!allowed.includes(t.TemporaryChargeType))
      problems.push({ field: 'TemporaryChargeType', key: 'garage.validation.parkingNotMetered' });
    if (t.TimeUnit !== null)
      problems.push({ field: 'TimeUnit', key: 'garage.validation.temporaryHasNoTimeUnit' });
  }
  return problems;
}

/**
 * Catalogue key of the unit a rule's price is per: 小时 / 度 / 次 for temporary types, the pass's time unit
 * (enum.timeUnit.N) for monthly types. A price reads "¥2.00 / {unit}".
 */
export function priceUnitKey(
  t: Pick<Tariff, 'ChargeType' | 'TemporaryChargeType' | 'TimeUnit'>,
): string | null {
  if (isMonthlyChargeType(t.ChargeType)) return t.TimeUnit === null ? null : `enum.timeUnit.${t.TimeUnit}`;
  return { 1: 'unit.hour', 2: 'unit.kWh', 3: 'unit.times' }[t.TemporaryChargeType as 1 | 2 | 3] ?? null;
}
