import { lazy, Suspense } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading.tsx';
import { useSessionStore } from '../stores/session.ts';
import { LazyPage } from './lazy-page.tsx';
import { firstLeaf, flattenRoutes, routeHref } from './route-utils.ts';
import type { AppRoute } from './route-types.ts';
import { HOME_PATH, layoutRoutes, publicRoutes } from './routes.tsx';
import { RootGuard } from './RootGuard.tsx';

// The layout is its own chunk: the login page never loads it.
const Layout = lazy(() => import('../layout/Layout.tsx'));

/** A parent's address opens its default child among the children this user may open. */
function ParentRedirect({ name }: { name: string }) {
  const permitted = useSessionStore((s) => s.permitted);
  const parent = flattenRoutes(permitted)
    .find((chain) => chain[chain.length - 1]!.name === name)
    ?.at(-1);
  const leaf = parent ? firstLeaf(parent) : null;
  return <Navigate to={leaf ? routeHref(leaf) : '/404'} replace />;
}

/** One router route per distinct path: entries that share a path share the first entry's page. */
export function layoutChildren(routes: readonly AppRoute[]): RouteObject[] {
  const seen = new Set<string>();
  const children: RouteObject[] = [];
  for (const chain of flattenRoutes(routes)) {
    const route = chain[chain.length - 1]!;
    if (route.externalUrl || seen.has(route.path.toLowerCase())) continue;
    seen.add(route.path.toLowerCase());
    if (route.children) children.push({ path: route.path, element: <ParentRedirect name={route.name} /> });
    else if (route.page) children.push({ path: route.path, element: <LazyPage loader={route.page} /> });
  }
  return children;
}

export function createAppRouter() {
  return createHashRouter([
    {
      element: <RootGuard />,
      children: [
        ...publicRoutes.map<RouteObject>((route) => ({
          path: route.path,
          element: (
            <Suspense fallback={<PageLoading />}>{route.page && <LazyPage loader={route.page} />}</Suspense>
          ),
        })),
        {
          path: '/',
          element: (
            <Suspense fallback={<PageLoading />}>
              <Layout />
            </Suspense>
          ),
          children: [
            { index: true, element: <Navigate to={HOME_PATH} replace /> },
            ...layoutChildren(layoutRoutes),
          ],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ]);
}
