import {
  chargeStopReason,
  durationMinutes,
  enumLabel,
  formatKWh,
  BICYCLE_ANY,
  chargeRecordItem,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, type ResourceDef } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { queryBool } from '../../../platform/schemas.ts';
import { iso, moneyCell } from '../common.ts';
import { orderAmount } from '../pricing.ts';
import { placeFilters, socketPlaces } from '../session-details.ts';

type Item = z.infer<typeof chargeRecordItem>;
type Row = Record<string, number | string | null>;

function toItem(row: Row): Item {
  return {
    Id: row.Id as number,
    ChargeEquipmentId: row.ChargeEquipmentId as number,
    PortNumber: 0,
    ChargeHostId: 0,
    HostName: '',
    ParkAreaId: 0,
    ZoneName: '',
    CardNumber: row.CardNumber as string | null,
    StartAt: iso(row.StartAt as number)!,
    EndAt: iso(row.EndAt as number | null),
    Open: row.EndAt === null,
    EnergyWh: row.EnergyWh as number,
    DurationMinutes: 0,
    StopReason: row.StopReason as number | null,
    ChargeOrderId: null,
    OrderNo: null,
    AmountCents: null,
    Estimated: false,
    PaymentState: null,
  };
}

/** Per page: where each session happened, its order, and durations and amounts against the clock. */
async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
  const k = ctx.db.kysely;
  const now = ctx.clock.now();
  const [places, orders] = await Promise.all([
    socketPlaces(
      k,
      items.map((i) => i.ChargeEquipmentId),
    ),
    k
      .selectFrom('ChargeOrder')
      .selectAll()
      .where(
        'ChargeRecordId',
        'in',
        items.map((i) => i.Id),
      )
      .execute(),
  ]);
  return items.map((item) => {
    const startAt = Date.parse(item.StartAt);
    const endAt = item.EndAt === null ? null : Date.parse(item.EndAt);
    const order = orders.find((o) => o.ChargeRecordId === item.Id);
    const usage = { StartAt: startAt, EndAt: endAt, EnergyWh: item.EnergyWh };
    const priced = order
      ? orderAmount(order, usage, now)
      : {
          DurationMinutes: durationMinutes(startAt, Math.max(endAt ?? now, startAt)),
          AmountCents: null,
          Estimated: false,
        };
    return {
      ...item,
      ...places.get(item.ChargeEquipmentId)!,
      ...priced,
      ChargeOrderId: order?.Id ?? null,
      OrderNo: order?.OrderNo ?? null,
      PaymentState: order?.PaymentState ?? null,
    };
  });
}

const def: ResourceDef<Item, z.ZodType, z.ZodType> = {
  name: 'ChargeRecord',
  table: 'ChargeRecord',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: [],
  item: chargeRecordItem,
  query: (db) =>
    db
      .selectFrom('ChargeRecord')
      .select([
        'ChargeRecord.Id',
        'ChargeRecord.ChargeEquipmentId',
        'ChargeRecord.CardNumber',
        'ChargeRecord.StartAt',
        'ChargeRecord.EndAt',
        'ChargeRecord.EnergyWh',
        'ChargeRecord.StopReason',
      ]),
  toItem,
  enrich,
  filters: {
    CardNumber: filter.like('ChargeRecord.CardNumber'),
    ...placeFilters('ChargeRecord.ChargeEquipmentId'),
    StopReason: filter.oneOf('ChargeRecord.StopReason', chargeStopReason),
    Open: {
      schema: queryBool,
      where: (eb, open: boolean) => eb('ChargeRecord.EndAt', open ? 'is' : 'is not', null),
    },
  },
  sorts: { StartAt: 'ChargeRecord.StartAt', EndAt: 'ChargeRecord.EndAt', EnergyWh: 'ChargeRecord.EnergyWh' },
  defaultOrder: 'desc',
  timeRange: { column: 'ChargeRecord.StartAt', requiredForExport: true },
  export: {
    titleKey: 'garage.title.chargeRecords',
    columns: [
      { key: 'StartAt', labelKey: 'garage.field.StartAt', kind: 'instant' },
      { key: 'EndAt', labelKey: 'garage.field.EndAt', kind: 'instant' },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
      { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
      { key: 'EnergyWh', labelKey: 'garage.field.EnergyKWh', label: (v: number) => formatKWh(v) },
      {
        key: 'StopReason',
        labelKey: 'garage.field.StopReason',
        width: 20,
        label: (v, lang) => enumLabel(lang, chargeStopReason, v),
      },
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'AmountCents', labelKey: 'garage.field.Amount', label: moneyCell },
    ],
  },
};

/** Charging records (spec screen chargeRecords): sessions as measured, read-only. */
export const chargeRecordRoutes = defineResource(def);
