import type { AddressInfo } from 'node:net';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, logFailedRequests, type Built } from '../src/app.ts';
import { migrateToLatest, migrations, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { Readiness, registerReadiness } from '../src/platform/cluster/readiness.ts';
import { login } from './support/client.ts';
import { ADMIN_PASSWORD, targets } from './support/harness.ts';

/**
 * Issue 19, readiness and drain (docs/deployment.md, "Health and readiness"): /readyz beside /healthz, and a
 * drain that answers 503 on /readyz, closes the live hub's sockets and the device gateways (clients reconnect
 * elsewhere), then lets app.close() finish the requests in flight.
 */
async function until(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 15));
  }
}

for (const target of targets) {
  describe(`[${target.name}] /readyz and the drain`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    let built: Built;
    let base = '';
    let releaseSlow: () => void = () => {};
    const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));

    beforeAll(async () => {
      const opened = await target.open();
      db = opened.db;
      drop = opened.drop;
      await migrateToLatest(db);
      await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        SEED: 'demo',
        ADMIN_PASSWORD,
        INSTANCE_ID: 'drain-1',
      });
      built = await buildApp({
        config: { ...config, webDist: '/nonexistent' },
        db,
        clock,
        // A request that stays in flight until the test lets it finish.
        extend: (app) =>
          void app.get('/test/slow', async () => {
            await new Promise<void>((resolve) => (releaseSlow = resolve));
            return { code: 200, msg: '', data: 'finished' };
          }),
      });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await built?.app.close();
      await db?.close();
      await drop?.();
    });

    it('answers ready with what it checked, and not ready while a migration this code knows is missing', async () => {
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown }).data).toEqual({
        status: 'ready',
        instance: 'drain-1',
        ready: true,
        draining: false,
        database: true,
        pendingMigrations: [],
        bus: true,
      });
      const newer = new Readiness({
        instanceId: 'x',
        db,
        bus: { connected: true },
        migrations: [...Object.keys(migrations), '9999-next'],
      });
      expect(await newer.check()).toMatchObject({ ready: false, pendingMigrations: ['9999-next'] });
      const busDown = new Readiness({
        instanceId: 'x',
        db,
        bus: { connected: false },
        migrations: Object.keys(migrations),
      });
      expect(await busDown.check()).toMatchObject({ ready: false, bus: false, database: true });
    });

    it('a drain answers 503 at once, closes hub sockets and charge points, and app.close() finishes the request in flight', async () => {
      // A browser's hub socket and a charge point, connected here.
      const token = await login(built.app, 'admin', ADMIN_PASSWORD);
      const ticketUrl = (await (
        await fetch(`${base}/api/AreaInfo/GetHubUrl?Id=1`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: string };
      const hubSocket = new WebSocket(new URL(ticketUrl.data, base.replace('http', 'ws')).href);
      const hubClosed = new Promise<number>((resolve) => hubSocket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => hubSocket.once('message', resolve));

      const host = await db.kysely
        .selectFrom('ChargeHost')
        .select(['Id', 'SerialNumber'])
        .where('ChargingSystemType', '=', 2)
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      await setOcppPassword(db, host.Id, 'drain-test-password');
      const cp = new ChargePoint({
        url: `${base.replace('http', 'ws')}/ocpp`,
        id: host.SerialNumber,
        password: 'drain-test-password',
        connectors: 2,
        timers: false,
        now: () => clock.now(),
      });
      await cp.goOnline();
      await until(() => cp.bootStatus === 'Accepted');
      expect(built.ocpp.connection(host.Id)).toBeDefined();

      const slow = fetch(`${base}/test/slow`);
      // The slow request has reached its handler.
      await new Promise((r) => setTimeout(r, 100));

      const draining = built.drain(300);
      const during = await fetch(`${base}/readyz`);
      expect(during.status).toBe(503);
      expect(((await during.json()) as { data: { status: string } }).data.status).toBe('draining');
      // Liveness is not readiness: the instance is alive while it drains.
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      await draining;
      expect(await hubClosed).toBe(1001);
      // A browser that reaches this instance in the moment before the proxy noticed is sent on at once.
      const late = (await (
        await fetch(`${base}/api/AreaInfo/GetHubUrl?Id=1`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: string };
      const lateSocket = new WebSocket(new URL(late.data, base.replace('http', 'ws')).href);
      const lateMessages: string[] = [];
      lateSocket.on('message', (data: Buffer) => lateMessages.push(data.toString()));
      expect(await new Promise<number>((resolve) => lateSocket.on('close', (code) => resolve(code)))).toBe(
        1001,
      );
      expect(lateMessages).toEqual([]);
      expect(built.ocpp.connection(host.Id)).toBeUndefined();
      await cp.close();

      const closing = built.app.close();
      releaseSlow();
      const finished = await slow;
      expect(finished.status).toBe(200);
      expect(((await finished.json()) as { data: string }).data).toBe('finished');
      await closing;
      await expect(fetch(`${base}/readyz`)).rejects.toThrow();
    });
  });
}

describe('readiness in the log', () => {
  it('a proxy polling a draining instance leaves one line per change, not a failed request per check', async () => {
    const lines: { msg: string; url?: string; status?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    logFailedRequests(app);
    let draining = false;
    const readiness = {
      check: async () => ({
        instance: 'x',
        ready: !draining,
        draining,
        database: true,
        pendingMigrations: [],
        bus: true,
      }),
    } as unknown as Readiness;
    registerReadiness(app, readiness);
    app.get('/missing-thing', async (_request, reply) => reply.status(404).send({}));
    await app.ready();
    for (let i = 0; i < 3; i++) expect((await app.inject('/readyz')).statusCode).toBe(200);
    draining = true;
    for (let i = 0; i < 20; i++) expect((await app.inject('/readyz')).statusCode).toBe(503);
    // Another failed request is still logged as one.
    expect((await app.inject('/missing-thing')).statusCode).toBe(404);
    await app.close();
    expect(lines.filter((l) => l.msg.startsWith('readiness'))).toMatchObject([
      { msg: 'readiness: draining' },
    ]);
    expect(lines.filter((l) => l.msg === 'request failed')).toMatchObject([
      { url: '/missing-thing', status: 404 },
    ]);
  });
});
