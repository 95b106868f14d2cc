import Fuse from 'fuse.js';
import { SEARCH_THRESHOLD, SEARCH_WEIGHTS } from '@gatehouse/shared';
import { menuLeaves, routeHref } from '../app/route-utils.ts';
import type { AppRoute } from '../app/route-types.ts';

/** One searchable menu entry: the titles of its chain (parent first), their pinyin, and its address. */
export interface SearchItem {
  name: string;
  title: string[];
  pinyin: string[];
  path: string;
  href: string;
  externalUrl?: string;
}

/**
 * The permitted, visible menu entries as search items. `toPinyin` is given only when searching in
 * Chinese with pinyin enabled (pinyin-pro is loaded for that case alone).
 */
export function buildSearchItems(
  routes: readonly AppRoute[],
  translate: (route: Pick<AppRoute, 'titleKey'>) => string,
  toPinyin?: (text: string) => string | string[],
): SearchItem[] {
  const pinyinOf = (title: string[]) => (toPinyin ? title.flatMap((t) => toPinyin(t)) : []);
  return menuLeaves(routes).flatMap((chain) => {
    const route = chain[chain.length - 1]!;
    const title = chain.map(translate);
    const item: SearchItem = {
      name: route.name,
      title,
      pinyin: pinyinOf(title),
      path: route.path,
      href: route.externalUrl ?? routeHref(route),
      ...(route.externalUrl ? { externalUrl: route.externalUrl } : {}),
    };
    // A page's tabs with names of their own (vehicles, monthly passes) are found by those names too.
    const tabs = (route.tabs ?? []).map((tab): SearchItem => {
      const tabTitle = [...title, translate(tab)];
      const href = `${route.path}?${new URLSearchParams({ ...route.query, ...tab.query }).toString()}`;
      return { name: tab.name, title: tabTitle, pinyin: pinyinOf(tabTitle), path: href, href };
    });
    return [item, ...tabs];
  });
}

/** Fuzzy search with the spec's threshold and weights (title 0.7, pinyin 0.3, path 0.3). */
export function createMenuSearch(items: readonly SearchItem[]): (query: string) => SearchItem[] {
  const fuse = new Fuse(items, {
    shouldSort: true,
    threshold: SEARCH_THRESHOLD,
    location: 0,
    distance: 100,
    minMatchCharLength: 1,
    keys: [
      { name: 'title', weight: SEARCH_WEIGHTS.title },
      { name: 'pinyin', weight: SEARCH_WEIGHTS.pinyin },
      { name: 'path', weight: SEARCH_WEIGHTS.path },
    ],
  });
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}

/** pinyin-pro on demand: 部门管理 → bumenguanli. */
export async function loadPinyin(): Promise<(text: string) => string> {
  const { pinyin } = await import('pinyin-pro');
  return (text) => pinyin(text, { toneType: 'none', type: 'array' }).join('');
}

/**
 * Full pinyin and initials, the two ways people type Chinese menus in Latin letters:
 * 门禁管理 → ['menjinguanli', 'mjgl'].
 */
export async function loadPinyinForms(): Promise<(text: string) => string[]> {
  const { pinyin } = await import('pinyin-pro');
  return (text) => [
    pinyin(text, { toneType: 'none', type: 'array' }).join(''),
    pinyin(text, { pattern: 'first', toneType: 'none', type: 'array' }).join(''),
  ];
}
