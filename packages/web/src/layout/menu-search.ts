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
  translate: (route: AppRoute) => string,
  toPinyin?: (text: string) => string,
): SearchItem[] {
  return menuLeaves(routes).map((chain) => {
    const route = chain[chain.length - 1]!;
    const title = chain.map(translate);
    return {
      name: route.name,
      title,
      pinyin: toPinyin ? title.map(toPinyin) : [],
      path: route.path,
      href: route.externalUrl ?? routeHref(route),
      ...(route.externalUrl ? { externalUrl: route.externalUrl } : {}),
    };
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
