import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../app/routes.tsx';
import { useRouteChain } from '../../app/use-route-chain.ts';

/** The current page's place in the route table, always starting from the dashboard. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const chain = useRouteChain().filter((route) => route.breadcrumb !== false);
  const crumbs =
    chain[0]?.path === HOME_PATH
      ? chain
      : [{ path: HOME_PATH, titleKey: 'route.dashboard' as const, name: 'Dashboard' }, ...chain];
  return (
    <Breadcrumb
      className="app-breadcrumb"
      items={crumbs.map((route, index) => ({
        key: route.name,
        // Only the dashboard links: parents merely redirect to a child, and the last crumb is this page.
        title:
          index === 0 && crumbs.length > 1 ? (
            <Link to={route.path}>{t(route.titleKey)}</Link>
          ) : (
            <span className="no-redirect">{t(route.titleKey)}</span>
          ),
      }))}
    />
  );
}
