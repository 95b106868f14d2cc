import { z } from 'zod';
import { doorScheduleAction } from '../../enums/access-rules.ts';
import { resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';
import { dateOrder, localDate, localMinute, weekdayList } from './time-profile.ts';

export const doorScheduleItem = z.object({
  Id: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DoorNumber: z.number(),
  /** The door's channel names, joined (a two-way door has an in and an out channel). */
  DoorName: z.string().nullable(),
  /** doorScheduleAction */
  Action: z.number(),
  /** HH:mm, the area's wall clock */
  Time: z.string(),
  Weekdays: z.array(z.number()),
  StartDate: z.string(),
  EndDate: z.string(),
  Remark: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type DoorScheduleItem = z.output<typeof doorScheduleItem>;

const fields = {
  DoorNumber: z.number().int().min(1).max(4),
  Action: enumNumber(doorScheduleAction),
  Time: localMinute,
  Weekdays: weekdayList,
  StartDate: localDate,
  EndDate: localDate,
  Remark: optionalText(200),
};

/**
 * Door schedules (read: AccessControl/Admin or User; write: AccessControl/Admin): at a time of chosen days
 * within a date range, a door becomes normally open, normally closed or controlled again, or its push button
 * is switched off or on. A controller's schedules are its task list (docs/devices.md, "Access rules").
 */
export const DoorScheduleApi = resourceApi({
  name: 'DoorSchedule',
  tag: ACCESS_CONTROL_TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  item: doorScheduleItem,
  filters: { DeviceId: filterSchema.id(), Action: filterSchema.oneOf(doorScheduleAction) },
  sorts: ['Time', 'DeviceName', 'Id'],
  create: z.strictObject({ DeviceId: id, ...fields }).superRefine(dateOrder),
  update: z.strictObject({ Id: id, ...fields }).superRefine(dateOrder),
  remove: true,
});
