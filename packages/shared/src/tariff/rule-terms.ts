import { isTimeOfDay, overlappingPeriods } from './periods.ts';
import { isMonthlyChargeType, type Tariff } from './tariff.ts';

/** Largest unit price, cap and pass price a rule may carry: ¥100,000.00. */
export const MAX_PRICE_CENTS = 10_000_000;
/** Longest grace period: one day. */
export const MAX_FREE_MINUTES = 1440;

/** Most power bands a rule may list. */
export const MAX_POWER_BANDS = 10;
/** Most time-of-day periods a rule may list. */
export const MAX_TIME_OF_DAY_PERIODS = 12;
/** Highest power a band may go up to (W): far above any e-bike charger, as MaxPowerW's limit. */
export const MAX_BAND_W = 100_000;
/** Longest idle grace: one day. */
export const MAX_IDLE_GRACE_MINUTES = 1440;

/** Which temporary charge types each temporary charge type allows (parking is never metered). */
export const TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE: Readonly<Record<number, readonly number[]>> = {
  0: [1, 3],
  1: [0],
  2: [0],
  3: [1, 2, 3],
};

export interface TermProblem {
  field: keyof Tariff;
  /** The item of a list field the problem is in ("PowerBands.1.UpToW"), when it is one. */
  path?: string;
  /** Catalogue key of the message (garage namespace). */
  key: string;
  params?: Record<string, string | number>;
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
  return [...problems, ...dimensionProblems(t)];
}

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/**
 * The tariff dimensions (docs/garage.md, "Tariff dimensions"), as the rule API takes them: temporary charging
 * only (no parking or monthly order copies them), power bands on timed or metered charging with their upper
 * limits ascending, time-of-day periods on metered charging written "HH:mm" and never overlapping. A period
 * list may leave time uncovered: energy then costs the rule's unit price. An empty list is no list.
 */
function dimensionProblems(t: Tariff): TermProblem[] {
  const problems: TermProblem[] = [];
  const charging = t.ChargeType === 3;
  const bands = t.PowerBands ?? [];
  if (bands.length > 0) {
    if (!charging || (t.TemporaryChargeType !== 1 && t.TemporaryChargeType !== 2))
      problems.push({ field: 'PowerBands', key: 'garage.validation.bandsChargingOnly' });
    bands.forEach((band, i) => {
      const before = bands[i - 1];
      if (before && band.UpToW <= before.UpToW)
        problems.push({
          field: 'PowerBands',
          path: `PowerBands.${i}.UpToW`,
          key: 'garage.validation.bandsAscending',
          params: { band: i + 1, previous: before.UpToW },
        });
    });
  }
  const periods = t.TimeOfDay ?? [];
  if (periods.length > 0) {
    if (!charging || t.TemporaryChargeType !== 2)
      problems.push({ field: 'TimeOfDay', key: 'garage.validation.periodsMeteredOnly' });
    const malformed: TermProblem[] = periods.flatMap((p, i) =>
      (['From', 'To'] as const)
        .filter((end) => !isTimeOfDay(p[end]))
        .map((end) => ({
          field: 'TimeOfDay' as const,
          path: `TimeOfDay.${i}.${end}`,
          key: 'garage.validation.timeOfDay',
          params: { period: i + 1 },
        })),
    );
    problems.push(...malformed);
    const overlap = malformed.length ? null : overlappingPeriods(periods);
    if (overlap) {
      const [a, b] = overlap.map((i) => periods[i]!);
      problems.push({
        field: 'TimeOfDay',
        path: `TimeOfDay.${overlap[1]}`,
        key: 'garage.validation.periodsOverlap',
        params: { first: `${a!.From}–${a!.To}`, second: `${b!.From}–${b!.To}` },
      });
    }
  }
  if (!charging) {
    for (const field of ['IdleFeeCentsPerHour', 'IdleGraceMinutes'] as const)
      if (present(t[field])) problems.push({ field, key: 'garage.validation.idleFeeChargingOnly' });
    if (present(t.ServiceFeeCents))
      problems.push({ field: 'ServiceFeeCents', key: 'garage.validation.serviceFeeChargingOnly' });
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
