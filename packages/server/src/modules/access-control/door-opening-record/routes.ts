import { DoorOpeningRecordApi } from '@gatehouse/shared';
import { retainedFrom } from '../../../platform/retention.ts';
import { route } from '../../../platform/route.ts';
import { swipeExport, swipePage } from './list.ts';

/**
 * Door-opening (swipe) records: a read-only list and its export. Records are written by recordSwipe only. A
 * page whose range reaches before SwipeRetentionMonths' cutoff says so (RetainedFrom; platform/retention.ts).
 */
export const doorOpeningRecordRoutes = [
  route(
    DoorOpeningRecordApi.list,
    async ({ query }, ctx) => ({
      ...(await swipePage(ctx.db.kysely, ctx.areaId, query)),
      ...retainedFrom(ctx.platform.settings, 'SwipeRetentionMonths', ctx.clock.now(), query.StartTime),
    }),
    { exportable: swipeExport },
  ),
];
