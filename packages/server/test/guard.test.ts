import { expect, it } from 'vitest';
import type { RouteSpec } from '../src/platform/route.ts';
import { call } from './support/client.ts';
import { describeEachDb } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/** A concrete URL and a valid-looking input for a declared route, so only the guard can refuse it. */
function sample(route: RouteSpec): { url: string; query?: Record<string, string>; body?: unknown } {
  const url = route.url.replace(':Id', '1');
  const query: Record<string, string> = { Id: '1', Disabled: 'false', UserIds: '' };
  const body =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : { Id: 1, Name: 'x', NewPassword: 'abcdefgh' };
  return { url, query, ...(body ? { body } : {}) };
}

describeEachDb('every endpoint is guarded on the server', (h) => {
  it('declares at least the documented auth, user and area endpoints', () => {
    const declared = h().routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'POST /api/Auth/login',
      'POST /api/Auth/logout',
      'GET /api/Auth/Resource',
      'GET /api/AppUser/Info',
      'PATCH /api/AppUser/UserUpdateInfo/:Id',
      'PATCH /api/AppUser/ModifyPassword/:Id',
      'GET /api/AreaInfo',
      'GET /api/AreaInfo/:Id',
      'POST /api/AreaInfo',
      'DELETE /api/AreaInfo',
      'POST /api/AreaInfo/DisableAreaInfo',
      'POST /api/AreaInfo/UpdateAreaInfo',
      'POST /api/AreaInfo/SetAuth',
      'POST /api/AreaInfo/SetCustom',
      'GET /api/AreaInfo/GetHubUrl',
    ]) {
      expect(declared).toContain(expected);
    }
  });

  it('refuses every non-public endpoint without a token (401)', async () => {
    const routes = h().routes.filter((r) => r.access !== 'public');
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const s = sample(route);
      const reply = await call(h().app, route.method, s.url, { query: s.query, body: s.body, area: 1 });
      expect(reply.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('refuses every code-gated endpoint to a user without its codes (403)', async () => {
    const routes = h().routes.filter((r) => Array.isArray(r.access));
    const token = await makeUser(h(), 'nocodes', [], [1, 2]);
    for (const route of routes) {
      const s = sample(route);
      const reply = await call(h().app, route.method, s.url, {
        token,
        query: s.query,
        body: s.body,
        area: 1,
      });
      expect(reply.status, `${route.method} ${route.url}`).toBe(403);
      expect(reply.msg).toBe('没有执行此操作的权限');
    }
  });

  // A user and three calls per area-scoped route (over a hundred routes): past 30 s on PostgreSQL with files side by
  // side (stop 33's unit run, and a run of this session).
  it('refuses every area-scoped endpoint for an area the caller does not operate (403), or no area (400)', async () => {
    const routes = h().routes.filter((r) => r.area);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const codes = Array.isArray(route.access) ? route.access : [];
      const token = await makeUser(
        h(),
        `area1-${route.method}-${route.url}`.replace(/[^a-z0-9-]/gi, '').slice(0, 60),
        codes,
        [1],
      );
      const s = sample(route);
      const foreign = await call(h().app, route.method, s.url, {
        token,
        query: s.query,
        body: s.body,
        area: 2,
      });
      expect(foreign.status, `${route.method} ${route.url}`).toBe(403);
      expect(foreign.msg).toBe('无权操作该区域');
      const missing = await call(h().app, route.method, s.url, { token, query: s.query, body: s.body });
      expect(missing.status).toBe(400);
      const unknown = await call(h().app, route.method, s.url, {
        token,
        query: s.query,
        body: s.body,
        area: 999,
      });
      expect(unknown.status).toBe(403);
    }
  }, 120_000);

  it('refuses area management calls on an area the caller does not operate (403) and changes nothing', async () => {
    const token = await makeUser(h(), 'areaadmin1', ['AreaInfo/Admin'], [1]);
    const before = await h()
      .db.kysely.selectFrom('AreaInfo')
      .selectAll()
      .where('Id', '=', 2)
      .executeTakeFirstOrThrow();
    const attempts: [string, string, { query?: Record<string, string>; body?: unknown }][] = [
      ['GET', '/api/AreaInfo/2', {}],
      ['GET', '/api/AreaInfo/GetHubUrl', { query: { Id: '2' } }],
      ['POST', '/api/AreaInfo/UpdateAreaInfo', { body: { Id: 2, Name: 'hijacked' } }],
      ['POST', '/api/AreaInfo/DisableAreaInfo', { query: { Id: '2' } }],
      ['POST', '/api/AreaInfo/SetAuth', { query: { Id: '2', UserIds: '1' } }],
      ['POST', '/api/AreaInfo/SetCustom', { query: { Id: '2', Custom: '{"a":1}' } }],
      ['DELETE', '/api/AreaInfo', { query: { Id: '2' } }],
    ];
    for (const [method, url, options] of attempts) {
      const reply = await call(h().app, method as 'GET', url, { token, ...options });
      expect(reply.status, `${method} ${url}`).toBe(403);
    }
    const after = await h()
      .db.kysely.selectFrom('AreaInfo')
      .selectAll()
      .where('Id', '=', 2)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const list = await call<{ Items: { Id: number }[] }>(h().app, 'GET', '/api/AreaInfo', { token });
    expect(list.data.Items.map((a) => a.Id)).toEqual([1]);
  });
});
