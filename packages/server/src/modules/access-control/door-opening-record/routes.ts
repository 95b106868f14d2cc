import { DoorOpeningRecordApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { swipeExport, swipePage } from './list.ts';

/** Door-opening (swipe) records: a read-only list and its export. Records are written by recordSwipe only. */
export const doorOpeningRecordRoutes = [
  route(DoorOpeningRecordApi.list, ({ query }, ctx) => swipePage(ctx.db.kysely, ctx.areaId, query), {
    exportable: swipeExport,
  }),
];
