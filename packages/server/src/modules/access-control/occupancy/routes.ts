import { OccupancyApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { listOccupancy, occupancySummary, setResetHour } from './service.ts';

/**
 * Who is inside the area (AccessControl/Admin or User), its count, and its reset hour (Admin); docs/access-control.md,
 * "Occupancy and muster".
 */
export const occupancyRoutes = [
  route(OccupancyApi.list, ({ query }, ctx) => listOccupancy(ctx, query)),
  route(OccupancyApi.summary, (_input, ctx) => occupancySummary(ctx)),
  route(OccupancyApi.settings, ({ body }, ctx) => setResetHour(ctx, body.ResetHour)),
];
