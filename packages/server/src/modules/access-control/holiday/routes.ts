import { HolidayApi } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import {
  changedHoliday,
  holidayQuery,
  holidayRemoved,
  newHoliday,
  toHolidayItem,
  touchesYear,
} from './service.ts';

/** The area's holiday calendar (read: Admin or User; write: Admin). */
export const holidayRoutes = implementResource(HolidayApi, {
  table: 'Holiday',
  query: holidayQuery,
  toItem: toHolidayItem,
  where: { Keyword: match.keyword(['Holiday.Name', 'Holiday.Remark']), Year: touchesYear },
  sorts: { StartDate: 'Holiday.StartDate', Name: 'Holiday.Name', Id: 'Holiday.Id' },
  timestamps: true,
  create: { values: newHoliday },
  update: { values: changedHoliday },
  remove: { check: (ctx, _row, trx) => holidayRemoved(ctx, trx) },
  export: {
    titleKey: 'accessControl.title.holiday',
    columns: [
      { key: 'Name', labelKey: 'accessControl.field.HolidayName', width: 20 },
      { key: 'StartDate', labelKey: 'accessControl.field.StartDate', width: 12 },
      { key: 'EndDate', labelKey: 'accessControl.field.EndDate', width: 12 },
      { key: 'Days', labelKey: 'accessControl.field.Days', kind: 'number' },
      { key: 'Remark', labelKey: 'accessControl.field.Remark', width: 24 },
    ],
  },
});
