import {
  chargeType,
  enumLabel,
  paymentState,
  priceUnitKey,
  type Tariff,
  BICYCLE_ANY,
  parkOrderItem,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, type ResourceDef } from '../../../platform/resource.ts';
import type { UserContext } from '../../../platform/context.ts';
import { queryBool } from '../../../platform/schemas.ts';
import { iso, moneyCell } from '../common.ts';
import { actionsFor, orderActionRoutes } from '../order-actions.ts';
import { orderAmount } from '../pricing.ts';

type Item = z.infer<typeof parkOrderItem>;
type Row = Record<string, number | string | null>;

const rows = new WeakMap<Item, Row>();

function toItem(row: Row): Item {
  const out: Item = {
    Id: row.Id as number,
    OrderNo: row.OrderNo as string,
    ParkAreaId: row.ParkAreaId as number,
    ZoneName: row.ZoneName as string,
    Plate: row.Plate as string | null,
    CardNumber: row.CardNumber as string | null,
    VehicleId: row.VehicleId as number | null,
    EntryAt: iso(row.EntryAt as number)!,
    ExitAt: iso(row.ExitAt as number | null),
    Inside: row.ExitAt === null,
    ChargeRuleId: row.ChargeRuleId as number | null,
    RuleName: row.RuleName as string | null,
    ChargeType: row.ChargeType as number,
    TemporaryChargeType: row.TemporaryChargeType as number,
    UnitPriceCents: row.UnitPriceCents as number,
    PriceUnitKey: priceUnitKey(row as unknown as Tariff),
    FreeMinutes: row.FreeMinutes as number,
    CapCents: row.CapCents as number | null,
    DurationMinutes: 0,
    AmountCents: 0,
    Estimated: false,
    PaymentState: row.PaymentState as number,
    PaidAt: iso(row.PaidAt as number | null),
    RefundReason: row.RefundReason as string | null,
    CloseReason: row.CloseReason as string | null,
    Actions: [],
    UpdatedAt: iso(row.UpdatedAt as number)!,
  };
  rows.set(out, row);
  return out;
}

async function enrich(ctx: UserContext, items: Item[]): Promise<Item[]> {
  const now = ctx.clock.now();
  return items.map((i) => {
    const row = rows.get(i)!;
    const priced = orderAmount(
      row as never,
      { StartAt: row.EntryAt as number, EndAt: row.ExitAt as number | null },
      now,
    );
    return { ...i, ...priced, Actions: actionsFor(ctx, i.PaymentState, !i.Inside) };
  });
}

const def: ResourceDef<Item, z.ZodType, z.ZodType> = {
  name: 'ParkOrder',
  table: 'ParkOrder',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: [],
  item: parkOrderItem,
  query: (db) =>
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
  toItem,
  enrich,
  filters: {
    OrderNo: filter.like('ParkOrder.OrderNo'),
    Plate: filter.like('ParkOrder.Plate'),
    CardNumber: filter.like('ParkOrder.CardNumber'),
    Keyword: filter.keyword(['ParkOrder.Plate', 'ParkOrder.CardNumber', 'ParkOrder.OrderNo']),
    ParkAreaId: filter.id('ParkOrder.ParkAreaId'),
    ChargeRuleId: filter.id('ParkOrder.ChargeRuleId'),
    VehicleId: filter.id('ParkOrder.VehicleId'),
    PaymentState: filter.oneOf('ParkOrder.PaymentState', paymentState),
    ChargeType: filter.oneOf('ParkOrder.ChargeType', chargeType),
    Inside: {
      schema: queryBool,
      where: (eb, inside: boolean) => eb('ParkOrder.ExitAt', inside ? 'is' : 'is not', null),
    },
  },
  sorts: {
    EntryAt: 'ParkOrder.EntryAt',
    ExitAt: 'ParkOrder.ExitAt',
    AmountCents: 'ParkOrder.AmountCents',
    PaymentState: 'ParkOrder.PaymentState',
  },
  defaultOrder: 'desc',
  timeRange: { column: 'ParkOrder.EntryAt', requiredForExport: true },
  export: {
    titleKey: 'garage.title.parkorderRecords',
    columns: [
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'Plate', labelKey: 'garage.field.Plate', width: 12 },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'EntryAt', labelKey: 'garage.field.EntryAt', kind: 'instant' },
      { key: 'ExitAt', labelKey: 'garage.field.ExitAt', kind: 'instant' },
      { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
      { key: 'RuleName', labelKey: 'garage.field.RuleName', width: 20 },
      { key: 'AmountCents', labelKey: 'garage.field.Fee', label: moneyCell },
      {
        key: 'PaymentState',
        labelKey: 'garage.field.PaymentState',
        width: 16,
        label: (v, lang) => enumLabel(lang, paymentState, v),
      },
      { key: 'PaidAt', labelKey: 'garage.field.PaidAt', kind: 'instant' },
      { key: 'RefundReason', labelKey: 'garage.field.RefundReason', width: 30 },
      { key: 'CloseReason', labelKey: 'garage.field.CloseReason', width: 30 },
    ],
  },
};

/** Temporary parking orders (spec screen parkorderRecords): list, detail, export and the payment actions. */
export const parkOrderRoutes = [
  ...orderActionRoutes('ParkOrder', def, parkOrderItem),
  ...defineResource(def),
];
