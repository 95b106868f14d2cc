import { z } from 'zod';
import { forcedOutageResult } from '../../enums/garage.ts';
import { operation, resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';
import { GARAGE_TAG, placeFilters, socketPlaceFields } from './common.ts';

/** A ForcedOutageRecord row, as GET /api/ForcedOutageRecord lists it and GET /api/ForcedOutageRecord/{Id} returns it. */
export const forcedOutageRecordItem = z.object({
  Id: z.number(),
  At: z.string(),
  ...socketPlaceFields,
  ChargeRecordId: z.number().nullable(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  CardNumber: z.string().nullable(),
  /** The ended order's price. */
  AmountCents: z.number().nullable(),
  Reason: z.string(),
  Result: z.number(),
  /** Why it was not sent or failed (garage.powerOffResult.<code>), and that text in the caller's language. */
  ResultReason: z.string().nullable().optional(),
  ResultText: z.string().nullable().optional(),
  UserName: z.string(),
});
export type ForcedOutageRecordItem = z.output<typeof forcedOutageRecordItem>;

/** What an operator sends to cut a socket's power. */
export const powerOffBody = z.strictObject({
  ChargeEquipmentId: id,
  /** The session the operator saw running; if it has ended since (a second click), 409 and nothing changes. */
  ChargeRecordId: id.optional(),
  Reason: z.string().trim().min(1).max(200),
});
export type PowerOffBody = z.output<typeof powerOffBody>;

/**
 * Forced power-off records (spec screen forcedOutageRecords), and the power-off itself: it is addressed to
 * the socket (`/api/ChargeEquipment/ForcedPowerOff`) and answers the record it wrote.
 */
export const ForcedOutageRecordApi = {
  powerOff: operation({
    method: 'POST',
    path: '/api/ChargeEquipment/ForcedPowerOff',
    summary:
      'Forced power-off of a socket with a reason: ends its running session and settles the order once (409 if that session already ended)',
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    body: powerOffBody,
    reply: forcedOutageRecordItem,
  }),
  ...resourceApi({
    name: 'ForcedOutageRecord',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: [],
    item: forcedOutageRecordItem,
    filters: {
      ...placeFilters,
      Result: filterSchema.oneOf(forcedOutageResult),
      UserName: filterSchema.text(),
      Keyword: filterSchema.text(),
    },
    sorts: ['At'],
    timeRange: true,
  }),
};
