import { useEffect, useLayoutEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../components/PageLoading.tsx';
import { getToken, useSessionStore } from '../stores/session.ts';
import { feedback } from '../core/feedback.tsx';
import { hasPermission } from './permission.ts';
import { matchRoute } from './route-utils.ts';
import { layoutRoutes, NO_TOKEN_WHITELIST, publicRoutes } from './routes.tsx';
import { clearSession, logout } from '../core/auth.ts';
import { loadSession } from './session.ts';

export function loginPath(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * The navigation rules of spec section 4, applied on every location: the no-token whitelist, the reset
 * of a token that arrives at /login, the info load before the first gated page, and the permission
 * check (a route the user may not open is an unknown route: /404).
 */
export function RootGuard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const token = useSessionStore((s) => s.token);
  const loaded = useSessionStore((s) => s.info !== null);
  const roles = useSessionStore((s) => s.roles);
  const [resetting, setResetting] = useState(false);
  const fullPath = location.pathname + location.search;

  // Opening /login with a token resets it and goes to / (which then asks for a login). Only on arrival:
  // the login page itself sets a token just before it navigates away.
  useLayoutEffect(() => {
    if (location.pathname !== '/login' || !getToken()) return;
    setResetting(true);
    void logout().finally(() => {
      setResetting(false);
      navigate('/', { replace: true });
    });
    // The path as well as the key: a hash typed in the address bar (or a link opened from outside) arrives with no
    // history state, so its key is 'default', the same as the page's first location; with the key alone, a user
    // who opened the app at /dashboard and then typed /#/login kept the token (seen in shell-session.e2e).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key, location.pathname]);

  useEffect(() => {
    if (!token || loaded || resetting || location.pathname === '/login') return;
    loadSession().catch((error: unknown) => {
      feedback.error(error instanceof Error ? error.message : t('session.verificationFailed'));
      clearSession();
      navigate(loginPath(fullPath), { replace: true });
    });
  }, [token, loaded, resetting, location.pathname, fullPath, navigate, t]);

  useDocumentTitle(location.pathname, location.search);

  if (resetting) return <PageLoading />;
  if (!token)
    return NO_TOKEN_WHITELIST.includes(location.pathname) ? (
      <Outlet />
    ) : (
      <Navigate to={loginPath(fullPath)} replace />
    );
  if (location.pathname === '/login' || matchRoute(publicRoutes, location.pathname)) return <Outlet />;
  if (!loaded) return <PageLoading />;
  const chain = matchRoute(layoutRoutes, location.pathname, location.search);
  if (chain && !chain.every((route) => hasPermission(roles, route)) && !roles.includes('admin')) {
    return <Navigate to="/404" replace />;
  }
  return <Outlet />;
}

/** Page title = translated route title + site title (spec section 2). */
function useDocumentTitle(pathname: string, search: string) {
  const { t } = useTranslation();
  const chain = matchRoute(layoutRoutes, pathname, search) ?? matchRoute(publicRoutes, pathname, search);
  const route = chain?.[chain.length - 1];
  const site = t('app.siteTitle');
  const title = route ? `${t(route.titleKey)} - ${site}` : site;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
