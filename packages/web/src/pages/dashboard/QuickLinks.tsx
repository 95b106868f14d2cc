import { useMemo } from 'react';
import { Card, Empty } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { menuLeaves, routeHref } from '../../app/route-utils.ts';
import { useSessionStore } from '../../stores/session.ts';
import { RouteIcon } from '../../layout/route-icons.tsx';

/** The menu's screens the signed-in user may open, a link each (the pinned tabs, such as this one, left out). */
export function QuickLinks() {
  const { t } = useTranslation();
  const permitted = useSessionStore((s) => s.permitted);
  const links = useMemo(
    () =>
      menuLeaves(permitted)
        .map((chain) => chain[chain.length - 1]!)
        .filter((route) => !route.affix),
    [permitted],
  );
  return (
    <Card size="small" title={t('dashboard.quickLinks')} className="dashboard-quick-links">
      {links.length === 0 ? (
        <Empty description={t('dashboard.noQuickLinks')} />
      ) : (
        <div className="dashboard-links">
          {links.map((route) =>
            route.externalUrl ? (
              <a
                key={route.name}
                href={route.externalUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="dashboard-link"
                title={t(route.titleKey)}
              >
                <RouteIcon name={route.icon} />
                <span>{t(route.titleKey)}</span>
              </a>
            ) : (
              <Link
                key={route.name}
                to={routeHref(route)}
                className="dashboard-link"
                data-quick-link={route.name}
                title={t(route.titleKey)}
              >
                <RouteIcon name={route.icon} />
                <span>{t(route.titleKey)}</span>
              </Link>
            ),
          )}
        </div>
      )}
    </Card>
  );
}
