import { Writable } from 'node:stream';
import type { ApiKeyCreated } from '@gatehouse/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { apiKeyHash } from '../src/platform/auth/api-keys.ts';
import { hashToken } from '../src/platform/auth/tokens.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { registerRoute, type AnyRoute } from '../src/platform/route.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, targets } from './support/harness.ts';

/**
 * Issue 29: the log stays pino JSON, every line a request writes carries its request id, and once the caller is
 * known its actor (a user, or an API key by name and prefix), never a token or a key's secret. Read from the
 * JSON lines of a real app (LOG_LEVEL info) on a migrated, demo-seeded database.
 */

interface Line {
  level: number;
  time: number;
  msg: string;
  reqId?: string;
  actor?: { kind: string; id: number; name: string };
  status?: number;
  err?: { message: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A route that fails as a bug would (an error nobody expected): its line is the error handler's. */
const failing: AnyRoute = {
  method: 'GET',
  url: '/api/test/failing',
  summary: 'fails',
  tag: 'test',
  access: 'authenticated',
  handler: async () => {
    throw new Error('the disk is full');
  },
};

for (const target of targets) {
  describe(`[${target.name}] request ids and actors in the log`, () => {
    const text: string[] = [];
    let built: Built;
    let db: Db;
    let drop: () => Promise<void>;
    let admin: string;

    beforeAll(async () => {
      const opened = await target.open();
      db = opened.db;
      drop = opened.drop;
      const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
      await migrateToLatest(db);
      await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
      const config = loadConfig({ LOG_LEVEL: 'info', SEED: 'demo', ADMIN_PASSWORD });
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          text.push(chunk.toString());
          done();
        },
      });
      built = await buildApp({
        config: { ...config, webDist: '/nonexistent' },
        db,
        clock,
        logStream,
        extend: (app, platform) => registerRoute(app, platform, failing),
      });
      admin = await login(built.app, 'admin', ADMIN_PASSWORD);
    });

    afterAll(async () => {
      await built?.app.close();
      await db?.close();
      await drop?.();
    });

    /** Every line so far, each parsed: a line that is not JSON fails the test here. */
    const lines = (): Line[] =>
      text
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Line);

    /** One request; its id as the reply's X-Request-ID says, and its lines once its failed-request line is out. */
    async function send(options: InjectOptions & { token?: string; area?: number }) {
      const { token, area, ...rest } = options;
      const reply = await built.app.inject({
        ...rest,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(area !== undefined ? { 'x-area-id': String(area) } : {}),
          ...rest.headers,
        },
      });
      const id = reply.headers['x-request-id'];
      expect(typeof id, 'every reply names its request').toBe('string');
      // The failed-request line is written when the reply has finished (onResponse), after inject may return.
      if (reply.statusCode >= 400)
        await vi.waitFor(() =>
          expect(lines().some((l) => l.reqId === id && l.msg === 'request failed')).toBe(true),
        );
      return { status: reply.statusCode, id: id as string, lines: lines().filter((l) => l.reqId === id) };
    }

    it("names the user on every line of a failing request, the error handler's included", async () => {
      const adminId = (
        await db.kysely
          .selectFrom('AppUser')
          .select('Id')
          .where('UserName', '=', 'admin')
          .executeTakeFirstOrThrow()
      ).Id;
      const failed = await send({ method: 'GET', url: failing.url, token: admin });
      expect(failed.status).toBe(500);
      expect(failed.id).toMatch(UUID);
      const actor = { kind: 'user', id: adminId, name: 'admin' };
      expect(failed.lines).toMatchObject([
        { level: 50, msg: 'unhandled error', actor, err: { message: 'the disk is full' } },
        { level: 30, msg: 'request failed', actor, status: 500 },
      ]);
    });

    it('names a user refused for lack of a code: the caller was known before the refusal', async () => {
      const deptUser = await db.kysely
        .selectFrom('AppUser')
        .select('Id')
        .where('UserName', '=', 'deptuser')
        .executeTakeFirstOrThrow();
      // Keys are managed by the built-in admin and SuperAdmin only.
      const forbidden = await send({
        method: 'GET',
        url: '/api/ApiKey',
        token: await login(built.app, 'deptuser', DEMO_PASSWORD),
      });
      expect(forbidden.status).toBe(403);
      expect(forbidden.lines).toMatchObject([
        { msg: 'request failed', status: 403, actor: { kind: 'user', id: deptUser.Id, name: 'deptuser' } },
      ]);
    });

    it('names an API key by its name and prefix, never by its secret or hash', async () => {
      const created = await call<ApiKeyCreated>(built.app, 'POST', '/api/ApiKey', {
        token: admin,
        body: { Name: 'log reader', AreaIds: [1], Codes: ['Department/User'] },
      });
      expect(created.status, created.msg).toBe(200);
      const key = created.data;
      const actor = { kind: 'key', id: key.Id, name: `log reader (${key.Prefix}…)` };

      const read = await send({ method: 'GET', url: '/api/Department', token: key.Secret, area: 1 });
      expect(read.status).toBe(200);
      // A request that succeeds writes nothing (the log is for failures).
      expect(read.lines).toEqual([]);
      // A code the key does not hold: refused after the key was known, so the refusal's line names it.
      const refused = await send({ method: 'GET', url: '/api/CardUser', token: key.Secret, area: 1 });
      expect(refused.status).toBe(403);
      expect(refused.lines).toMatchObject([{ msg: 'request failed', status: 403, actor }]);
      const failed = await send({ method: 'GET', url: failing.url, token: key.Secret });
      expect(failed.status).toBe(500);
      expect(failed.lines).toMatchObject([
        { msg: 'unhandled error', actor },
        { msg: 'request failed', actor },
      ]);
      expect(failed.id).not.toBe(refused.id);

      const all = text.join('');
      expect(all).not.toContain(key.Secret.slice(key.Prefix.length));
      expect(all).not.toContain(apiKeyHash(key.Secret));
      expect(all).not.toContain(admin);
      expect(all).not.toContain(hashToken(admin));
    });

    it('logs an unknown caller with the request id and no actor, and without the token it sent', async () => {
      const bogus = 'not-a-session-token-0123456789abcdef';
      const refused = await send({ method: 'GET', url: '/api/Department', token: bogus, area: 1 });
      expect(refused.status).toBe(401);
      expect(refused.lines).toHaveLength(1);
      expect(refused.lines[0]).toMatchObject({ msg: 'request failed', status: 401 });
      expect(refused.lines[0]!.actor).toBeUndefined();
      expect(text.join('')).not.toContain(bogus);
    });

    it("takes a proxy's well-formed X-Request-ID and sends it back; replaces anything else", async () => {
      const proxyId = '7F000001:8296_7F00001E:1F90_4F7B0A69_0003:790A';
      const given = await send({
        method: 'GET',
        url: failing.url,
        token: admin,
        headers: { 'x-request-id': proxyId },
      });
      expect(given.id).toBe(proxyId);
      expect(given.lines.map((l) => l.msg)).toEqual(['unhandled error', 'request failed']);

      for (const bad of ['x'.repeat(129), 'two words', '{"level":60}', 'id;drop']) {
        const replaced = await send({
          method: 'GET',
          url: '/api/nowhere',
          headers: { 'x-request-id': bad },
        });
        expect(replaced.status).toBe(404);
        expect(replaced.id).toMatch(UUID);
        expect(replaced.lines).toHaveLength(1);
      }
      // Without one, each request gets its own.
      const first = await send({ method: 'GET', url: '/api/nowhere' });
      const second = await send({ method: 'GET', url: '/api/nowhere' });
      expect(first.id).toMatch(UUID);
      expect(second.id).toMatch(UUID);
      expect(first.id).not.toBe(second.id);
    });
  });
}
