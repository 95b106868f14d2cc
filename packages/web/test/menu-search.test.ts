import { describe, expect, it } from 'vitest';
import { filterRoutes } from '../src/app/permission.ts';
import { layoutRoutes } from '../src/app/routes.tsx';
import {
  buildSearchItems,
  createMenuSearch,
  loadPinyin,
  loadPinyinForms,
} from '../src/layout/menu-search.ts';
import { zh } from '../src/i18n/zh/index.ts';
import { en } from '../src/i18n/en/index.ts';
import type { AppRoute } from '../src/app/route-types.ts';

function titles(catalogue: typeof zh | typeof en) {
  return (route: Pick<AppRoute, 'titleKey'>) =>
    catalogue.route[route.titleKey.slice('route.'.length) as keyof typeof zh.route] as string;
}

describe('menu search', () => {
  const admin = filterRoutes(layoutRoutes, ['admin']);

  it('finds menus by English words', () => {
    const search = createMenuSearch(buildSearchItems(admin, titles(en)));
    expect(search('department').map((i) => i.name)[0]).toBe('Departments');
    expect(search('charging orders').map((i) => i.name)[0]).toBe('ChargeOrders');
  });

  it('finds menus by Chinese titles', () => {
    const search = createMenuSearch(buildSearchItems(admin, titles(zh)));
    expect(search('部门').map((i) => i.name)[0]).toBe('Departments');
  });

  it('finds menus by pinyin when given the converter', async () => {
    const toPinyin = await loadPinyin();
    expect(toPinyin('部门管理')).toBe('bumenguanli');
    const search = createMenuSearch(buildSearchItems(admin, titles(zh), toPinyin));
    expect(search('bumen').map((i) => i.name)[0]).toBe('Departments');
    // Without pinyin the same letters find nothing Chinese.
    expect(createMenuSearch(buildSearchItems(admin, titles(zh)))('bumen').map((i) => i.name)).not.toContain(
      'Departments',
    );
  });

  it('finds menus by pinyin initials (mjgl for 门禁管理)', async () => {
    const toPinyin = await loadPinyinForms();
    expect(toPinyin('门禁管理')).toEqual(['menjinguanli', 'mjgl']);
    const search = createMenuSearch(buildSearchItems(admin, titles(zh), toPinyin));
    expect(search('mjgl')[0]!.title[0]).toBe('门禁管理');
    expect(search('bmgl').map((i) => i.name)[0]).toBe('Departments');
  });

  it('finds vehicles and monthly passes by their own names, opening their tab of the park-area page', () => {
    for (const [catalogue, vehicles, passes] of [
      [en, 'vehicles', 'monthly passes'],
      [zh, '车辆', '月卡'],
    ] as const) {
      const search = createMenuSearch(buildSearchItems(admin, titles(catalogue)));
      expect(search(vehicles)[0]).toMatchObject({ name: 'Vehicles', href: '/Bicycle/parkArea?tab=vehicles' });
      expect(search(passes)[0]).toMatchObject({
        name: 'MonthlyPasses',
        href: '/Bicycle/parkArea?tab=passes',
      });
    }
    // Only for those who may open the park-area page.
    const user = filterRoutes(layoutRoutes, ['Export']);
    expect(buildSearchItems(user, titles(en)).map((i) => i.name)).not.toContain('Vehicles');
  });

  it('finds menus by path, and only menus the user may open', () => {
    const user = filterRoutes(layoutRoutes, ['Export']);
    const search = createMenuSearch(buildSearchItems(user, titles(en)));
    expect(search('export/log').map((i) => i.name)).toEqual(['ExportLog']);
    expect(search('department')).toEqual([]);
  });

  it('returns nothing for an empty query or nonsense', () => {
    const search = createMenuSearch(buildSearchItems(admin, titles(en)));
    expect(search('  ')).toEqual([]);
    expect(search('zzqxv')).toEqual([]);
  });

  it('leads the external link to its address', () => {
    const item = buildSearchItems(admin, titles(en)).find((i) => i.name === 'ExternalLink');
    expect(item).toMatchObject({ href: '/api/docs', externalUrl: '/api/docs' });
  });
});
