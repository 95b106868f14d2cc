import { DoorScheduleApi, doorScheduleAction } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { enumColumn, weekdayText } from '../common.ts';
import { changedSchedule, newSchedule, scheduleQuery, scheduleRemoved, toScheduleItem } from './service.ts';

/** Door schedules (read: Admin or User; write: Admin): the controllers' task lists. */
export const doorScheduleRoutes = implementResource(DoorScheduleApi, {
  table: 'DoorSchedule',
  query: scheduleQuery,
  toItem: toScheduleItem,
  where: {
    DeviceId: match.equals('DoorSchedule.DeviceId'),
    Action: match.equals('DoorSchedule.Action'),
  },
  sorts: { Time: 'DoorSchedule.Time', DeviceName: 'AccessControlDevice.Name', Id: 'DoorSchedule.Id' },
  timestamps: true,
  create: { values: newSchedule },
  update: { values: changedSchedule },
  remove: { check: (ctx, row, trx) => scheduleRemoved(ctx, trx, row) },
  export: {
    titleKey: 'accessControl.title.doorSchedule',
    columns: [
      { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
      { key: 'DoorNumber', labelKey: 'accessControl.field.DoorNumber', kind: 'number' },
      { key: 'DoorName', labelKey: 'accessControl.field.ChannelName', width: 20 },
      { key: 'Time', labelKey: 'accessControl.field.Time' },
      enumColumn('Action', 'Action', doorScheduleAction, 18),
      { key: 'Weekdays', labelKey: 'accessControl.field.Weekdays', width: 20, label: weekdayText },
      { key: 'StartDate', labelKey: 'accessControl.field.StartDate', width: 12 },
      { key: 'EndDate', labelKey: 'accessControl.field.EndDate', width: 12 },
    ],
  },
});
