import type { VehicleApi, VehicleItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { columns, iso } from '../common/index.ts';

type Trx = Kysely<Database>;
type CreateBody = z.output<typeof VehicleApi.create.body>;
type UpdateBody = z.output<typeof VehicleApi.update.body>;

export const vehicleQuery = (db: Trx) =>
  db
    .selectFrom('Vehicle')
    .select([
      'Vehicle.Id',
      'Vehicle.Plate',
      'Vehicle.OwnerName',
      'Vehicle.Phone',
      'Vehicle.CardHolderId',
      'Vehicle.CardHolderName',
      'Vehicle.CardId',
      'Vehicle.CardNumber',
      'Vehicle.Remark',
      'Vehicle.Disabled',
      'Vehicle.CreatedAt',
      'Vehicle.UpdatedAt',
    ]);

const mapRow = rowMapper<VehicleItem>({});

export const vehicleItem = (row: Record<string, unknown>): VehicleItem => ({
  ...mapRow(row),
  ActivePass: null,
});

/** Per page: the pass each vehicle holds now, if any. */
export async function withActivePass(ctx: AreaContext, items: VehicleItem[]): Promise<VehicleItem[]> {
  const now = ctx.clock.now();
  const passes = await ctx.db.kysely
    .selectFrom('MonthlyPass')
    .innerJoin('ChargeRule', 'ChargeRule.Id', 'MonthlyPass.ChargeRuleId')
    .select([
      'MonthlyPass.Id',
      'MonthlyPass.VehicleId',
      'MonthlyPass.EndAt',
      'ChargeRule.Name as RuleName',
      'ChargeRule.ChargeType',
    ])
    .where(
      'MonthlyPass.VehicleId',
      'in',
      items.map((i) => i.Id),
    )
    .where('MonthlyPass.StartAt', '<=', now)
    .where('MonthlyPass.EndAt', '>', now)
    .orderBy('MonthlyPass.EndAt', 'desc')
    .execute();
  return items.map((v) => {
    const pass = passes.find((p) => p.VehicleId === v.Id);
    return {
      ...v,
      ActivePass: pass
        ? { Id: pass.Id, RuleName: pass.RuleName, ChargeType: pass.ChargeType, EndAt: iso(pass.EndAt)! }
        : null,
    };
  });
}

/** A linked card holder or card must exist in the vehicle's area: another area's ids are not found. */
async function checkReferences(ctx: AreaContext, trx: Trx, input: CreateBody): Promise<void> {
  const refs = [
    ['CardHolderId', 'CardUser', input.CardHolderId],
    ['CardId', 'Card', input.CardId],
  ] as const;
  for (const [field, table, id] of refs) {
    if (id == null) continue;
    const found = await trx
      .selectFrom(table)
      .select('Id')
      .where('Id', '=', id)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!found) throw fieldError(field, 'error.notFound');
  }
}

export async function newVehicle(input: CreateBody, ctx: AreaContext, trx: Trx) {
  await checkReferences(ctx, trx, input);
  return {
    OwnerName: null,
    Phone: null,
    CardHolderId: null,
    CardHolderName: null,
    CardId: null,
    CardNumber: null,
    Remark: null,
    ...columns(input),
  };
}

export async function changedVehicle(input: UpdateBody, ctx: AreaContext, trx: Trx) {
  await checkReferences(ctx, trx, input);
  return columns(input);
}
