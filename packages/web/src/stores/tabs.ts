import { create } from 'zustand';
import type { RouteTitleKey } from '../app/route-types.ts';

/** A visited page (spec section 3, "Tab entry"): path, fullPath, name, meta (title, affix, noCache). */
export interface TabView {
  name: string;
  path: string;
  fullPath: string;
  titleKey: RouteTitleKey;
  affix: boolean;
  noCache: boolean;
}

/** Adds a tab, or points an open one at the address last seen for it. */
export function addView(views: readonly TabView[], view: TabView): TabView[] {
  const index = views.findIndex((v) => v.name === view.name);
  if (index === -1) return [...views, view];
  if (views[index]!.fullPath === view.fullPath) return views as TabView[];
  return views.map((v, i) => (i === index ? { ...v, fullPath: view.fullPath } : v));
}

/** Pinned (affix) tabs survive every close. */
export function closeView(views: readonly TabView[], name: string): TabView[] {
  return views.filter((v) => v.affix || v.name !== name);
}

export function closeOtherViews(views: readonly TabView[], name: string): TabView[] {
  return views.filter((v) => v.affix || v.name === name);
}

export function closeAllViews(views: readonly TabView[]): TabView[] {
  return views.filter((v) => v.affix);
}

/** Where to go after the active tab closed: the last remaining tab, or / when none is left (spec section 4). */
export function fallbackPath(views: readonly TabView[]): string {
  return views[views.length - 1]?.fullPath ?? '/';
}

interface TabsState {
  views: TabView[];
  add(view: TabView): void;
  close(name: string): TabView[];
  closeOthers(name: string): TabView[];
  closeAll(): TabView[];
  clear(): void;
}

export const useTabsStore = create<TabsState>()((set, get) => ({
  views: [],
  add: (view) => set((s) => ({ views: addView(s.views, view) })),
  close: (name) => {
    set((s) => ({ views: closeView(s.views, name) }));
    return get().views;
  },
  closeOthers: (name) => {
    set((s) => ({ views: closeOtherViews(s.views, name) }));
    return get().views;
  },
  closeAll: () => {
    set((s) => ({ views: closeAllViews(s.views) }));
    return get().views;
  },
  clear: () => set({ views: [] }),
}));
