import { cardNumber, disabledFlag, enumLabel, phone, plate, zodRule } from '@gatehouse/shared';
import { z } from 'zod';
import { assertNoDependents } from '../../platform/dependents.ts';
import { filter } from '../../platform/filters.ts';
import { defineResource, rowMapper } from '../../platform/resource.ts';
import type { AuthedContext } from '../../platform/route.ts';
import { id } from '../../platform/schemas.ts';
import { READ, columns, iso, optionalText } from './common.ts';

const item = z.object({
  Id: z.number(),
  Plate: z.string(),
  OwnerName: z.string().nullable(),
  Phone: z.string().nullable(),
  CardHolderId: z.number().nullable(),
  CardHolderName: z.string().nullable(),
  CardId: z.number().nullable(),
  CardNumber: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  /** The pass valid now, if any. */
  ActivePass: z
    .object({ Id: z.number(), RuleName: z.string(), ChargeType: z.number(), EndAt: z.string() })
    .nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
type Item = z.infer<typeof item>;

const fields = {
  // Not trimmed: the plate rule reports surrounding spaces (its message says so).
  Plate: z.string().max(10).superRefine(zodRule(plate)),
  OwnerName: optionalText(50),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  /**
   * The card holder and card of the access-control module, by id plus the name or number shown: plain
   * references until both modules are in (docs/garage.md, "Links to access control").
   */
  CardHolderId: id.nullable().optional(),
  CardHolderName: optionalText(50),
  CardId: id.nullable().optional(),
  CardNumber: optionalText(10).superRefine(zodRule(cardNumber)),
  Remark: optionalText(200),
};

async function enrich(ctx: AuthedContext, items: Item[]): Promise<Item[]> {
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
  read: READ,
  write: READ,
  item,
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
    values: (input) => ({
      OwnerName: null,
      Phone: null,
      CardHolderId: null,
      CardHolderName: null,
      CardId: null,
      CardNumber: null,
      Remark: null,
      ...columns(input),
    }),
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    values: (input) => columns(input),
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
