import { DoorScheduleApi, doorScheduleAction } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { weekdayText } from '../common.ts';
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
    columns: exportColumns('accessControl.field', {
      DeviceName: 20,
      DoorNumber: 'number',
      DoorName: { header: 'ChannelName', width: 20 },
      Time: 'text',
      Action: { enum: doorScheduleAction, width: 18 },
      Weekdays: { width: 20, label: weekdayText },
      StartDate: 12,
      EndDate: 12,
    }),
  },
});
