import { HolidayApi } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
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
    columns: exportColumns('accessControl.field', {
      Name: { header: 'HolidayName', width: 20 },
      StartDate: 12,
      EndDate: 12,
      Days: 'number',
      Remark: 24,
    }),
  },
});
