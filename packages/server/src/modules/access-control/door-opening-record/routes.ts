import { doorDirection, doorRecordReason, doorRecordResult, enumLabel } from '@gatehouse/shared';
import { registerExportable, type ExportColumn } from '../../../platform/exports/registry.ts';
import { assertDaySpan } from '../../../platform/resource.ts';
import { defineRoute } from '../../../platform/route.ts';
import { pageOf } from '../../../platform/schemas.ts';
import { AC_ALL, TAG } from '../common.ts';
import {
  listSwipes,
  swipeExportQuerySchema,
  swipeItem,
  swipeQuerySchema,
  type SwipeItem,
  type SwipeQuery,
} from './swipe-list.ts';

/** Door-opening (swipe) records: a read-only list and its export. Records are written by recordSwipe only. */
const columns: ExportColumn<SwipeItem>[] = [
  { key: 'At', labelKey: 'accessControl.field.At', kind: 'instant' },
  { key: 'CardNumber', labelKey: 'accessControl.field.CardNumber', width: 14 },
  { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
  { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
  { key: 'ChannelName', labelKey: 'accessControl.field.ChannelName', width: 18 },
  {
    key: 'Direction',
    labelKey: 'accessControl.field.Direction',
    label: (v, lang) => enumLabel(lang, doorDirection, v),
  },
  {
    key: 'Result',
    labelKey: 'accessControl.field.Result',
    label: (v, lang) => enumLabel(lang, doorRecordResult, v),
  },
  {
    key: 'Reason',
    labelKey: 'accessControl.field.Reason',
    width: 20,
    label: (v, lang) => enumLabel(lang, doorRecordReason, v),
  },
];

registerExportable({
  name: 'DoorOpeningRecord',
  read: AC_ALL,
  titleKey: 'accessControl.title.doorOpeningRecords',
  columns: columns as ExportColumn[],
  query: swipeExportQuerySchema,
  requiresRange: ['StartTime', 'EndTime'],
  checkQuery: (q) => assertDaySpan(q, { timeRange: { column: 'At' } }),
  count: async (ctx, q) => (await listSwipes(ctx.db.kysely, ctx.areaId!, q as SwipeQuery, 0, 1)).Total,
  rows: async (ctx, q, limit) =>
    (await listSwipes(ctx.db.kysely, ctx.areaId!, q as SwipeQuery, 0, limit)).Items,
});

export const doorRecordRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/DoorOpeningRecord',
    summary:
      'Swipe records, newest first: StartTime/EndTime (at most 61 days), Result, DeviceId, CardUserId, HolderName, CardNumber',
    tag: TAG,
    access: AC_ALL,
    area: true,
    query: swipeQuerySchema,
    response: pageOf(swipeItem),
    handler: ({ query }, ctx) =>
      listSwipes(ctx.db.kysely, ctx.areaId!, query, (query.PageIndex - 1) * query.PageSize, query.PageSize),
  }),
];
