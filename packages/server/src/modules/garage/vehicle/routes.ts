import {
  cardNumber,
  disabledFlag,
  enumLabel,
  phone,
  plate,
  zodRule,
  BICYCLE_ANY,
  vehicleItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { fieldError } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { id } from '../../../platform/schemas.ts';
import { columns, iso, optionalText } from '../common.ts';

type Item = z.infer<typeof vehicleItem>;

const fields = {
  // Not trimmed: the plate rule reports surrounding spaces (its message says so). Required: an empty plate
  // would reach the column's NOT NULL (the plate rule lets absent values through).
  Plate: z.string().min(1).max(10).superRefine(zodRule(plate)),
  OwnerName: optionalText(50),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  /**
   * The card holder and card of the access-control module, by id plus the name or number shown; both must
   * be of the vehicle's area (checkReferences).
   */
  CardHolderId: id.nullable().optional(),
  CardHolderName: optionalText(50),
  CardId: id.nullable().optional(),
  CardNumber: optionalText(10).superRefine(zodRule(cardNumber)),
  Remark: optionalText(200),
};

/** A linked card holder or card must exist in the vehicle's area: another area's ids are not found. */
async function checkReferences(
  ctx: AreaContext,
  trx: Kysely<Database>,
  input: { CardHolderId?: number | null | undefined; CardId?: number | null | undefined },
): Promise<void> {
  if (input.CardHolderId != null) {
    const holder = await trx
      .selectFrom('CardUser')
      .select('Id')
      .where('Id', '=', input.CardHolderId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!holder) throw fieldError('CardHolderId', 'error.notFound');
  }
  if (input.CardId != null) {
    const card = await trx
      .selectFrom('Card')
      .select('Id')
      .where('Id', '=', input.CardId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!card) throw fieldError('CardId', 'error.notFound');
  }
}

async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
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

/** Vehicles by plate, linked to card holders or cards; the everyday desk work of both codes. */
export const vehicleRoutes = defineResource({
  name: 'Vehicle',
  table: 'Vehicle',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ANY,
  item: vehicleItem,
  query: (db) =>
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
      ]),
  toItem: (row) => ({ ...rowMapper<Item>({})(row), ActivePass: null }),
  enrich,
  filters: {
    Keyword: filter.keyword([
      'Vehicle.Plate',
      'Vehicle.OwnerName',
      'Vehicle.Phone',
      'Vehicle.CardNumber',
      'Vehicle.CardHolderName',
    ]),
    Plate: filter.like('Vehicle.Plate'),
    CardHolderId: filter.id('Vehicle.CardHolderId'),
    CardId: filter.id('Vehicle.CardId'),
    Disabled: filter.flag('Vehicle.Disabled'),
  },
  sorts: { Plate: 'Vehicle.Plate', CreatedAt: 'Vehicle.CreatedAt' },
  timestamps: true,
  unique: [{ fields: ['Plate'], key: 'garage.error.plateTaken' }],
  create: {
    body: z.strictObject(fields),
    values: async (input, ctx, trx) => {
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
    },
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    values: async (input, ctx, trx) => {
      await checkReferences(ctx, trx, input);
      return columns(input);
    },
  },
  remove: { check: (ctx, row, trx) => assertNoDependents('Vehicle', trx, row.Id as number, ctx.lang) },
  status: {},
  export: {
    titleKey: 'garage.title.vehicle',
    columns: [
      { key: 'Plate', labelKey: 'garage.field.Plate', width: 12 },
      { key: 'OwnerName', labelKey: 'garage.field.OwnerName' },
      { key: 'Phone', labelKey: 'garage.field.Phone' },
      { key: 'CardHolderName', labelKey: 'garage.field.CardHolderName' },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      {
        key: 'ActivePass',
        labelKey: 'garage.field.ActivePass',
        width: 24,
        label: (pass: Item['ActivePass']) => pass?.RuleName ?? '',
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
