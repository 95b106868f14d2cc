import { z } from 'zod';
import { chargeType, paymentState } from '../../enums/garage.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { GARAGE_TAG, orderActionOperations, orderFields, placeFilters, sessionFields } from './common.ts';

/**
 * One line of an itemised order (the shared engine's PriceLine; docs/garage.md, "Tariff dimensions"):
 * AmountCents is Quantity × UnitPriceCents per PriceUnit, rounded half up to the cent; the cap line is negative.
 */
export const priceLine = z.object({
  Kind: z.enum(['time', 'band', 'energy', 'period', 'use', 'service', 'idle', 'cap']),
  /** Catalogue key naming the line (garage.priceLine.<Kind>), with its placeholders. */
  LabelKey: z.string(),
  LabelParams: z.record(z.string(), z.union([z.string(), z.number()])),
  Quantity: z.number(),
  QuantityUnit: z.enum(['hour', 'Wh', 'use', 'minute']).nullable(),
  UnitPriceCents: z.number(),
  PriceUnit: z.enum(['hour', 'kWh', 'use']).nullable(),
  AmountCents: z.number(),
});

/** A ChargeOrder row, as GET /api/ChargeOrder lists it and GET /api/ChargeOrder/{Id} returns it. */
export const chargeOrderItem = z.object({
  Id: z.number(),
  ChargeRecordId: z.number(),
  ...sessionFields,
  /** Ended by a forced power-off. */
  Forced: z.boolean(),
  ...orderFields,
  /**
   * The itemised order, adding up to AmountCents: stored when the order was settled, or while the session runs
   * the live estimate's. Empty when it costs nothing (grace period, pass); null for an order settled before
   * orders were itemised.
   */
  Lines: z.array(priceLine).nullable(),
  /** The terms of the tariff dimensions the order copied from its rule (null: not used). */
  PowerBands: z.array(z.object({ UpToW: z.number(), PriceCents: z.number() })).nullable(),
  TimeOfDay: z.array(z.object({ From: z.string(), To: z.string(), PriceCentsPerKWh: z.number() })).nullable(),
  IdleFeeCentsPerHour: z.number().nullable(),
  IdleGraceMinutes: z.number().nullable(),
  ServiceFeeCents: z.number().nullable(),
});
export type PriceLineItem = z.output<typeof priceLine>;
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
