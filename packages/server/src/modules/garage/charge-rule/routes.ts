import {
  chargeType,
  disabledFlag,
  enumLabel,
  formatCents,
  MAX_FREE_MINUTES,
  MAX_PRICE_CENTS,
  priceUnitKey,
  tariffProblems,
  temporaryChargeType,
  timeUnit,
  translate,
  type Tariff,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  chargeRuleItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { assertNoDependents, findDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { enumNumber, id } from '../../../platform/schemas.ts';
import { optionalText } from '../common.ts';
import { assertNoRuleConflicts, idsInArea, setRuleZones, zonesOfRule } from './service.ts';

type Item = z.infer<typeof chargeRuleItem>;

const price = z.number().int().min(0).max(MAX_PRICE_CENTS);
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
};
const SAFETY_FIELDS = ['MaxDurationMinutes', 'MaxPowerW', 'FullPowerW', 'FullMinutes'] as const;
const createBody = z.strictObject(fields);
type Fields = z.output<typeof createBody>;

/** The terms as stored: what is not given is "not applicable" (0 or null), then checked for the type. */
function terms(input: Fields): Tariff {
  const t = {
    ChargeType: input.ChargeType,
    TemporaryChargeType: input.TemporaryChargeType ?? 0,
    UnitPriceCents: input.UnitPriceCents,
    TimeUnit: input.TimeUnit ?? null,
    FreeMinutes: input.FreeMinutes ?? 0,
    CapCents: input.CapCents ?? null,
  } as Tariff;
  const problems = tariffProblems(t);
  if (problems.length)
    throw new AppError(400, 'error.validation', undefined, {
      Errors: problems.map((p) => ({ Field: p.field, Key: p.key })),
    });
  return t;
}

/**
 * The safety columns a body sets (absent ones are left out, so an update keeps them). "Stop when full" needs
 * both its threshold and its minutes: one without the other is a 400 on the missing one.
 */
function safety(input: Fields, existing?: Record<string, unknown>) {
  const out: Partial<Record<(typeof SAFETY_FIELDS)[number], number | null>> = {};
  for (const key of SAFETY_FIELDS) if (input[key] !== undefined) out[key] = input[key];
  const full = (key: 'FullPowerW' | 'FullMinutes') =>
    key in out ? out[key] : ((existing?.[key] as number | null | undefined) ?? null);
  if ((full('FullPowerW') === null) !== (full('FullMinutes') === null)) {
    throw fieldError(full('FullPowerW') === null ? 'FullPowerW' : 'FullMinutes', 'validation.required');
  }
  return out;
}

async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
  const links = await ctx.db.kysely
    .selectFrom('ParkAreaChargeRule')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ParkAreaChargeRule.ParkAreaId')
    .select(['ParkAreaChargeRule.ChargeRuleId', 'ParkArea.Id', 'ParkArea.Name'])
    .where(
      'ParkAreaChargeRule.ChargeRuleId',
      'in',
      items.map((i) => i.Id),
    )
    .orderBy('ParkArea.Name')
    .execute();
  return items.map((rule) => {
    const zones = links.filter((l) => l.ChargeRuleId === rule.Id).map((l) => ({ Id: l.Id, Name: l.Name }));
    return { ...rule, ParkAreaIds: zones.map((z) => z.Id), ParkAreas: zones };
  });
}

/** Charge rules (spec screen chargeRule): every charge type, with the zones that use each. */
export const chargeRuleRoutes = defineResource({
  name: 'ChargeRule',
  table: 'ChargeRule',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  item: chargeRuleItem,
  query: (db) =>
    db
      .selectFrom('ChargeRule')
      .select([
        'ChargeRule.Id',
        'ChargeRule.Name',
        'ChargeRule.ChargeType',
        'ChargeRule.TemporaryChargeType',
        'ChargeRule.UnitPriceCents',
        'ChargeRule.TimeUnit',
        'ChargeRule.FreeMinutes',
        'ChargeRule.CapCents',
        'ChargeRule.MaxDurationMinutes',
        'ChargeRule.MaxPowerW',
        'ChargeRule.FullPowerW',
        'ChargeRule.FullMinutes',
        'ChargeRule.Remark',
        'ChargeRule.Disabled',
        'ChargeRule.CreatedAt',
        'ChargeRule.UpdatedAt',
      ]),
  toItem: (row) => {
    const rule = rowMapper<Item>({})(row);
    return { ...rule, PriceUnitKey: priceUnitKey(rule as Tariff), ParkAreaIds: [], ParkAreas: [] };
  },
  enrich,
  filters: {
    Name: filter.like('ChargeRule.Name'),
    ChargeType: filter.oneOf('ChargeRule.ChargeType', chargeType),
    TemporaryChargeType: filter.oneOf('ChargeRule.TemporaryChargeType', temporaryChargeType),
    Disabled: filter.flag('ChargeRule.Disabled'),
    ParkAreaId: {
      schema: id,
      where: (eb, zoneId: number) =>
        eb(
          'ChargeRule.Id',
          'in',
          eb
            .selectFrom('ParkAreaChargeRule')
            .select('ParkAreaChargeRule.ChargeRuleId')
            .where('ParkAreaChargeRule.ParkAreaId', '=', zoneId),
        ),
    },
  },
  sorts: {
    ChargeType: 'ChargeRule.ChargeType',
    Name: 'ChargeRule.Name',
    UnitPriceCents: 'ChargeRule.UnitPriceCents',
    CreatedAt: 'ChargeRule.CreatedAt',
  },
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'garage.error.ruleNameTaken' }],
  create: {
    body: createBody,
    values: (input) => ({
      Name: input.Name,
      Remark: input.Remark || null,
      ...terms(input),
      MaxDurationMinutes: null,
      MaxPowerW: null,
      FullPowerW: null,
      FullMinutes: null,
      ...safety(input),
    }),
    async after(input, ctx, trx, ruleId) {
      const zoneIds = await idsInArea(trx, 'ParkArea', input.ParkAreaIds ?? [], ctx.areaId, 'ParkAreaIds');
      await setRuleZones(trx, ruleId, zoneIds);
      await assertNoRuleConflicts(trx, ctx, zoneIds);
    },
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    /**
     * The whole terms are replaced (a form sends them all); ParkAreaIds, when present, replaces the zones.
     * Orders already priced or running keep the terms they copied; the charge type of a rule that priced
     * orders or sold passes is fixed (its history would change meaning).
     */
    async values(input, ctx, trx, existing) {
      const t = terms(input);
      if (t.ChargeType !== existing.ChargeType && (await findDependents('ChargeRule', trx, input.Id)).length)
        throw new AppError(409, 'garage.error.ruleTypeLocked');
      let zoneIds = await zonesOfRule(trx, input.Id);
      if (input.ParkAreaIds !== undefined) {
        zoneIds = await idsInArea(trx, 'ParkArea', input.ParkAreaIds, ctx.areaId, 'ParkAreaIds');
        await setRuleZones(trx, input.Id, zoneIds);
      }
      await assertNoRuleConflicts(trx, ctx, zoneIds, {
        Id: input.Id,
        ChargeType: t.ChargeType,
        Disabled: existing.Disabled as number,
      });
      return {
        Name: input.Name,
        ...(input.Remark !== undefined ? { Remark: input.Remark || null } : {}),
        ...t,
        ...safety(input, existing),
      };
    },
  },
  remove: { check: (ctx, row, trx) => assertNoDependents('ChargeRule', trx, row.Id as number, ctx.lang) },
  status: {
    async check(ctx, row, disabled, trx) {
      if (disabled) return;
      await assertNoRuleConflicts(trx, ctx, await zonesOfRule(trx, row.Id as number), {
        Id: row.Id as number,
        ChargeType: row.ChargeType as number,
        Disabled: 0,
      });
    },
  },
  export: {
    titleKey: 'garage.title.chargeRule',
    columns: [
      { key: 'Name', labelKey: 'garage.field.RuleName', width: 24 },
      {
        key: 'ChargeType',
        labelKey: 'garage.field.ChargeType',
        width: 20,
        label: (v, lang) => enumLabel(lang, chargeType, v),
      },
      {
        key: 'TemporaryChargeType',
        labelKey: 'garage.field.TemporaryChargeType',
        label: (v, lang) => enumLabel(lang, temporaryChargeType, v),
      },
      {
        key: 'UnitPriceCents',
        labelKey: 'garage.field.UnitPrice',
        label: (v: number) => formatCents(v),
      },
      {
        key: 'PriceUnitKey',
        labelKey: 'garage.field.PriceUnit',
        label: (v: string, lang) => translate(lang, v),
      },
      { key: 'FreeMinutes', labelKey: 'garage.field.FreeMinutes', kind: 'number' },
      { key: 'CapCents', labelKey: 'garage.field.Cap', label: (v: number) => formatCents(v) },
      {
        key: 'ParkAreas',
        labelKey: 'garage.field.ParkAreas',
        width: 40,
        label: (zones: Item['ParkAreas']) => zones.map((z) => z.Name).join(', '),
      },
      {
        key: 'Disabled',
        labelKey: 'garage.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
      { key: 'Remark', labelKey: 'garage.field.Remark', width: 30 },
    ],
  },
});
