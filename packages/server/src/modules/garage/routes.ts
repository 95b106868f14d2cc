import type { AnyRoute } from '../../platform/route.ts';

/** Every route of the garage module. */
export const garageRoutes: AnyRoute[] = [];
