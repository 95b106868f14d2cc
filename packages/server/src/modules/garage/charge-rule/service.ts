import {
  priceUnitKey,
  tariffProblems,
  translate,
  type ChargeRuleBody,
  type ChargeRuleItem,
  type Tariff,
} from '@gatehouse/shared';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { findDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { linkedNames } from '../../../platform/links.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { dimensionColumns, dimensionsOf } from '../common/pricing.ts';
import type { ParkAreaChargeRuleTable } from '../tables.ts';

type Trx = Kysely<Database>;

/**
 * Charge types a zone may have only one enabled rule of: a stay or a session must find exactly one price.
 * Monthly types may have several (a monthly and a yearly plan).
 */
const ONE_PER_ZONE = [0, 3];

/** Distinct ids, all of them rows of the area, else a 400 on the field. */
export async function idsInArea(
  trx: Trx,
  table: 'ParkArea' | 'ChargeRule',
  ids: number[],
  areaId: number,
  field: string,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await trx
    .selectFrom(table)
    .select('Id')
    .where('Id', 'in', unique)
    .where('AreaId', '=', areaId)
    .execute();
  if (found.length !== unique.length) throw fieldError(field, 'error.notFound');
  return unique.sort((a, b) => a - b);
}

/** The two sides of a zone–rule link: each side's column and the other's. */
const OTHER = { ParkAreaId: 'ChargeRuleId', ChargeRuleId: 'ParkAreaId' } as const;

/** Replaces the links of one zone (its rules) or one rule (its zones). */
async function setLinks(trx: Trx, side: keyof typeof OTHER, id: number, otherIds: number[]): Promise<void> {
  await trx.deleteFrom('ParkAreaChargeRule').where(side, '=', id).execute();
  if (otherIds.length)
    await trx
      .insertInto('ParkAreaChargeRule')
      .values(
        otherIds.map((other) => ({ [side]: id, [OTHER[side]]: other }) as unknown as ParkAreaChargeRuleTable),
      )
      .execute();
}

export const setZoneRules = (trx: Trx, zoneId: number, ruleIds: number[]) =>
  setLinks(trx, 'ParkAreaId', zoneId, ruleIds);

export const setRuleZones = (trx: Trx, ruleId: number, zoneIds: number[]) =>
  setLinks(trx, 'ChargeRuleId', ruleId, zoneIds);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a condition of the zone or the rule list
type Where = (eb: ExpressionBuilder<any, any>, id: number) => Expression<SqlBool>;

/** SQL of a list filter through the links: the row (`column`) is linked to this zone or rule. */
const linkedTo =
  (column: string, side: keyof typeof OTHER): Where =>
  (eb, id) =>
    eb(
      column,
      'in',
      eb
        .selectFrom('ParkAreaChargeRule')
        .select(`ParkAreaChargeRule.${OTHER[side]}`)
        .where(`ParkAreaChargeRule.${side}`, '=', id),
    );

/** The rules a zone uses (the rule list's ParkAreaId filter). */
export const ruleOfZoneCondition = linkedTo('ChargeRule.Id', 'ParkAreaId');
/** The zones a rule applies to (the zone list's ChargeRuleId filter). */
export const zoneOfRuleCondition = linkedTo('ParkArea.Id', 'ChargeRuleId');

export async function zonesOfRule(trx: Trx, ruleId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('ParkAreaChargeRule')
    .select('ParkAreaId')
    .where('ChargeRuleId', '=', ruleId)
    .execute();
  return rows.map((r) => r.ParkAreaId);
}

/**
 * 409 when a zone would have two enabled rules of a temporary type. Reads the links as written so far in
 * the transaction; `pending` stands for a rule row whose new values are not written yet.
 */
export async function assertNoRuleConflicts(
  trx: Trx,
  ctx: AreaContext,
  zoneIds: number[],
  pending?: { Id: number; ChargeType: number; Disabled: number },
): Promise<void> {
  if (zoneIds.length === 0) return;
  const rows = await trx
    .selectFrom('ParkAreaChargeRule')
    .innerJoin('ChargeRule', 'ChargeRule.Id', 'ParkAreaChargeRule.ChargeRuleId')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ParkAreaChargeRule.ParkAreaId')
    .select([
      'ParkArea.Name as ZoneName',
      'ParkAreaChargeRule.ParkAreaId',
      'ChargeRule.Id',
      'ChargeRule.Name',
      'ChargeRule.ChargeType',
      'ChargeRule.Disabled',
    ])
    .where('ParkAreaChargeRule.ParkAreaId', 'in', zoneIds)
    .orderBy('ChargeRule.Id')
    .execute();
  const groups = new Map<string, { zone: string; type: number; rules: string[] }>();
  for (const row of rows) {
    const rule = pending && row.Id === pending.Id ? { ...row, ...pending } : row;
    if (rule.Disabled || !ONE_PER_ZONE.includes(rule.ChargeType)) continue;
    const key = `${row.ParkAreaId}:${rule.ChargeType}`;
    const group = groups.get(key) ?? { zone: row.ZoneName, type: rule.ChargeType, rules: [] };
    group.rules.push(rule.Name);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (group.rules.length > 1) {
      throw new AppError(409, 'garage.error.zoneRuleConflict', {
        zone: group.zone,
        type: translate(ctx.lang, `enum.chargeType.${group.type}`),
        rules: group.rules.join(translate(ctx.lang, 'common.listSeparator')),
      });
    }
  }
}

// ---- the rule list and its writes --------------------------------------------------------------------------

/** A rule's tariff terms (shared Tariff): what an order copies when its session or stay starts. */
export const RULE_TERMS = [
  'ChargeRule.ChargeType',
  'ChargeRule.TemporaryChargeType',
  'ChargeRule.UnitPriceCents',
  'ChargeRule.TimeUnit',
  'ChargeRule.FreeMinutes',
  'ChargeRule.CapCents',
  // The tariff dimensions (migration 0031): JSON lists and fees, null when not used.
  'ChargeRule.PowerBands',
  'ChargeRule.TimeOfDay',
  'ChargeRule.IdleFeeCentsPerHour',
  'ChargeRule.IdleGraceMinutes',
  'ChargeRule.ServiceFeeCents',
] as const;

export const chargeRuleQuery = (db: Trx) =>
  db
    .selectFrom('ChargeRule')
    .select([
      'ChargeRule.Id',
      'ChargeRule.Name',
      ...RULE_TERMS,
      'ChargeRule.MaxDurationMinutes',
      'ChargeRule.MaxPowerW',
      'ChargeRule.FullPowerW',
      'ChargeRule.FullMinutes',
      'ChargeRule.Remark',
      'ChargeRule.Disabled',
      'ChargeRule.CreatedAt',
      'ChargeRule.UpdatedAt',
    ]);

const mapRow = rowMapper<ChargeRuleItem>({});

export function chargeRuleItem(row: Record<string, unknown>): ChargeRuleItem {
  const rule = mapRow(row);
  return {
    ...rule,
    ...dimensionsOf(row),
    PriceUnitKey: priceUnitKey(rule as Tariff),
    ParkAreaIds: [],
    ParkAreas: [],
  };
}

/** Per page: the zones that use each rule. */
export async function withZones(ctx: AreaContext, items: ChargeRuleItem[]): Promise<ChargeRuleItem[]> {
  const zonesOf = await linkedNames(
    ctx.db.kysely,
    { table: 'ParkAreaChargeRule', owner: 'ChargeRuleId', linked: 'ParkAreaId' },
    { table: 'ParkArea', orderBy: 'Name' },
    items.map((i) => i.Id),
  );
  return items.map((rule) => {
    const zones = zonesOf.get(rule.Id) ?? [];
    return { ...rule, ParkAreaIds: zones.map((z) => z.Id), ParkAreas: zones };
  });
}

const SAFETY_FIELDS = ['MaxDurationMinutes', 'MaxPowerW', 'FullPowerW', 'FullMinutes'] as const;

const DIMENSION_FIELDS = [
  'PowerBands',
  'TimeOfDay',
  'IdleFeeCentsPerHour',
  'IdleGraceMinutes',
  'ServiceFeeCents',
] as const;

/**
 * The terms as stored: what is not given is "not applicable" (0 or null), then checked for the type with the
 * shared rule the form applies too. The tariff dimensions are kept from `existing` when the body leaves them
 * out (as the safety limits; null removes one); an empty list is none.
 */
function terms(input: ChargeRuleBody, existing?: Record<string, unknown>) {
  const kept = existing ? dimensionsOf(existing) : null;
  const t = {
    ChargeType: input.ChargeType,
    TemporaryChargeType: input.TemporaryChargeType ?? 0,
    UnitPriceCents: input.UnitPriceCents,
    TimeUnit: input.TimeUnit ?? null,
    FreeMinutes: input.FreeMinutes ?? 0,
    CapCents: input.CapCents ?? null,
    ...Object.fromEntries(
      DIMENSION_FIELDS.map((f) => [f, input[f] !== undefined ? input[f] : (kept?.[f] ?? null)]),
    ),
  } as Tariff;
  const problems = tariffProblems(t);
  if (problems.length)
    throw new AppError(400, 'error.validation', undefined, {
      Errors: problems.map((p) => ({ Field: p.path ?? p.field, Key: p.key, Params: p.params })),
    });
  const { PowerBands: _bands, TimeOfDay: _periods, ...columns } = t;
  return { ...columns, ...dimensionColumns(t) };
}

/**
 * The safety columns a body sets (absent ones are left out, so an update keeps them). "Stop when full" needs
 * both its threshold and its minutes: one without the other is a 400 on the missing one.
 */
function safety(input: ChargeRuleBody, existing?: Record<string, unknown>) {
  const out: Partial<Record<(typeof SAFETY_FIELDS)[number], number | null>> = {};
  for (const key of SAFETY_FIELDS) if (input[key] !== undefined) out[key] = input[key];
  const full = (key: 'FullPowerW' | 'FullMinutes') =>
    key in out ? out[key] : ((existing?.[key] as number | null | undefined) ?? null);
  if ((full('FullPowerW') === null) !== (full('FullMinutes') === null)) {
    throw fieldError(full('FullPowerW') === null ? 'FullPowerW' : 'FullMinutes', 'validation.required');
  }
  return out;
}

export function newRule(input: ChargeRuleBody) {
  return {
    Name: input.Name,
    Remark: input.Remark || null,
    ...terms(input),
    MaxDurationMinutes: null,
    MaxPowerW: null,
    FullPowerW: null,
    FullMinutes: null,
    ...safety(input),
  };
}

/** A new rule's zones, then the one-rule-per-type check on them. */
export async function linkNewRule(input: ChargeRuleBody, ctx: AreaContext, trx: Trx, ruleId: number) {
  const zoneIds = await idsInArea(trx, 'ParkArea', input.ParkAreaIds ?? [], ctx.areaId, 'ParkAreaIds');
  await setRuleZones(trx, ruleId, zoneIds);
  await assertNoRuleConflicts(trx, ctx, zoneIds);
}

/**
 * The whole terms are replaced (a form sends them all); ParkAreaIds, when present, replaces the zones.
 * Orders already priced or running keep the terms they copied; the charge type of a rule that priced
 * orders or sold passes is fixed (its history would change meaning).
 */
export async function changedRule(
  input: ChargeRuleBody & { Id: number },
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const t = terms(input, existing);
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
}

/** Enabling a rule re-checks its zones: at most one enabled rule of each temporary type. */
export async function checkRuleEnabled(
  ctx: AreaContext,
  row: Record<string, unknown>,
  disabled: boolean,
  trx: Trx,
) {
  if (disabled) return;
  await assertNoRuleConflicts(trx, ctx, await zonesOfRule(trx, row.Id as number), {
    Id: row.Id as number,
    ChargeType: row.ChargeType as number,
    Disabled: 0,
  });
}
