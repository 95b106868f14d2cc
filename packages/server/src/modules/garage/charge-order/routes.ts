import {
  chargeStopReason,
  chargeType,
  enumLabel,
  formatKWh,
  paymentState,
  priceUnitKey,
  type Tariff,
  BICYCLE_ANY,
  chargeOrderItem,
} from '@gatehouse/shared';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, type ResourceDef } from '../../../platform/resource.ts';
import type { UserContext } from '../../../platform/context.ts';
import { queryBool } from '../../../platform/schemas.ts';
import { iso, moneyCell } from '../common.ts';
import { actionsFor, orderActionRoutes } from '../order-actions.ts';
import { orderAmount } from '../pricing.ts';
import { sessionFilters, socketPlaces } from '../session-details.ts';
import type { ChargeOrderTable } from '../tables.ts';

export type ChargeOrderItem = z.infer<typeof chargeOrderItem>;
type Row = Selectable<ChargeOrderTable>;

/** The order's own columns; what happened at the session comes per page in enrich. */
function toItem(row: Row): ChargeOrderItem {
  return {
    Id: row.Id,
    OrderNo: row.OrderNo,
    ChargeRecordId: row.ChargeRecordId,
    ChargeEquipmentId: 0,
    PortNumber: 0,
    ChargeHostId: 0,
    HostName: '',
    ParkAreaId: 0,
    ZoneName: '',
    CardNumber: null,
    StartAt: iso(row.CreatedAt)!,
    EndAt: iso(row.SettledAt),
    Open: row.SettledAt === null,
    EnergyWh: 0,
    StopReason: null,
    Forced: false,
    ChargeRuleId: row.ChargeRuleId,
    RuleName: null,
    ChargeType: row.ChargeType,
    TemporaryChargeType: row.TemporaryChargeType,
    UnitPriceCents: row.UnitPriceCents,
    PriceUnitKey: priceUnitKey(row as Tariff),
    FreeMinutes: row.FreeMinutes,
    CapCents: row.CapCents,
    DurationMinutes: 0,
    AmountCents: 0,
    Estimated: false,
    PaymentState: row.PaymentState,
    PaidAt: iso(row.PaidAt),
    RefundReason: row.RefundReason,
    CloseReason: row.CloseReason,
    Actions: [],
    UpdatedAt: iso(row.UpdatedAt)!,
  };
}

const rows = new WeakMap<ChargeOrderItem, Row>();

async function enrich(ctx: UserContext, items: ChargeOrderItem[]): Promise<ChargeOrderItem[]> {
  const k = ctx.db.kysely;
  const now = ctx.clock.now();
  const [sessions, rules] = await Promise.all([
    k
      .selectFrom('ChargeRecord')
      .selectAll()
      .where(
        'Id',
        'in',
        items.map((i) => i.ChargeRecordId),
      )
      .execute(),
    k
      .selectFrom('ChargeRule')
      .select(['Id', 'Name'])
      .where('Id', 'in', [...new Set(items.map((i) => i.ChargeRuleId ?? 0))])
      .execute(),
  ]);
  const places = await socketPlaces(
    k,
    sessions.map((s) => s.ChargeEquipmentId),
  );
  return items.map((item) => {
    const session = sessions.find((s) => s.Id === item.ChargeRecordId)!;
    const priced = orderAmount(rows.get(item)!, session, now);
    return {
      ...item,
      ...places.get(session.ChargeEquipmentId)!,
      ChargeEquipmentId: session.ChargeEquipmentId,
      CardNumber: session.CardNumber,
      EnergyWh: session.EnergyWh,
      StopReason: session.StopReason,
      Forced: session.StopReason === 3,
      RuleName: rules.find((r) => r.Id === item.ChargeRuleId)?.Name ?? null,
      ...priced,
      Actions: actionsFor(ctx, item.PaymentState, !item.Open),
    };
  });
}

const def: ResourceDef<ChargeOrderItem, z.ZodType, z.ZodType> = {
  name: 'ChargeOrder',
  table: 'ChargeOrder',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: [],
  item: chargeOrderItem,
  query: (db) => db.selectFrom('ChargeOrder').selectAll('ChargeOrder'),
  toItem: (row) => {
    const item = toItem(row as Row);
    rows.set(item, row as Row);
    return item;
  },
  enrich,
  filters: {
    OrderNo: filter.like('ChargeOrder.OrderNo'),
    PaymentState: filter.oneOf('ChargeOrder.PaymentState', paymentState),
    ChargeType: filter.oneOf('ChargeOrder.ChargeType', chargeType),
    ChargeRuleId: filter.id('ChargeOrder.ChargeRuleId'),
    ChargeRecordId: filter.id('ChargeOrder.ChargeRecordId'),
    Open: {
      schema: queryBool,
      where: (eb, open: boolean) => eb('ChargeOrder.SettledAt', open ? 'is' : 'is not', null),
    },
    ...sessionFilters('ChargeOrder.ChargeRecordId'),
  },
  sorts: {
    StartAt: 'ChargeOrder.CreatedAt',
    AmountCents: 'ChargeOrder.AmountCents',
    PaymentState: 'ChargeOrder.PaymentState',
    UpdatedAt: 'ChargeOrder.UpdatedAt',
  },
  defaultOrder: 'desc',
  timeRange: { column: 'ChargeOrder.CreatedAt', requiredForExport: true },
  export: {
    titleKey: 'garage.title.chargeorderRecords',
    columns: [
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'StartAt', labelKey: 'garage.field.StartAt', kind: 'instant' },
      { key: 'EndAt', labelKey: 'garage.field.EndAt', kind: 'instant' },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
      { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      { key: 'RuleName', labelKey: 'garage.field.RuleName', width: 20 },
      { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
      { key: 'EnergyWh', labelKey: 'garage.field.EnergyKWh', label: (v: number) => formatKWh(v) },
      { key: 'AmountCents', labelKey: 'garage.field.Amount', label: moneyCell },
      {
        key: 'PaymentState',
        labelKey: 'garage.field.PaymentState',
        width: 16,
        label: (v, lang) => enumLabel(lang, paymentState, v),
      },
      {
        key: 'StopReason',
        labelKey: 'garage.field.StopReason',
        width: 20,
        label: (v, lang) => enumLabel(lang, chargeStopReason, v),
      },
      { key: 'PaidAt', labelKey: 'garage.field.PaidAt', kind: 'instant' },
      { key: 'RefundReason', labelKey: 'garage.field.RefundReason', width: 30 },
      { key: 'CloseReason', labelKey: 'garage.field.CloseReason', width: 30 },
    ],
  },
};

/** Charging orders (spec screen chargeorderRecords): list, detail, export and the payment actions. */
export const chargeOrderRoutes = [
  ...orderActionRoutes('ChargeOrder', def, chargeOrderItem),
  ...defineResource(def),
];
