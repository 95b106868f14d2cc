import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { matchRoute } from './route-utils.ts';
import { layoutRoutes, publicRoutes } from './routes.tsx';
import type { AppRoute } from './route-types.ts';

/** The route table entry of the current location, with its ancestors (empty when none matches). */
export function useRouteChain(): AppRoute[] {
  const { pathname, search } = useLocation();
  return useMemo(
    () => matchRoute(layoutRoutes, pathname, search) ?? matchRoute(publicRoutes, pathname, search) ?? [],
    [pathname, search],
  );
}
