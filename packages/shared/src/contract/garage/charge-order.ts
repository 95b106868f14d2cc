import { z } from 'zod';
import { chargeType, paymentState } from '../../enums/garage.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { GARAGE_TAG, orderActionOperations, orderFields, placeFilters, sessionFields } from './common.ts';

/** A ChargeOrder row, as GET /api/ChargeOrder lists it and GET /api/ChargeOrder/{Id} returns it. */
export const chargeOrderItem = z.object({
  Id: z.number(),
  ChargeRecordId: z.number(),
  ...sessionFields,
  /** Ended by a forced power-off. */
  Forced: z.boolean(),
  ...orderFields,
});
export type ChargeOrderItem = z.output<typeof chargeOrderItem>;

/** Charging orders (spec screen chargeorderRecords): list, detail, export and the payment actions. */
export const ChargeOrderApi = {
  ...orderActionOperations('ChargeOrder', chargeOrderItem),
  ...resourceApi({
    name: 'ChargeOrder',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: [],
    item: chargeOrderItem,
    filters: {
      OrderNo: filterSchema.text(),
      PaymentState: filterSchema.oneOf(paymentState),
      ChargeType: filterSchema.oneOf(chargeType),
      ChargeRuleId: filterSchema.id(),
      ChargeRecordId: filterSchema.id(),
      Open: filterSchema.flag(),
      ...placeFilters,
      CardNumber: filterSchema.text(),
      /** Ended by a forced power-off (true), or not (false). */
      Forced: filterSchema.flag(),
    },
    sorts: ['StartAt', 'AmountCents', 'PaymentState', 'UpdatedAt'],
    timeRange: true,
  }),
};
