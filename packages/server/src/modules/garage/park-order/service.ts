import type { ParkOrderItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import { iso, itemById, type ItemView } from '../common/index.ts';
import { orderFieldsOf, pricedOrder, rowsOfItems, type OrderColumns } from '../common/orders.ts';

type Row = OrderColumns & {
  Id: number;
  ParkAreaId: number;
  ZoneName: string;
  Plate: string | null;
  CardNumber: string | null;
  VehicleId: number | null;
  EntryAt: number;
  ExitAt: number | null;
  RuleName: string | null;
};
type Ctx = UserContext & AreaContext;

const rows = rowsOfItems<Row, ParkOrderItem>();

function parkOrderItem(row: Row): ParkOrderItem {
  const item: ParkOrderItem = {
    Id: row.Id,
    ParkAreaId: row.ParkAreaId,
    ZoneName: row.ZoneName,
    Plate: row.Plate,
    CardNumber: row.CardNumber,
    VehicleId: row.VehicleId,
    EntryAt: iso(row.EntryAt)!,
    ExitAt: iso(row.ExitAt),
    Inside: row.ExitAt === null,
    ...orderFieldsOf(row),
    RuleName: row.RuleName,
  };
  return rows.keep(item, row);
}

/** Per page: each stay's fee (or its estimate while inside) and the actions the caller may take. */
async function withFees(ctx: Ctx, items: ParkOrderItem[]): Promise<ParkOrderItem[]> {
  return items.map((item) => {
    const row = rows.rowOf(item);
    return { ...item, ...pricedOrder(ctx, row, { StartAt: row.EntryAt, EndAt: row.ExitAt }, !item.Inside) };
  });
}

/** Parking orders as their list shows them: with the zone's and the rule's names. */
export const parkOrderView: ItemView<ParkOrderItem, Ctx> = {
  table: 'ParkOrder',
  query: (db: Kysely<Database>) =>
    db
      .selectFrom('ParkOrder')
      .innerJoin('ParkArea', 'ParkArea.Id', 'ParkOrder.ParkAreaId')
      .leftJoin('ChargeRule', 'ChargeRule.Id', 'ParkOrder.ChargeRuleId')
      .select([
        'ParkOrder.Id',
        'ParkOrder.OrderNo',
        'ParkOrder.ParkAreaId',
        'ParkArea.Name as ZoneName',
        'ParkOrder.Plate',
        'ParkOrder.CardNumber',
        'ParkOrder.VehicleId',
        'ParkOrder.EntryAt',
        'ParkOrder.ExitAt',
        'ParkOrder.ChargeRuleId',
        'ChargeRule.Name as RuleName',
        'ParkOrder.ChargeType',
        'ParkOrder.TemporaryChargeType',
        'ParkOrder.UnitPriceCents',
        'ParkOrder.TimeUnit',
        'ParkOrder.FreeMinutes',
        'ParkOrder.CapCents',
        'ParkOrder.AmountCents',
        'ParkOrder.PaymentState',
        'ParkOrder.PaidAt',
        'ParkOrder.RefundReason',
        'ParkOrder.CloseReason',
        'ParkOrder.UpdatedAt',
      ]),
  toItem: parkOrderItem,
  enrich: withFees,
};

export const parkOrderById = (ctx: Ctx, id: number) => itemById(parkOrderView, ctx, id);
