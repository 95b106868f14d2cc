import { describe, expect, it } from 'vitest';
import { catalogues, LANGUAGES } from '@gatehouse/shared';
import { ROLES } from '../src/core/roles.ts';
import { firstLeaf, flattenRoutes, matchRoute, menuLeaves, routeHref } from '../src/app/route-utils.ts';
import { layoutRoutes, NO_TOKEN_WHITELIST, publicRoutes } from '../src/app/routes.tsx';
import { zh } from '../src/i18n/zh/index.ts';
import { en } from '../src/i18n/en/index.ts';
import { es } from '../src/i18n/es/index.ts';
import { ja } from '../src/i18n/ja/index.ts';

const web = { zh, en, es, ja } as const;
const everything = [...flattenRoutes(publicRoutes), ...flattenRoutes(layoutRoutes)].map(
  (c) => c[c.length - 1]!,
);

function lookup(tree: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('route table', () => {
  it('names every entry uniquely', () => {
    const names = everything.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('asks only for known permission codes', () => {
    for (const route of everything) for (const role of route.roles ?? []) expect(ROLES).toContain(role);
  });

  it('translates every title in every language', () => {
    for (const lang of LANGUAGES) {
      for (const route of everything)
        expect(typeof lookup(web[lang], route.titleKey), `${lang} ${route.titleKey}`).toBe('string');
    }
  });

  it('nests children under their parent path', () => {
    for (const chain of flattenRoutes(layoutRoutes)) {
      if (chain.length > 1) expect(chain.at(-1)!.path.startsWith(`${chain.at(-2)!.path}/`)).toBe(true);
    }
  });

  it('has a page for every leaf except the external link', () => {
    for (const route of everything) {
      if (route.children) expect(route.page).toBeUndefined();
      else if (route.externalUrl) expect(route.page).toBeUndefined();
      else expect(route.page, route.name).toBeTypeOf('function');
    }
  });

  it('serves people groups and people types from one path and one page, told apart by the query', () => {
    const groups = everything.find((r) => r.name === 'PeopleGroups')!;
    const types = everything.find((r) => r.name === 'PeopleTypes')!;
    expect(groups.path).toBe('/organization/peoplegroup');
    expect(types.path).toBe(groups.path);
    expect(types.page).toBe(groups.page);
    expect(routeHref(types)).toBe('/organization/peoplegroup?kind=type');
    expect(matchRoute(layoutRoutes, '/organization/peoplegroup', '?kind=type')!.at(-1)!.name).toBe(
      'PeopleTypes',
    );
    expect(matchRoute(layoutRoutes, '/organization/peoplegroup', '')!.at(-1)!.name).toBe('PeopleGroups');
  });

  it('opens the API documentation from the SuperAdmin external link', () => {
    const link = everything.find((r) => r.externalUrl);
    expect(link).toMatchObject({ externalUrl: '/api/docs', roles: ['SuperAdmin'] });
  });

  it('pins the dashboard and leaves the profile uncached and hidden', () => {
    expect(everything.find((r) => r.path === '/dashboard')).toMatchObject({ affix: true });
    expect(everything.find((r) => r.path === '/profile/index')).toMatchObject({
      noCache: true,
      hidden: true,
    });
  });

  it('opens the default children the spec names', () => {
    const top = (path: string) => layoutRoutes.find((r) => r.path === path)!;
    expect(firstLeaf(top('/accesscontrol'))!.name).toBe('CardHolders');
    expect(firstLeaf(top('/Bicycle'))!.name).toBe('ParkAreas');
    expect(firstLeaf(top('/organization'))!.name).toBe('Departments');
  });

  it('matches paths case-insensitively, like the router', () => {
    expect(matchRoute(layoutRoutes, '/bicycle/parkarea')!.map((r) => r.name)).toEqual([
      'Garage',
      'ParkAreas',
    ]);
    expect(matchRoute(layoutRoutes, '/nowhere')).toBeNull();
  });

  it('keeps hidden entries out of the menu', () => {
    const leaves = menuLeaves(layoutRoutes).map((c) => c.at(-1)!.name);
    expect(leaves).not.toContain('Profile');
    expect(leaves).not.toContain('Page404');
    expect(leaves).toContain('ExternalLink');
  });

  it('lets a visitor without a token reach only the spec whitelist', () => {
    expect(NO_TOKEN_WHITELIST).toEqual(['/login', '/auth-redirect', '/mplogin', '/Error']);
  });
});

describe('web catalogues', () => {
  it('use namespaces of their own, apart from the shared catalogues', () => {
    for (const lang of LANGUAGES) {
      const shared = Object.keys(catalogues[lang]);
      for (const key of Object.keys(web[lang])) expect(shared).not.toContain(key);
    }
  });

  it('keep every placeholder of the Chinese text in the other languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    const walk = (node: unknown, prefix: string): string[] =>
      typeof node === 'string'
        ? [prefix]
        : Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
            walk(v, prefix ? `${prefix}.${k}` : k),
          );
    for (const key of walk(zh, '')) {
      for (const lang of ['en', 'es', 'ja'] as const) {
        expect(placeholders(lookup(web[lang], key) as string), `${lang} ${key}`).toEqual(
          placeholders(lookup(zh, key) as string),
        );
      }
    }
  });
});
