import { authRoutes } from './modules/system/auth/routes.ts';
import { userRoutes } from './modules/system/users/routes.ts';
import { areaRoutes } from './modules/system/areas/routes.ts';
import type { RouteSpec } from './platform/route.ts';

/** Every declared API route; modules add their lists here. */
export const routeTable: RouteSpec<any, any, any, any>[] = [...authRoutes, ...userRoutes, ...areaRoutes];
