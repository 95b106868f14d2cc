import { z } from 'zod';
import { MUSTER_MARK_MAX, MUSTER_POINTS_MAX, MUSTER_TEXT_MAX } from '../../occupancy-rules.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema, id, idList, optionalText } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * A muster, or roll call (docs/access-control.md, "Occupancy and muster"; issue 31): everyone inside the area when
 * it starts is on its roll, missing until marked safe, by hand or by a granted swipe at a reader chosen as a muster
 * point, until an operator ends it. One at a time per area.
 */

/** How a person on the roll was marked safe. */
export const MUSTER_SAFE_HOW = ['hand', 'swipe'] as const;
export type MusterSafeHow = (typeof MUSTER_SAFE_HOW)[number];

/** A reader chosen as a muster point, named as it was when the roll call started. */
export const musterPoint = z.object({
  ChannelId: z.number(),
  ChannelName: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
});
export type MusterPoint = z.output<typeof musterPoint>;

/** A roll call as its list, its detail, the live hub and the outward events show it. */
export const musterItem = z.object({
  Id: z.number(),
  AreaId: z.number(),
  Reason: z.string().nullable(),
  StartedAt: z.string(),
  StartedBy: z.string(),
  /** Null while it is under way. */
  EndedAt: z.string().nullable(),
  EndedBy: z.string().nullable(),
  Note: z.string().nullable(),
  Points: z.array(musterPoint),
  /** People on the roll (inside when it started), those marked safe, those still missing. */
  Total: z.number(),
  Safe: z.number(),
  Missing: z.number(),
});
export type MusterItem = z.output<typeof musterItem>;

/** A person on a roll call: who, where they were last seen coming in, and whether and how they were found safe. */
export const musterPersonItem = z.object({
  Id: z.number(),
  MusterId: z.number(),
  CardUserId: z.number(),
  Name: z.string(),
  Phone: z.string().nullable(),
  DepartmentName: z.string().nullable(),
  Visitor: z.boolean(),
  CardNumber: z.string(),
  /** Their last swipe in before the roll call started, and its door. */
  LastAt: z.string(),
  DeviceName: z.string(),
  ChannelName: z.string().nullable(),
  Safe: z.boolean(),
  SafeAt: z.string().nullable(),
  SafeHow: z.enum(MUSTER_SAFE_HOW).nullable(),
  /** The operator who marked them, or the muster point they swiped at. */
  SafeBy: z.string().nullable(),
  /** The operator's note with a mark by hand. */
  Note: z.string().nullable(),
});
export type MusterPersonItem = z.output<typeof musterPersonItem>;

const text = optionalText(MUSTER_TEXT_MAX);
const common = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ANY, area: true } as const;

/**
 * Roll calls (AccessControl/Admin or User of the area, as visitor passes): listed and read through the resource,
 * started, marked and ended by their own operations. None is created, changed or deleted otherwise.
 */
export const MusterApi = {
  ...resourceApi({
    name: 'Muster',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: musterItem,
    filters: {
      /** Under way (true) or ended (false). */
      Active: filterSchema.flag(),
    },
    sorts: ['StartedAt', 'Id'],
  }),
  start: operation({
    ...common,
    method: 'POST',
    path: '/api/Muster/Start',
    summary:
      'Start a roll call of everyone inside the area now, with the readers chosen as muster points (a granted swipe there marks its holder safe); 409 while one is under way',
    body: z.strictObject({
      /** The area of X-Area-Id. */
      AreaId: id,
      /** Muster points: readers of the area (none: people are marked by hand only). */
      ChannelIds: z.array(id).max(MUSTER_POINTS_MAX),
      Reason: text,
    }),
    reply: musterItem,
  }),
  markSafe: operation({
    ...common,
    method: 'POST',
    path: '/api/Muster/MarkSafe',
    summary: 'Mark people on a roll call under way safe by hand (those already safe stay as they were)',
    body: z.strictObject({ Id: id, CardUserIds: idList(MUSTER_MARK_MAX), Note: text }),
    reply: musterItem,
  }),
  end: operation({
    ...common,
    method: 'POST',
    path: '/api/Muster/End',
    summary: 'End a roll call under way: its result (who was safe, who was missing) stays as it is',
    body: z.strictObject({ Id: id, Note: text }),
    reply: musterItem,
  }),
};

/** The people on roll calls: a roll call's result, listed, filtered and exported. */
export const MusterPersonApi = resourceApi({
  name: 'MusterPerson',
  tag: ACCESS_CONTROL_TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: musterPersonItem,
  filters: {
    MusterId: filterSchema.id(),
    /** Safe (true) or still missing (false). */
    Safe: filterSchema.flag(),
    /** Name, phone or card number. */
    Keyword: filterSchema.text(),
  },
  sorts: ['Name', 'SafeAt', 'LastAt', 'Id'],
});
