import type { MenuProps } from 'antd';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { routeHref } from '../app/route-utils.ts';
import type { AppRoute } from '../app/route-types.ts';
import { RouteIcon } from './route-icons.tsx';

type MenuItem = Required<MenuProps>['items'][number];

/** Sidebar entries from the permitted routes: hidden ones left out, external links open a new tab. */
export function sidebarItems(routes: readonly AppRoute[], t: TFunction): MenuItem[] {
  return routes
    .filter((route) => !route.hidden)
    .map((route): MenuItem => {
      const title = t(route.titleKey);
      const icon = <RouteIcon name={route.icon} />;
      if (route.children) {
        return {
          key: route.name,
          icon,
          label: (
            <span data-route={route.name} title={title}>
              {title}
            </span>
          ),
          children: sidebarItems(route.children, t),
        };
      }
      const label = route.externalUrl ? (
        <a
          href={route.externalUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-route={route.name}
          title={title}
        >
          {title}
        </a>
      ) : (
        <Link to={routeHref(route)} data-route={route.name} title={title}>
          {title}
        </Link>
      );
      return { key: route.name, icon, label, title };
    });
}
