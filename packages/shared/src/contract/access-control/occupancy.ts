import { z } from 'zod';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema, pageOf, paging } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * Who is inside an area (docs/access-control.md, "Occupancy and muster"; issue 31): every holder whose last
 * granted swipe was at an in reader since the area's reset hour last came round, with that swipe. Kept by the
 * swipe ingest in the record's own transaction, so it follows every stored swipe exactly, on any instance.
 */

/** A holder inside now, with the swipe that brought them in. */
export const occupancyItem = z.object({
  /** The holder's id, as CardUserId: one row per holder. */
  Id: z.number(),
  CardUserId: z.number(),
  /** The holder's name (a visitor's, for a visitor pass). */
  Name: z.string(),
  Phone: z.string().nullable(),
  DepartmentName: z.string().nullable(),
  /** A visitor on a pass, not one of the area's people. */
  Visitor: z.boolean(),
  /** Their last swipe (granted, at an in reader): when, with which card, at which door. */
  LastAt: z.string(),
  CardNumber: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string().nullable(),
  DoorNumber: z.number(),
});
export type OccupancyItem = z.output<typeof occupancyItem>;

/** An area's occupancy at a glance (the muster screen's header, the dashboard's figure). */
export const occupancySummary = z.object({
  /** Holders inside now, and of them visitors. */
  Inside: z.number(),
  Visitors: z.number(),
  /** When the reset hour last came round: swipes in before it no longer count. */
  Since: z.string(),
  /** The area's reset hour (0..23, the area's zone). */
  ResetHour: z.number(),
  TimeZone: z.string(),
  /** The roll call under way in the area, if any: how many of how many are still missing. */
  Muster: z
    .object({
      Id: z.number(),
      StartedAt: z.string(),
      Total: z.number(),
      Safe: z.number(),
      Missing: z.number(),
    })
    .nullable(),
});
export type OccupancySummary = z.output<typeof occupancySummary>;

export const OCCUPANCY_SORTS = ['LastAt', 'Name'] as const;

/** The list's query: paging, the sort, and what an operator narrows it by. */
export const occupancyQuery = z.object({
  ...paging,
  SortField: z.enum(OCCUPANCY_SORTS).optional(),
  SortOrder: z.enum(['asc', 'desc']).optional(),
  /** Name, phone or card number. */
  Keyword: filterSchema.text().optional(),
  /** The holder's department, with its sub-departments. */
  DepartmentId: filterSchema.id().optional(),
  /** Came in through a reader of this controller. */
  DeviceId: filterSchema.id().optional(),
  /** Visitors only (true) or the area's people only (false). */
  Visitor: filterSchema.flag().optional(),
});

const common = { tag: ACCESS_CONTROL_TAG, area: true } as const;

export const OccupancyApi = {
  name: 'Occupancy',
  list: operation({
    ...common,
    access: ACCESS_CONTROL_ANY,
    method: 'GET',
    path: '/api/Occupancy',
    summary:
      "Who is inside the area now: each holder whose last granted swipe since the area's reset hour was at an in reader, with that swipe (newest first)",
    query: occupancyQuery,
    reply: pageOf(occupancyItem),
  }),
  summary: operation({
    ...common,
    access: ACCESS_CONTROL_ANY,
    method: 'GET',
    path: '/api/Occupancy/Summary',
    summary: 'How many are inside the area now, since when they count, and the roll call under way',
    reply: occupancySummary,
  }),
  settings: operation({
    ...common,
    access: ACCESS_CONTROL_ADMIN,
    method: 'PUT',
    path: '/api/Occupancy/Settings',
    summary:
      "The area's reset hour (0..23, the area's time zone): whoever swiped in and not out is no longer counted once it comes round",
    body: z.strictObject({ ResetHour: z.number().int().min(0).max(23) }),
    reply: occupancySummary,
  }),
};
