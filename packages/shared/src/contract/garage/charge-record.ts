import { z } from 'zod';
import { chargeStopReason } from '../../enums/garage.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { priceLine } from './charge-order.ts';
import { GARAGE_TAG, placeFilters, sessionFields } from './common.ts';

/** A ChargeRecord row, as GET /api/ChargeRecord lists it and GET /api/ChargeRecord/{Id} returns it. */
export const chargeRecordItem = z.object({
  Id: z.number(),
  ...sessionFields,
  DurationMinutes: z.number(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  /** The order's price, or the live estimate while the session runs. */
  AmountCents: z.number().nullable(),
  Estimated: z.boolean(),
  PaymentState: z.number().nullable(),
  /**
   * The order's itemised lines, as the charging-order list has them (stored at settlement, the live estimate's
   * while the session runs, read from the terms for an order settled before orders were itemised when they give
   * its amount); null without an order or when they cannot be told. A card's history shows what it paid for.
   */
  Lines: z.array(priceLine).nullable(),
});
export type ChargeRecordItem = z.output<typeof chargeRecordItem>;

/** Charging records (spec screen chargeRecords): sessions as measured, read-only. */
export const ChargeRecordApi = resourceApi({
  name: 'ChargeRecord',
  tag: GARAGE_TAG,
  area: true,
  read: BICYCLE_ANY,
  write: [],
  item: chargeRecordItem,
  filters: {
    CardNumber: filterSchema.text(),
    ...placeFilters,
    StopReason: filterSchema.oneOf(chargeStopReason),
    Open: filterSchema.flag(),
  },
  sorts: ['StartAt', 'EndAt', 'EnergyWh'],
  timeRange: true,
});
