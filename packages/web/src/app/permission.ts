import { ADMIN_ROLE } from '../core/roles.ts';
import type { AppRoute } from './route-types.ts';

/** A route is open when it asks for no role; otherwise any one of its roles lets the user in. */
export function hasPermission(roles: readonly string[], route: Pick<AppRoute, 'roles'>): boolean {
  return !route.roles || route.roles.some((role) => roles.includes(role));
}

/**
 * The routes a user may open (spec sections 4 and 6): `admin` sees every route; anyone else sees the
 * routes whose roles they match, with children filtered the same way. A parent whose children are all
 * filtered out is dropped too: it would be a menu group that opens nothing.
 */
export function filterRoutes(routes: readonly AppRoute[], roles: readonly string[]): AppRoute[] {
  if (roles.includes(ADMIN_ROLE)) return [...routes];
  const permitted: AppRoute[] = [];
  for (const route of routes) {
    if (!hasPermission(roles, route)) continue;
    if (route.children) {
      const children = filterRoutes(route.children, roles);
      if (children.length === 0) continue;
      permitted.push({ ...route, children });
    } else {
      permitted.push(route);
    }
  }
  return permitted;
}
