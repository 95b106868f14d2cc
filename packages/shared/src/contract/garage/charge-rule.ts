import { z } from 'zod';
import { chargeType, temporaryChargeType, timeUnit } from '../../enums/garage.ts';
import {
  MAX_BAND_W,
  MAX_FREE_MINUTES,
  MAX_IDLE_GRACE_MINUTES,
  MAX_POWER_BANDS,
  MAX_PRICE_CENTS,
  MAX_TIME_OF_DAY_PERIODS,
} from '../../tariff/rule-terms.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';

/** A ChargeRule row, as GET /api/ChargeRule lists it and GET /api/ChargeRule/{Id} returns it. */
export const chargeRuleItem = z.object({
  Id: z.number(),
  Name: z.string(),
  ChargeType: z.number(),
  TemporaryChargeType: z.number(),
  UnitPriceCents: z.number(),
  /** Catalogue key of the unit the price is per (unit.hour, unit.kWh, unit.times, enum.timeUnit.N). */
  PriceUnitKey: z.string().nullable(),
  TimeUnit: z.number().nullable(),
  FreeMinutes: z.number(),
  CapCents: z.number().nullable(),
  /** Safety limits (docs/chargers.md): maximum session minutes, maximum power, "stop when full". */
  MaxDurationMinutes: z.number().nullable().optional(),
  MaxPowerW: z.number().nullable().optional(),
  FullPowerW: z.number().nullable().optional(),
  FullMinutes: z.number().nullable().optional(),
  /** Tariff dimensions (docs/garage.md, "Tariff dimensions"), temporary charging only; null: not used. */
  PowerBands: z.array(z.object({ UpToW: z.number(), PriceCents: z.number() })).nullable(),
  TimeOfDay: z.array(z.object({ From: z.string(), To: z.string(), PriceCentsPerKWh: z.number() })).nullable(),
  IdleFeeCentsPerHour: z.number().nullable(),
  IdleGraceMinutes: z.number().nullable(),
  ServiceFeeCents: z.number().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ParkAreaIds: z.array(z.number()),
  ParkAreas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ChargeRuleItem = z.output<typeof chargeRuleItem>;

const price = z.number().int().min(0).max(MAX_PRICE_CENTS);

/** A power band: sustained power up to UpToW W costs PriceCents per started hour. */
const powerBand = z.strictObject({
  UpToW: z.number().int().min(1).max(MAX_BAND_W),
  PriceCents: price,
});

/**
 * A time-of-day period, local wall clock [From, To) ("HH:mm"; From after To crosses midnight, From = To is the
 * whole day). The format and overlaps are checked by the shared `tariffProblems`, with the form's messages.
 */
const timeOfDayPeriod = z.strictObject({
  From: z.string().max(5),
  To: z.string().max(5),
  PriceCentsPerKWh: price,
});

/** The body of a rule; the terms are checked per charge type by the shared `tariffProblems`. */
const fields = {
  Name: z.string().trim().min(1).max(50),
  ChargeType: enumNumber(chargeType),
  TemporaryChargeType: enumNumber(temporaryChargeType).optional(),
  UnitPriceCents: price,
  TimeUnit: enumNumber(timeUnit).nullable().optional(),
  FreeMinutes: z.number().int().min(0).max(MAX_FREE_MINUTES).optional(),
  CapCents: price.min(1).nullable().optional(),
  Remark: optionalText(200),
  ParkAreaIds: z.array(id).max(100).optional(),
  // Safety limits (docs/chargers.md, "Safety rules"): null or absent = no limit; on update absent keeps them.
  MaxDurationMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 1440)
    .nullable()
    .optional(),
  MaxPowerW: z.number().int().min(1).max(100_000).nullable().optional(),
  FullPowerW: z.number().int().min(1).max(10_000).nullable().optional(),
  FullMinutes: z.number().int().min(1).max(1440).nullable().optional(),
  // Tariff dimensions (docs/garage.md, "Tariff dimensions"): null or an empty list = not used; on update absent
  // keeps them, as the safety limits. Checked per charge type by the shared `tariffProblems`.
  PowerBands: z.array(powerBand).max(MAX_POWER_BANDS).nullable().optional(),
  TimeOfDay: z.array(timeOfDayPeriod).max(MAX_TIME_OF_DAY_PERIODS).nullable().optional(),
  IdleFeeCentsPerHour: price.nullable().optional(),
  IdleGraceMinutes: z.number().int().min(0).max(MAX_IDLE_GRACE_MINUTES).nullable().optional(),
  ServiceFeeCents: price.nullable().optional(),
};

export const chargeRuleBody = z.strictObject(fields);
export type ChargeRuleBody = z.output<typeof chargeRuleBody>;

/** Charge rules (spec screen chargeRule): every charge type, with the zones that use each. */
export const ChargeRuleApi = resourceApi({
  name: 'ChargeRule',
  tag: GARAGE_TAG,
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  item: chargeRuleItem,
  filters: {
    Name: filterSchema.text(),
    ChargeType: filterSchema.oneOf(chargeType),
    TemporaryChargeType: filterSchema.oneOf(temporaryChargeType),
    Disabled: filterSchema.flag(),
    ParkAreaId: filterSchema.id(),
  },
  sorts: ['ChargeType', 'Name', 'UnitPriceCents', 'CreatedAt'],
  create: chargeRuleBody,
  update: z.strictObject({ Id: id, ...fields }),
  remove: true,
  status: true,
});
