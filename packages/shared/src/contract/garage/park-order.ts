import { z } from 'zod';
import { chargeType, paymentState } from '../../enums/garage.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { GARAGE_TAG, orderActionOperations, orderFields } from './common.ts';

/** A ParkOrder row, as GET /api/ParkOrder lists it and GET /api/ParkOrder/{Id} returns it. */
export const parkOrderItem = z.object({
  Id: z.number(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  Plate: z.string().nullable(),
  CardNumber: z.string().nullable(),
  VehicleId: z.number().nullable(),
  EntryAt: z.string(),
  ExitAt: z.string().nullable(),
  /** The vehicle is still inside. */
  Inside: z.boolean(),
  ...orderFields,
});
export type ParkOrderItem = z.output<typeof parkOrderItem>;

/** Temporary parking orders (spec screen parkorderRecords): list, detail, export and the payment actions. */
export const ParkOrderApi = {
  ...orderActionOperations('ParkOrder', parkOrderItem),
  ...resourceApi({
    name: 'ParkOrder',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: [],
    item: parkOrderItem,
    filters: {
      OrderNo: filterSchema.text(),
      Plate: filterSchema.text(),
      CardNumber: filterSchema.text(),
      Keyword: filterSchema.text(),
      ParkAreaId: filterSchema.id(),
      ChargeRuleId: filterSchema.id(),
      VehicleId: filterSchema.id(),
      PaymentState: filterSchema.oneOf(paymentState),
      ChargeType: filterSchema.oneOf(chargeType),
      Inside: filterSchema.flag(),
    },
    sorts: ['EntryAt', 'ExitAt', 'AmountCents', 'PaymentState'],
    timeRange: true,
  }),
};
