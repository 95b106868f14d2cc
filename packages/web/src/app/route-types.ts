import type { ComponentType } from 'react';
import type { WebCatalogue } from '../i18n/zh/index.ts';
import type { IconName } from '../layout/route-icons.tsx';
import type { Role } from '../core/roles.ts';

/** A page module: the default export is the screen. Loaded on demand, so each route is its own chunk. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

export type RouteTitleKey = `route.${Exclude<keyof WebCatalogue['route'], 'template'>}`;

/**
 * One entry of the route table (spec section 3, "Route meta"). Paths are absolute. The sidebar,
 * breadcrumb, tabs, page title, menu search and permission filter all read these fields.
 */
export interface AppRoute {
  path: string;
  /** Unique in the table: the key of menus, tabs and the page cache. */
  name: string;
  titleKey: RouteTitleKey;
  icon?: IconName;
  /** Any one of these lets a user in; absent means open to every signed-in user. */
  roles?: readonly Role[];
  /** Not kept alive when the user leaves it (its state is lost). */
  noCache?: boolean;
  /** A pinned tab: opened at start and never closed. */
  affix?: boolean;
  /** false: left out of the breadcrumb. */
  breadcrumb?: boolean;
  /** Routed but not shown in the sidebar or the menu search. */
  hidden?: boolean;
  /**
   * For entries that share a path (people groups and people types): the query that tells them apart.
   * The first entry of a path owns the router route; its page reads the query.
   */
  query?: Readonly<Record<string, string>>;
  /** Parent only: the child opened when the parent's path is visited. */
  redirect?: string;
  children?: readonly AppRoute[];
  page?: PageLoader;
  /** A menu entry that opens this address in a new browser tab instead of a route. */
  externalUrl?: string;
  /**
   * Screens shown as tabs of this page that the spec's menu does not name (vehicles and monthly passes in
   * the park-area page): the menu search finds them by their own titles and opens the page on that tab.
   */
  tabs?: readonly { name: string; titleKey: RouteTitleKey; query: Readonly<Record<string, string>> }[];
}
