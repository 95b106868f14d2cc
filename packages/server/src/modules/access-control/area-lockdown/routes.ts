import { AreaLockdownApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { currentLockdown, releaseLockdown, startLockdown } from './service.ts';

/** An area's lockdown or evacuation and its release (AccessControl/Admin), and the one in force (anyone of the area). */
export const areaLockdownRoutes = [
  route(AreaLockdownApi.start, ({ body }, ctx) => startLockdown(ctx, body)),
  route(AreaLockdownApi.release, ({ body }, ctx) => releaseLockdown(ctx, body)),
  route(AreaLockdownApi.current, (_input, ctx) => currentLockdown(ctx)),
];
