import {
  doorDirection,
  doorRecordReason,
  doorRecordResult,
  enumLabel,
  ACCESS_CONTROL_ANY,
  doorOpeningRecordItem,
} from '@gatehouse/shared';
import { scopedArea } from '../../../platform/context.ts';
import type { Exportable, ExportColumn } from '../../../platform/exports/registry.ts';
import { assertDaySpan } from '../../../platform/resource.ts';
import { defineRoute } from '../../../platform/route.ts';
import { pageOf } from '../../../platform/schemas.ts';
import { TAG } from '../common.ts';
import {
  listSwipes,
  swipeExportQuerySchema,
  swipeQuerySchema,
  type SwipeItem,
  type SwipeQuery,
} from './list.ts';

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

/** The swipe list's export: its own service, not a declared resource's. */
const exportable: Exportable = {
  name: 'DoorOpeningRecord',
  read: ACCESS_CONTROL_ANY,
  titleKey: 'accessControl.title.doorOpeningRecords',
  columns: columns as ExportColumn[],
  query: swipeExportQuerySchema,
  requiresRange: ['StartTime', 'EndTime'],
  checkQuery: (q) => assertDaySpan(q, { timeRange: { column: 'At' } }),
  count: async (ctx, q) => (await listSwipes(ctx.db.kysely, scopedArea(ctx), q as SwipeQuery, 0, 1)).Total,
  rows: async (ctx, q, limit) =>
    (await listSwipes(ctx.db.kysely, scopedArea(ctx), q as SwipeQuery, 0, limit)).Items,
};

export const doorOpeningRecordRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/DoorOpeningRecord',
    summary:
      'Swipe records, newest first: StartTime/EndTime (at most 61 days), Result, DeviceId, CardUserId, HolderName, CardNumber',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    query: swipeQuerySchema,
    response: pageOf(doorOpeningRecordItem),
    exportable,
    handler: ({ query }, ctx) =>
      listSwipes(ctx.db.kysely, ctx.areaId, query, (query.PageIndex - 1) * query.PageSize, query.PageSize),
  }),
];
