import { z } from 'zod';
import { isLocalDate, isLocalMinute, minuteOfDay } from '../../access-rules.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema, id, optionalText } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** A calendar date of the area's wall clock, YYYY-MM-DD (controllers keep local dates). */
export const localDate = z.string().refine(isLocalDate, 'validation.invalid');
/** A minute of the area's wall clock, HH:mm. */
export const localMinute = z.string().refine(isLocalMinute, 'validation.invalid');
/** Days of the week, 1 Monday .. 7 Sunday, each once. */
export const weekdayList = z
  .array(z.number().int().min(1).max(7))
  .min(1)
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'validation.invalid');

/** A date range of a body: the end is not before the start (reported on EndDate). */
export function dateOrder(value: { StartDate: string; EndDate: string }, ctx: z.RefinementCtx): void {
  if (value.EndDate < value.StartDate)
    ctx.addIssue({ code: 'custom', path: ['EndDate'], message: 'validation.endBeforeStart' });
}

/** One window of a day, both ends included (a controller checks at minute resolution). */
export const profileSegment = z
  .strictObject({ Start: localMinute, End: localMinute })
  .superRefine((s, ctx) => {
    if (isLocalMinute(s.Start) && isLocalMinute(s.End) && minuteOfDay(s.End) <= minuteOfDay(s.Start))
      ctx.addIssue({ code: 'custom', path: ['End'], message: 'validation.endBeforeStart' });
  });

export const timeProfileItem = z.object({
  Id: z.number(),
  Name: z.string(),
  StartDate: z.string(),
  EndDate: z.string(),
  Weekdays: z.array(z.number()),
  Segments: z.array(z.object({ Start: z.string(), End: z.string() })),
  LinkedProfileId: z.number().nullable(),
  LinkedProfileName: z.string().nullable(),
  NotOnHolidays: z.boolean(),
  Remark: z.string().nullable(),
  /** Controller profiles it compiles to with the area's holidays today (its links not counted). */
  Parts: z.number(),
  /** Authorisations that use it (not revoked). */
  GrantCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type TimeProfileItem = z.output<typeof timeProfileItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  StartDate: localDate,
  EndDate: localDate,
  Weekdays: weekdayList,
  Segments: z.array(profileSegment).min(1).max(3),
  LinkedProfileId: id.nullable().optional(),
  NotOnHolidays: z.boolean().optional(),
  Remark: optionalText(200),
};

/** Per controller of the area: how many of its 253 profile slots the time profiles its cards use take. */
export const profileSlotUse = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  Used: z.number(),
  Max: z.number(),
});
export type ProfileSlotUse = z.output<typeof profileSlotUse>;

const read = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ANY, area: true } as const;

/**
 * Time profiles (read: AccessControl/Admin or User; write: AccessControl/Admin): when a granted card opens its
 * door, in the area's time zone. Gatehouse compiles each profile into controller profiles (ids 2..254) on every
 * controller whose cards use it (docs/access-control.md, "Time profiles and holidays").
 */
export const TimeProfileApi = {
  choices: operation({
    ...read,
    method: 'GET',
    path: '/api/TimeProfile/Choices',
    summary: "The area's time profiles to choose from (grants, links)",
    reply: z.array(z.object({ Id: z.number(), Name: z.string() })),
  }),
  slotUse: operation({
    ...read,
    method: 'GET',
    path: '/api/TimeProfile/SlotUse',
    summary: 'Per WG controller of the area: controller profile slots the time profiles in use take (of 253)',
    reply: z.array(profileSlotUse),
  }),
  ...resourceApi({
    name: 'TimeProfile',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ADMIN,
    item: timeProfileItem,
    filters: { Keyword: filterSchema.text() },
    sorts: ['Name', 'Id', 'UpdatedAt'],
    create: z.strictObject(fields).superRefine(dateOrder),
    update: z.strictObject({ Id: id, ...fields }).superRefine(dateOrder),
    remove: true,
  }),
};
