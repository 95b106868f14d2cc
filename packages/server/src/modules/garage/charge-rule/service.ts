import { translate } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';

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

export async function setZoneRules(trx: Trx, zoneId: number, ruleIds: number[]): Promise<void> {
  await trx.deleteFrom('ParkAreaChargeRule').where('ParkAreaId', '=', zoneId).execute();
  if (ruleIds.length)
    await trx
      .insertInto('ParkAreaChargeRule')
      .values(ruleIds.map((ChargeRuleId) => ({ ParkAreaId: zoneId, ChargeRuleId })))
      .execute();
}

export async function setRuleZones(trx: Trx, ruleId: number, zoneIds: number[]): Promise<void> {
  await trx.deleteFrom('ParkAreaChargeRule').where('ChargeRuleId', '=', ruleId).execute();
  if (zoneIds.length)
    await trx
      .insertInto('ParkAreaChargeRule')
      .values(zoneIds.map((ParkAreaId) => ({ ParkAreaId, ChargeRuleId: ruleId })))
      .execute();
}

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
