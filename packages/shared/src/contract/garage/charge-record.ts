import { z } from 'zod';
import { chargeStopReason } from '../../enums/garage.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
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
