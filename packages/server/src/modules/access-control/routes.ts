import type { AnyRoute } from '../../platform/route.ts';

/** Every route of the access-control module. */
export const accessControlRoutes: AnyRoute[] = [];
