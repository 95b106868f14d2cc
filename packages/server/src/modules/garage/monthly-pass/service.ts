import {
  isMonthlyChargeType,
  passEnd,
  pricePass,
  type MonthlyPassApi,
  type MonthlyPassItem,
  type Tariff,
  type TimeUnitValue,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { areaTimeZone, assertInArea, itemById, type ItemView } from '../common/index.ts';

type SellBody = z.output<typeof MonthlyPassApi.sell.body>;
type RenewBody = z.output<typeof MonthlyPassApi.renew.body>;

/** A monthly rule of the area, enabled: what a pass can be sold under. */
async function monthlyRule(trx: Kysely<Database>, areaId: number, ruleId: number) {
  const rule = await trx
    .selectFrom('ChargeRule')
    .selectAll()
    .where('Id', '=', ruleId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  if (!rule) throw fieldError('ChargeRuleId', 'error.notFound');
  if (!isMonthlyChargeType(rule.ChargeType))
    throw fieldError('ChargeRuleId', 'garage.validation.ruleNotMonthly');
  if (rule.Disabled) throw fieldError('ChargeRuleId', 'garage.validation.ruleDisabled');
  return rule;
}

/** A vehicle holds at most one pass at any instant: a renewal starts where the current one ends. */
async function assertNoOverlap(trx: Kysely<Database>, vehicleId: number, startAt: number, endAt: number) {
  // Sales of one vehicle take turns: this no-op write locks the vehicle's row until the transaction ends
  // (PostgreSQL; SQLite serialises writers anyway), so a parallel sale sees the pass sold before it.
  await trx
    .updateTable('Vehicle')
    .set((eb) => ({ Id: eb.ref('Id') }))
    .where('Id', '=', vehicleId)
    .execute();
  const clash = await trx
    .selectFrom('MonthlyPass')
    .select('Id')
    .where('VehicleId', '=', vehicleId)
    .where('StartAt', '<', endAt)
    .where('EndAt', '>', startAt)
    .executeTakeFirst();
  if (clash) throw new AppError(409, 'garage.error.passOverlap');
}

interface Sale {
  VehicleId: number;
  ChargeRuleId: number;
  StartAt: number;
  Units: number;
  Remark: string | null;
  RenewedFromId: number | null;
}

/** End from the local calendar of the area, price from the shared tariff engine. */
async function sell(ctx: AreaContext, trx: Kysely<Database>, sale: Sale): Promise<number> {
  const rule = await monthlyRule(trx, ctx.areaId, sale.ChargeRuleId);
  const EndAt = passEnd(
    sale.StartAt,
    rule.TimeUnit as TimeUnitValue,
    sale.Units,
    await areaTimeZone(trx, ctx.areaId),
  );
  await assertNoOverlap(trx, sale.VehicleId, sale.StartAt, EndAt);
  const now = ctx.clock.now();
  const values = {
    AreaId: ctx.areaId,
    ...sale,
    EndAt,
    AmountCents: pricePass(rule as Tariff, sale.Units),
    UserName: ctx.actor.name,
    CreatedAt: now,
    UpdatedAt: now,
  };
  const row = await trx.insertInto('MonthlyPass').values(values).returning('Id').executeTakeFirstOrThrow();
  await audit(
    ctx,
    {
      action: sale.RenewedFromId ? 'renew' : 'create',
      entity: 'MonthlyPass',
      entityId: row.Id,
      after: values,
    },
    trx,
  );
  return row.Id;
}

function statusAt(startAt: string, endAt: string, now: number): MonthlyPassItem['Status'] {
  if (Date.parse(startAt) > now) return 'Upcoming';
  return Date.parse(endAt) <= now ? 'Expired' : 'Active';
}

const mapRow = rowMapper<MonthlyPassItem>({
  flags: [],
  instants: ['StartAt', 'EndAt', 'CreatedAt', 'UpdatedAt'],
});

/** Passes as their list shows them: with the vehicle and the rule, and their status against the clock. */
export const monthlyPassView: ItemView<MonthlyPassItem> = {
  table: 'MonthlyPass',
  query: (db: Kysely<Database>) =>
    db
      .selectFrom('MonthlyPass')
      .innerJoin('Vehicle', 'Vehicle.Id', 'MonthlyPass.VehicleId')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'MonthlyPass.ChargeRuleId')
      .select([
        'MonthlyPass.Id',
        'MonthlyPass.VehicleId',
        'Vehicle.Plate',
        'Vehicle.OwnerName',
        'MonthlyPass.ChargeRuleId',
        'ChargeRule.Name as RuleName',
        'ChargeRule.ChargeType',
        'ChargeRule.TimeUnit',
        'MonthlyPass.StartAt',
        'MonthlyPass.EndAt',
        'MonthlyPass.Units',
        'MonthlyPass.AmountCents',
        'MonthlyPass.RenewedFromId',
        'MonthlyPass.Remark',
        'MonthlyPass.UserName',
        'MonthlyPass.CreatedAt',
        'MonthlyPass.UpdatedAt',
      ]),
  toItem: (row) => ({ ...mapRow(row), Status: 'Active' }),
  async enrich(ctx, items) {
    const now = ctx.clock.now();
    return items.map((p) => ({ ...p, Status: statusAt(p.StartAt, p.EndAt, now) }));
  },
};

/** Sells a pass: price and end computed here, never taken from the client. */
export async function createPass(ctx: AreaContext, input: SellBody): Promise<MonthlyPassItem> {
  const passId = await ctx.db.kysely.transaction().execute(async (trx) => {
    await assertInArea(trx, 'Vehicle', input.VehicleId, ctx.areaId, 'VehicleId', 'error.notFound');
    return sell(ctx, trx, { ...input, Remark: input.Remark || null, RenewedFromId: null });
  });
  return itemById(monthlyPassView, ctx, passId);
}

/**
 * Renews a pass under the same rule: the new pass starts where the renewed one ends, or now when that has
 * already passed. A pass renewed twice overlaps its first renewal: 409.
 */
export async function renewPass(ctx: AreaContext, input: RenewBody): Promise<MonthlyPassItem> {
  const passId = await ctx.db.kysely.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom('MonthlyPass')
      .selectAll()
      .where('Id', '=', input.Id)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!old) throw notFound();
    return sell(ctx, trx, {
      VehicleId: old.VehicleId,
      ChargeRuleId: old.ChargeRuleId,
      StartAt: Math.max(old.EndAt, ctx.clock.now()),
      Units: input.Units,
      Remark: input.Remark || null,
      RenewedFromId: old.Id,
    });
  });
  return itemById(monthlyPassView, ctx, passId);
}

/** Deleting a sold pass corrects a mistake: Admin only, audited. */
export async function deletePass(ctx: AreaContext, passId: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('MonthlyPass')
      .selectAll()
      .where('Id', '=', passId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!before) throw notFound();
    const deleted = await trx.deleteFrom('MonthlyPass').where('Id', '=', passId).executeTakeFirst();
    // A parallel delete won (PostgreSQL): nothing removed, so 404 and no audit entry.
    if (Number(deleted.numDeletedRows) === 0) throw notFound();
    await audit(ctx, { action: 'delete', entity: 'MonthlyPass', entityId: passId, before }, trx);
  });
}
