import type { AppRoute } from './route-types.ts';

/** Every entry with its ancestors, depth first, in table order. */
export function flattenRoutes(routes: readonly AppRoute[], parents: readonly AppRoute[] = []): AppRoute[][] {
  return routes.flatMap((route) => {
    const chain = [...parents, route];
    return [chain, ...(route.children ? flattenRoutes(route.children, chain) : [])];
  });
}

function samePath(a: string, b: string): boolean {
  // The router matches paths case-insensitively (/bicycle/parkArea opens /Bicycle/parkArea); so do we.
  return a.toLowerCase() === b.toLowerCase();
}

function queryMatches(route: AppRoute, params: URLSearchParams): boolean {
  return Object.entries(route.query ?? {}).every(([key, value]) => params.get(key) === value);
}

/**
 * The entry a location shows, with its ancestors (first = top level). Among entries sharing a path,
 * the one whose `query` the location carries wins, else the one without a query.
 */
export function matchRoute(routes: readonly AppRoute[], pathname: string, search = ''): AppRoute[] | null {
  const params = new URLSearchParams(search);
  const candidates = flattenRoutes(routes).filter((chain) =>
    samePath(chain[chain.length - 1]!.path, pathname),
  );
  const withQuery = candidates.find((chain) => {
    const route = chain[chain.length - 1]!;
    return route.query !== undefined && queryMatches(route, params);
  });
  return (
    withQuery ??
    candidates.find((chain) => chain[chain.length - 1]!.query === undefined) ??
    candidates[0] ??
    null
  );
}

/** Where a menu entry leads: its path plus the query that distinguishes it. */
export function routeHref(route: AppRoute): string {
  const query = route.query ? `?${new URLSearchParams(route.query).toString()}` : '';
  return route.path + query;
}

/** The first child a parent opens: its `redirect` when still present, else the first leaf. */
export function firstLeaf(route: AppRoute): AppRoute | null {
  if (!route.children) return route.externalUrl ? null : route;
  const preferred = route.children.find((c) => c.path === route.redirect);
  for (const child of preferred ? [preferred, ...route.children] : route.children) {
    const leaf = firstLeaf(child);
    if (leaf) return leaf;
  }
  return null;
}

/** Visible leaves (menu entries that open something), each with its ancestors. */
export function menuLeaves(routes: readonly AppRoute[]): AppRoute[][] {
  return flattenRoutes(routes).filter((chain) => {
    if (chain.some((r) => r.hidden)) return false;
    const route = chain[chain.length - 1]!;
    return !route.children && (route.page !== undefined || route.externalUrl !== undefined);
  });
}
