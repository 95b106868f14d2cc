import { z } from 'zod';
import { resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema, id, optionalText, wholeNumber } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';
import { dateOrder, localDate } from './time-profile.ts';

export const holidayItem = z.object({
  Id: z.number(),
  Name: z.string(),
  /** YYYY-MM-DD, inclusive; a single day has EndDate = StartDate. */
  StartDate: z.string(),
  EndDate: z.string(),
  Days: z.number(),
  Remark: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type HolidayItem = z.output<typeof holidayItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  StartDate: localDate,
  EndDate: localDate,
  Remark: optionalText(200),
};

/**
 * The area's holiday calendar (read: AccessControl/Admin or User; write: AccessControl/Admin): named days or
 * ranges. Time profiles marked "not on holidays" skip them on the controllers.
 */
export const HolidayApi = resourceApi({
  name: 'Holiday',
  tag: ACCESS_CONTROL_TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  item: holidayItem,
  filters: {
    Keyword: filterSchema.text(),
    /** Holidays touching this year. */
    Year: wholeNumber(z.number().int().min(2000).max(2099)),
  },
  sorts: ['StartDate', 'Name', 'Id'],
  create: z.strictObject(fields).superRefine(dateOrder),
  update: z.strictObject({ Id: id, ...fields }).superRefine(dateOrder),
  remove: true,
});
