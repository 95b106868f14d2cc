import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { WgSimulator } from '@gatehouse/wg-simulator';
import type { AreaLockdownItem } from '@gatehouse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { Leases, OwnedDevices } from '../src/platform/cluster/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { childDatabase, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

/**
 * Lockdown and release across two instances on one PostgreSQL (issue 31, "must show" 2): two apps in one process,
 * each with its own pool, bus and hand-started WG gateway sharing the area's four controllers out by leases (short
 * terms, as wg-cluster.test.ts); the lockdown is asked of one instance and the release of the other, so each is
 * served for controllers the instance asked does not drive. One controller is offline when the lockdown starts and
 * gets the mode when it answers again. Every door is read back from its controller, and a browser on the second
 * instance sees the doors the first one's controllers confirmed, live.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const AREA = 1;
const TTL_MS = 4000;
const ROUND_MS = 500;

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Instance {
  id: string;
  built: Built;
  db: Db;
  base: string;
  gateway: WgGateway;
  token: string;
}

describe.runIf(Boolean(pgUrl))('[postgres] area lockdown across instances', () => {
  let database: ChildDatabase;
  let sim: WgSimulator;
  let devices: { Id: number; SerialNumber: string; Name: string; Type: number }[];
  const live = new Set<string>();
  const instances: Instance[] = [];

  async function instance(id: string): Promise<Instance> {
    const db = database.open();
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'demo', ADMIN_PASSWORD, INSTANCE_ID: id });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock: systemClock });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    live.add(id);
    const gateway = await WgGateway.start({
      db,
      clock: systemClock,
      // Its controllers' answers go to this instance's hub, which fans them out to every instance's browsers.
      hub: built.hub,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.2,
      driftMinutes: 60,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 60, tries: 3 },
      ownership: {
        devices: new OwnedDevices({
          leases: new Leases(db, systemClock),
          clock: systemClock,
          kind: 'wg',
          self: id,
          live: async () => [...live],
          ttlMs: TTL_MS,
        }),
        owners: built.platform.cluster.owners,
        everyMs: ROUND_MS,
      },
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    built.platform.seams.doorControllers = gateway;
    const made: Instance = {
      id,
      built,
      db,
      gateway,
      base: `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`,
      token: await login(built.app, 'admin', ADMIN_PASSWORD),
    };
    instances.push(made);
    return made;
  }

  const [a, b] = [() => instances[0]!, () => instances[1]!];
  const drivenBy = (i: Instance) => devices.filter((d) => i.gateway.drives(d.Id));
  const current = async (i: Instance) => {
    const r = await call<{ Lockdown: AreaLockdownItem | null }>(
      i.built.app,
      'GET',
      '/api/AreaInfo/Lockdown',
      {
        token: i.token,
        area: AREA,
      },
    );
    expect(r.status, r.msg).toBe(200);
    return r.data.Lockdown;
  };
  const doorsOf = (d: { SerialNumber: string }) =>
    sim.controller(Number(d.SerialNumber)).rulesSnapshot().doors;
  const inMode = (d: { SerialNumber: string }, mode: number) =>
    doorsOf(d).every((door) => door.mode === mode && door.effectiveMode === mode);

  beforeAll(async () => {
    database = await childDatabase('postgres', 'lockdown');
    const first = database.open();
    await migrateToLatest(first);
    await seedIfEmpty(first, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.005 });
    // Four controllers of the area (one, two and four doors) are its whole fleet, each a simulated controller.
    const all = await first.kysely
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name', 'Type'])
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .execute();
    devices = ['1', '2', '4', '2'].map(
      (lead, i) => all.filter((d) => d.SerialNumber.startsWith(lead))[i === 3 ? 1 : 0]!,
    );
    sim = await WgSimulator.start({
      controllers: devices.map((d) => ({ serial: Number(d.SerialNumber) })),
      timeZone: 'Asia/Shanghai',
    });
    await fleetOfSimulated(first, sim, devices);
    await first.close();
    await instance('lockdown-a');
    await instance('lockdown-b');
    await until(
      async () =>
        drivenBy(a()).length === 2 &&
        drivenBy(b()).length === 2 &&
        devices.every((d) => instances.filter((i) => i.gateway.drives(d.Id)).length === 1),
      30_000,
      'the controllers shared out, two each',
    );
  }, 120_000);

  afterAll(async () => {
    for (const i of instances) {
      delete i.built.platform.seams.doorControllers;
      await i.gateway.close();
      await i.built.app.close();
      await i.db.close();
    }
    await sim?.close();
    await database?.drop();
  });

  it('locks down on one instance, releases on the other; every door read back, the offline one as it answers', async () => {
    // A browser on instance B, following area 1's hub.
    const ticket = (await (
      await fetch(`${b().base}/api/AreaInfo/GetHubUrl?Id=${AREA}`, {
        headers: { authorization: `Bearer ${b().token}` },
      })
    ).json()) as { data: string };
    const socket = new WebSocket(new URL(ticket.data, b().base.replace('http', 'ws')).href);
    const events: { Type: string; DeviceId?: number; State?: string; ReleasedAt?: string | null }[] = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('message', resolve));

    try {
      // A controller B drives is offline when the lockdown starts; it is asked of A.
      const offline = drivenBy(b())[0]!;
      sim.setOffline(true, Number(offline.SerialNumber));
      const started = await call<AreaLockdownItem>(a().built.app, 'POST', '/api/AreaInfo/Lockdown', {
        token: a().token,
        area: AREA,
        body: { Id: AREA, Mode: 'lockdown', Reason: 'intruder in building 3' },
      });
      expect(started.status, started.msg).toBe(200);
      const total = devices.reduce((n, d) => n + doorsOf(d).length, 0);
      expect(started.data.Total).toBe(total);

      const online = devices.filter((d) => d !== offline);
      const offlineDoors = doorsOf(offline).length;
      await until(
        async () =>
          online.every((d) => inMode(d, 2)) && (await current(b()))?.Confirmed === total - offlineDoors,
        30_000,
        'the online controllers held',
      );
      const held = await current(b());
      const pending = held!.Doors.filter((d) => d.State === 'pending');
      expect(pending.map((d) => d.DeviceId)).toEqual(doorsOf(offline).map(() => offline.Id));
      // Doors of controllers B drives and of those A drives are all confirmed, read back normally closed.
      for (const d of held!.Doors.filter((x) => x.DeviceId !== offline.Id))
        expect([d.State, d.Mode]).toEqual(['held', 2]);
      // The offline controller answers again: it gets the mode at once, read back.
      sim.setOffline(false, Number(offline.SerialNumber));
      await until(
        async () => inMode(offline, 2) && (await current(a()))?.Confirmed === total,
        30_000,
        'the controller back online held',
      );
      // B's browser saw each door of A's controllers confirmed, live.
      for (const d of drivenBy(a()))
        await until(
          async () =>
            events.filter((e) => e.Type === 'LockdownDoor' && e.DeviceId === d.Id && e.State === 'held')
              .length === doorsOf(d).length,
          5000,
          `the hub's LockdownDoor for ${d.Name} on instance B`,
        );

      const released = await call<AreaLockdownItem>(b().built.app, 'POST', '/api/AreaInfo/LockdownRelease', {
        token: b().token,
        area: AREA,
        body: { Id: AREA, Note: 'all clear' },
      });
      expect(released.status, released.msg).toBe(200);
      await until(
        async () => devices.every((d) => inMode(d, 3)) && (await current(a())) === null,
        30_000,
        'every door back to its own mode (controlled), read back',
      );
      expect(events.some((e) => e.Type === 'Lockdown' && e.ReleasedAt)).toBe(true);
      const doors = await a()
        .db.kysely.selectFrom('AreaLockdownDoor')
        .select(['DeviceId', 'HeldAt', 'RestoredAt', 'ReadMode'])
        .execute();
      expect(doors).toHaveLength(total);
      expect(doors.every((d) => d.HeldAt !== null && d.RestoredAt !== null && d.ReadMode === 3)).toBe(true);
    } finally {
      socket.close();
    }
  }, 120_000);
});
