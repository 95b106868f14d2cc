import { describe, expect, it } from 'vitest';
import {
  addView,
  closeAllViews,
  closeOtherViews,
  closeView,
  fallbackPath,
  type TabView,
} from '../src/stores/tabs.ts';

const tab = (name: string, affix = false): TabView => ({
  name,
  path: `/${name}`,
  fullPath: `/${name}`,
  titleKey: 'route.dashboard',
  affix,
  noCache: false,
});
const names = (views: TabView[]) => views.map((v) => v.name);

describe('tabs', () => {
  const views = [tab('dashboard', true), tab('a'), tab('b'), tab('c')];

  it('adds a page once and follows its latest address', () => {
    const once = addView(addView([], tab('a')), tab('a'));
    expect(names(once)).toEqual(['a']);
    const moved = addView(once, { ...tab('a'), fullPath: '/a?page=2' });
    expect(moved).toHaveLength(1);
    expect(moved[0]!.fullPath).toBe('/a?page=2');
  });

  it('never closes a pinned tab', () => {
    expect(names(closeView(views, 'dashboard'))).toEqual(['dashboard', 'a', 'b', 'c']);
    expect(names(closeView(views, 'b'))).toEqual(['dashboard', 'a', 'c']);
  });

  it('closes the others but keeps pinned tabs', () => {
    expect(names(closeOtherViews(views, 'b'))).toEqual(['dashboard', 'b']);
  });

  it('closes all but pinned tabs', () => {
    expect(names(closeAllViews(views))).toEqual(['dashboard']);
  });

  it('goes to the last remaining tab, or / when none is left', () => {
    expect(fallbackPath(closeView(views, 'c'))).toBe('/b');
    expect(fallbackPath([])).toBe('/');
  });
});
