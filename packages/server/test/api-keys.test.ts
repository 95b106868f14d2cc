import { createHash } from 'node:crypto';
import {
  auditWords,
  translate,
  type ApiKeyCreated,
  type ApiKeyItem,
  type AuditLogItem,
} from '@gatehouse/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * Issue 29, API keys: a key acts exactly as a user holding its codes in its areas (the same checks, the same
 * area boundary), the operation log names it, it never manages keys, users, roles or webhooks, and an expired
 * or revoked key is refused with a message saying which. Revocation across instances: api-keys-cluster.test.ts.
 */

const en = (key: string) => translate('en', key);
const KEY_IP = '10.20.30.40';

describeEachDb('API keys', (h) => {
  let admin: string;

  beforeAll(async () => {
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
  });

  async function createKey(body: Record<string, unknown>, token = admin): Promise<ApiKeyCreated> {
    const reply = await call<ApiKeyCreated>(h().app, 'POST', '/api/ApiKey', { token, body });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  }

  /** A call made with a key, from the integration's address, in English. */
  const withKey = (
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    area?: number,
    body?: unknown,
  ) => call(h().app, method, url, { token: key, area, body, ip: KEY_IP, lang: 'en' });

  async function listed(id: number): Promise<ApiKeyItem> {
    const reply = await call<{ Items: ApiKeyItem[] }>(h().app, 'GET', '/api/ApiKey', {
      token: admin,
      query: { PageSize: 100 },
    });
    expect(reply.status, reply.msg).toBe(200);
    const item = reply.data.Items.find((k) => k.Id === id);
    expect(item, `key ${id} is listed`).toBeDefined();
    return item!;
  }

  describe('a key with one area and one read code', () => {
    let key: ApiKeyCreated;
    beforeAll(async () => {
      key = await createKey({ Name: 'directory sync', AreaIds: [1], Codes: ['Department/User'] });
    });

    it('is shown once: a recognisable prefix and 256 random bits, only its hash stored, never listed', async () => {
      expect(key.Secret).toMatch(/^ghk_[A-Za-z0-9_-]{43}$/);
      expect(key.Prefix).toBe(key.Secret.slice(0, 12));
      expect(key.State).toBe('active');
      expect(key.Areas).toEqual([{ Id: 1, Name: expect.any(String) }]);
      expect(key.Codes).toEqual(['Department/User']);
      expect(key.CreatedByName).toBe('admin');
      const row = await h()
        .db.kysely.selectFrom('ApiKey')
        .selectAll()
        .where('Id', '=', key.Id)
        .executeTakeFirstOrThrow();
      expect(row.KeyHash).toBe(createHash('sha256').update(key.Secret).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(key.Secret.slice(12));
      const list = await call(h().app, 'GET', '/api/ApiKey', { token: admin, query: { PageSize: 100 } });
      expect(JSON.stringify(list.data)).not.toContain(key.Secret.slice(12));
      const detail = await call(h().app, 'GET', `/api/ApiKey/${key.Id}`, { token: admin });
      expect(JSON.stringify(detail.data)).not.toContain(key.Secret.slice(12));
    });

    it('reads its area as a user with that code would', async () => {
      const asKey = await withKey(key.Secret, 'GET', '/api/Department', 1);
      const asUser = await call(h().app, 'GET', '/api/Department', {
        token: await login(h().app, 'deptuser', DEMO_PASSWORD),
        area: 1,
      });
      expect(asKey.status, asKey.msg).toBe(200);
      expect(asKey.data).toEqual(asUser.data);
      expect((asKey.data as { Total: number }).Total).toBeGreaterThan(0);
    });

    it('is refused (403) on another area, on a write, and on a code it does not hold', async () => {
      const otherArea = await withKey(key.Secret, 'GET', '/api/Department', 2);
      expect(otherArea.status).toBe(403);
      expect(otherArea.msg).toBe(en('error.areaForbidden'));
      const write = await withKey(key.Secret, 'POST', '/api/Department', 1, { Name: 'Made by a key' });
      expect(write.status).toBe(403);
      expect(write.msg).toBe(en('error.forbidden'));
      const otherCode = await withKey(key.Secret, 'GET', '/api/CardUser', 1);
      expect(otherCode.status).toBe(403);
      const made = await h()
        .db.kysely.selectFrom('Department')
        .select('Id')
        .where('Name', '=', 'Made by a key')
        .executeTakeFirst();
      expect(made).toBeUndefined();
    });

    it('cannot create a key, nor list keys', async () => {
      const created = await withKey(key.Secret, 'POST', '/api/ApiKey', undefined, {
        Name: 'child',
        AreaIds: [1],
        Codes: ['Department/User'],
      });
      expect(created.status).toBe(403);
      expect(created.msg).toBe(en('error.apiKeyNotAllowed'));
      expect((await withKey(key.Secret, 'GET', '/api/ApiKey')).status).toBe(403);
    });

    it('shows when and from where it was last used', async () => {
      const item = await listed(key.Id);
      expect(item.LastUsedIp).toBe(KEY_IP);
      expect(item.LastUsedAt).toBe(new Date(h().clock.now()).toISOString());
    });
  });

  it('a key holding SuperAdmin still manages no keys, users, roles or webhooks: every people-only route is 403', async () => {
    const key = await createKey({
      Name: 'all codes',
      AreaIds: [1, 2],
      Codes: ['SuperAdmin', 'AppUser/Admin', 'Role/Admin', 'Resource'],
    });
    const peopleOnly = h().routes.filter((r) => r.op?.keys === false);
    const paths = peopleOnly.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'POST /api/ApiKey',
      'GET /api/ApiKey',
      'POST /api/ApiKey/Revoke',
      'GET /api/AppUser',
      'POST /api/AppUser',
      'POST /api/AppUser/ResetPassword',
      'GET /api/Role',
      'POST /api/Role',
      'PUT /api/Role/SetResources',
      'POST /api/Resource',
      'POST /api/AreaInfo/SetAuth',
    ])
      expect(paths).toContain(expected);
    // Every operation on keys, users, roles, resources and webhooks is for people only, those to come too.
    const managing = h().routes.filter((r) =>
      /^\/api\/(ApiKey|AppUser|Role|Resource|Webhook\w*)\b/.test(r.url),
    );
    expect(managing.length).toBeGreaterThan(20);
    expect(managing.filter((r) => r.op?.keys !== false).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const route of peopleOnly) {
      const url = route.url.replace(':Id', '1');
      const reply = await withKey(
        key.Secret,
        route.method as 'GET',
        url,
        1,
        route.method === 'GET' ? undefined : {},
      );
      expect(reply.status, `${route.method} ${route.url}`).toBe(403);
      expect(reply.msg).toBe(en('error.apiKeyNotAllowed'));
    }
    // The API reference says so, where an integrator reads it.
    const docs = await h().app.inject({
      url: '/api/docs/json',
      headers: { authorization: `Bearer ${admin}` },
    });
    const operations = (docs.json() as { paths: Record<string, Record<string, { description?: string }>> })
      .paths;
    expect(operations['/api/ApiKey']!.post!.description).toContain('For people only');
    expect(operations['/api/ChargeOrder']!.get!.description ?? '').not.toContain('For people only');
    // What its codes open besides is open to it, as to a user: the SuperAdmin-only operation log.
    expect((await withKey(key.Secret, 'GET', '/api/AuditLog')).status).toBe(200);
    expect((await call(h().app, 'GET', '/api/ApiKey', { token: admin })).status).toBe(200);
  });

  it('the operation log names the key, from its address', async () => {
    const key = await createKey({ Name: 'people directory', AreaIds: [1], Codes: ['Department/Admin'] });
    const made = await withKey(key.Secret, 'POST', '/api/Department', 1, { Name: 'Synced by key' });
    expect(made.status, made.msg).toBe(200);
    const departmentId = (made.data as { Id: number }).Id;
    const log = await call<{ Items: AuditLogItem[] }>(h().app, 'GET', '/api/AuditLog', {
      token: admin,
      query: { Entity: 'Department', PageSize: 50 },
    });
    expect(log.status, log.msg).toBe(200);
    const entry = log.data.Items.find((e) => e.EntityId === String(departmentId) && e.Action === 'create');
    expect(entry).toMatchObject({
      ActorKind: 'key',
      UserId: null,
      UserName: `people directory (${key.Prefix}…)`,
      Ip: KEY_IP,
      AreaId: 1,
    });
    const row = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['ActorKind', 'ActorId'])
      .where('Id', '=', entry!.Id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ ActorKind: 'key', ActorId: key.Id });
    expect(auditWords(entry!, (k, p) => translate('en', k, p)).actor).toBe(
      `API key people directory (${key.Prefix}…)`,
    );
    // The key's own making and revoking are in the log too, by the administrator.
    const keyLog = await call<{ Items: AuditLogItem[] }>(h().app, 'GET', '/api/AuditLog', {
      token: admin,
      query: { Entity: 'ApiKey', PageSize: 50 },
    });
    expect(keyLog.data.Items.find((e) => e.EntityId === String(key.Id))).toMatchObject({
      Action: 'create',
      ActorKind: 'user',
      UserName: 'admin',
    });
    expect(keyLog.data.Items.find((e) => e.EntityId === String(key.Id))!.After).not.toContain(
      key.Secret.slice(12),
    );
  });

  it('an expired key is refused with a message saying so', async () => {
    const key = await createKey({
      Name: 'expiring',
      AreaIds: [1],
      Codes: ['Department/User'],
      ExpiresAt: new Date(h().clock.now() + 3_600_000).toISOString(),
    });
    expect((await withKey(key.Secret, 'GET', '/api/Department', 1)).status).toBe(200);
    h().clock.advance(3_600_000);
    const refused = await withKey(key.Secret, 'GET', '/api/Department', 1);
    expect(refused.status).toBe(401);
    expect(refused.msg).toBe(en('error.apiKeyExpired'));
    expect((await listed(key.Id)).State).toBe('expired');
    // An expiry already past is refused when the key is made.
    const past = await call(h().app, 'POST', '/api/ApiKey', {
      token: admin,
      body: { Name: 'late', AreaIds: [1], Codes: ['Department/User'], ExpiresAt: h().clock.now() - 1 },
    });
    expect(past.status).toBe(400);
  });

  it('a revoked key is refused at once, and stays listed as revoked', async () => {
    const key = await createKey({ Name: 'to revoke', AreaIds: [1], Codes: ['Department/User'] });
    expect((await withKey(key.Secret, 'GET', '/api/Department', 1)).status).toBe(200);
    const revoked = await call<ApiKeyItem>(h().app, 'POST', '/api/ApiKey/Revoke', {
      token: admin,
      query: { Id: key.Id },
    });
    expect(revoked.status, revoked.msg).toBe(200);
    expect(revoked.data).toMatchObject({ State: 'revoked', RevokedByName: 'admin' });
    const refused = await withKey(key.Secret, 'GET', '/api/Department', 1);
    expect(refused.status).toBe(401);
    expect(refused.msg).toBe(en('error.apiKeyRevoked'));
    expect((await listed(key.Id)).State).toBe('revoked');
    const log = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action', 'UserName'])
      .where('Entity', '=', 'ApiKey')
      .where('EntityId', '=', String(key.Id))
      .where('Action', '=', 'revoke')
      .execute();
    expect(log).toEqual([{ Action: 'revoke', UserName: 'admin' }]);
  });

  it('an unknown key is refused (401) with its own message', async () => {
    const refused = await withKey('ghk_' + 'A'.repeat(43), 'GET', '/api/Department', 1);
    expect(refused.status).toBe(401);
    expect(refused.msg).toBe(en('error.apiKeyInvalid'));
  });

  it('is made by the built-in admin and SuperAdmin only, never with more than its creator holds', async () => {
    const deptAdmin = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    const notAllowed = await call(h().app, 'POST', '/api/ApiKey', {
      token: deptAdmin,
      body: { Name: 'mine', AreaIds: [1], Codes: ['Department/Admin'] },
    });
    expect(notAllowed.status).toBe(403);

    // A SuperAdmin operating area 1 only: its own code there, nothing else and nowhere else.
    const superAdmin = await makeUser(h(), 'keymaker', ['SuperAdmin'], [1]);
    const own = await createKey({ Name: 'pools', AreaIds: [1], Codes: ['SuperAdmin'] }, superAdmin);
    expect(own.CreatedByName).toBe('keymaker');
    const moreCodes = await call(h().app, 'POST', '/api/ApiKey', {
      token: superAdmin,
      body: { Name: 'more', AreaIds: [1], Codes: ['SuperAdmin', 'Department/Admin'] },
    });
    expect(moreCodes.status).toBe(403);
    const moreAreas = await call(h().app, 'POST', '/api/ApiKey', {
      token: superAdmin,
      body: { Name: 'wider', AreaIds: [1, 2], Codes: ['SuperAdmin'] },
    });
    expect(moreAreas.status).toBe(403);
    const keys = await h()
      .db.kysely.selectFrom('ApiKey')
      .select('Name')
      .where('Name', 'in', ['more', 'wider', 'mine'])
      .execute();
    expect(keys).toEqual([]);
  });
});
