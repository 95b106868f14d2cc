import { Suspense, useEffect, useMemo, useRef } from 'react';
import { KeepAlive } from 'keepalive-for-react';
import { useLocation, useOutlet } from 'react-router';
import { flattenRoutes } from '../app/route-utils.ts';
import { layoutRoutes } from '../app/routes.tsx';
import { useRouteChain } from '../app/use-route-chain.ts';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { PageLoading } from '../components/PageLoading.tsx';
import { useAreaStore } from '../stores/area.ts';
import { useTabsStore } from '../stores/tabs.ts';
import { aliveRef } from './keep-alive.ts';

const TRANSIENT_KEY = '__redirect__';

/** Pages marked noCache leave the cache as soon as the user leaves them (their state is lost). */
const NO_CACHE = [
  ...flattenRoutes(layoutRoutes)
    .map((chain) => chain[chain.length - 1]!)
    .filter((route) => route.noCache)
    .map((route) => route.name),
  // Parent addresses only redirect; their node must mount afresh each time so the redirect runs again.
  TRANSIENT_KEY,
];

/** Records the visited page as a tab. */
function useVisitedTab() {
  const { pathname, search } = useLocation();
  const route = useRouteChain().at(-1);
  const add = useTabsStore((s) => s.add);
  useEffect(() => {
    if (!route?.page) return;
    add({
      name: route.name,
      path: route.path,
      fullPath: pathname + search,
      titleKey: route.titleKey,
      affix: route.affix === true,
      noCache: route.noCache === true,
    });
  }, [route, pathname, search, add]);
}

/**
 * The page area. Pages are kept alive per route (keepalive-for-react) unless noCache; the whole area
 * re-mounts when the current area changes, and the page scrolls to the top on navigation.
 */
export function AppMain() {
  useVisitedTab();
  const outlet = useOutlet();
  const route = useRouteChain().at(-1);
  const areaVersion = useAreaStore((s) => s.version);
  const hasAreas = useAreaStore((s) => s.areas.length > 0);
  const current = useAreaStore((s) => s.current);
  const { pathname, search } = useLocation();
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    window.scrollTo(0, 0);
    mainRef.current?.scrollTo?.(0, 0);
  }, [pathname, search]);

  const cacheKey = route?.page ? route.name : TRANSIENT_KEY;
  const content = useMemo(
    () => (
      <ErrorBoundary>
        <Suspense fallback={<PageLoading />}>{outlet}</Suspense>
      </ErrorBoundary>
    ),
    [outlet],
  );

  // Hidden until an area is selected, unless the user has none (spec section 2).
  if (hasAreas && !current) return <main className="app-main" ref={mainRef} />;
  return (
    <main className="app-main" ref={mainRef} key={areaVersion} data-area={current?.Id ?? ''}>
      {/* Hidden pages in React's Activity (issue 21, item 16): they keep their state but do no work while
          another page is shown (no re-render on every navigation, no live updates), and catch up when shown. */}
      <KeepAlive activeCacheKey={cacheKey} exclude={NO_CACHE} aliveRef={aliveRef} max={20} enableActivity>
        {content}
      </KeepAlive>
    </main>
  );
}
