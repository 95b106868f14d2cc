import { z } from 'zod';
import { cardNumberItem } from '../../validators/rules.ts';
import { zodRule } from '../../validators/adapters.ts';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { endAfterStart, idText, instantText, pageOf, paging, queryBool } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** A DoorOpeningRecord row, as GET /api/DoorOpeningRecord lists it (and the hub's Swipe and DoorAlarm carry it). */
export const doorOpeningRecordItem = z.object({
  Id: z.number(),
  At: z.string(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardUserId: z.number().nullable(),
  HolderName: z.string().nullable(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string().nullable(),
  DoorNumber: z.number(),
  Direction: z.number(),
  Result: z.boolean(),
  Reason: z.number(),
  /** From a controller's ring (docs/devices.md): record type (1 swipe, 2 door event, 3 alarm), its own reason code (WG: 20 button, 38 forced open, 44 remote open…) and ring index; null for records not read from a controller. */
  EventType: z.number().nullable(),
  EventReason: z.number().nullable(),
  RecordIndex: z.number().nullable(),
  /** A remote open (event 44/45): the user who opened the door from Gatehouse, from the operation log; else null. */
  OpenedBy: z.string().nullable().optional(),
});
export type DoorOpeningRecordItem = z.output<typeof doorOpeningRecordItem>;

/** The swipe list's filters (query parameters), also what its export takes. */
const swipeFilters = {
  Result: queryBool.optional(),
  DeviceId: idText.optional(),
  CardUserId: idText.optional(),
  /** Holders whose current name contains the text. */
  HolderName: z.string().trim().min(1).max(50).optional(),
  /** A whole card number (leading zeros optional). */
  CardNumber: z.string().trim().superRefine(zodRule(cardNumberItem)).optional(),
  StartTime: instantText.optional(),
  EndTime: instantText.optional(),
};

const timeOrder = endAfterStart('StartTime', 'EndTime');

export const swipeFilterQuery = z.object(swipeFilters).superRefine(timeOrder);
export type SwipeQuery = z.output<typeof swipeFilterQuery>;

/**
 * Door-opening (swipe) records: a read-only list with its own service (exact totals and deep pages on
 * millions of rows, docs/performance.md) and its export. Records are written by the device gateway only.
 */
export const DoorOpeningRecordApi = {
  name: 'DoorOpeningRecord' as const,
  /** The list's query without paging: what an export of it takes. */
  filterQuery: swipeFilterQuery,
  list: operation({
    method: 'GET',
    path: '/api/DoorOpeningRecord',
    summary:
      'Swipe records, newest first: StartTime/EndTime (at most 61 days), Result, DeviceId, CardUserId, HolderName, CardNumber',
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    query: z.object({ ...paging, ...swipeFilters }).superRefine(timeOrder),
    reply: pageOf(doorOpeningRecordItem),
  }),
};
