import { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import {
  DoorControllerError,
  storeControllerRecords,
  wgControllers,
} from '../src/modules/access-control/index.ts';
import {
  LeaseLostError,
  Leases,
  LocalBus,
  LocalBusNetwork,
  OwnedDevices,
  OwnerCalls,
} from '../src/platform/cluster/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { deviceActor } from '../src/platform/context.ts';
import { describeEachDb } from './support/harness.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

/**
 * Door controllers across instances (docs/deployment.md): two gateways on one database stand for two
 * instances, each with its own bus joined in one network, its own lease holder name and its own listener.
 * Lease terms are short (4 s, rounds of 0.5 s) so takeovers happen within the test. Terms of 1.5 s (rounds of
 * 0.3 s) were too short for PostgreSQL on a loaded two-core machine: a renewal late by a second lost an
 * instance all its controllers between two tests (a CI run and a local run, both with test files side by side).
 */

const TTL_MS = 4000;
const ROUND_MS = 500;

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeEachDb('WG controllers shared out among instances', (h) => {
  let sim: WgSimulator;
  let devices: { Id: number; SerialNumber: string; Name: string }[];
  const network = new LocalBusNetwork();
  const live = new Set<string>();
  const running = new Map<string, { gateway: WgGateway; owned: OwnedDevices; bus: LocalBus }>();

  const start = async (self: string) => {
    const bus = new LocalBus({ network });
    const owned = new OwnedDevices({
      leases: new Leases(h().db, systemClock),
      clock: systemClock,
      kind: 'wg',
      self,
      live: async () => [...live],
      ttlMs: TTL_MS,
    });
    live.add(self);
    const gateway = await WgGateway.start({
      db: h().db,
      clock: systemClock,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.2,
      driftMinutes: 60,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 60, tries: 3 },
      ownership: {
        devices: owned,
        owners: new OwnerCalls({ bus, self, isLive: async (id) => live.has(id) }),
        everyMs: ROUND_MS,
      },
    });
    running.set(self, { gateway, owned, bus });
    return running.get(self)!;
  };
  const stop = async (self: string) => {
    const r = running.get(self);
    running.delete(self);
    live.delete(self);
    await r?.gateway.close();
    await r?.bus.close();
  };

  /** Each controller's holder in the lease table (unexpired), by device id. */
  const holders = async () => {
    const leases = await new Leases(h().db, systemClock).list('wg');
    const now = Date.now();
    return new Map(
      leases.filter((l) => l.holder !== null && l.expiresAt > now).map((l) => [Number(l.key), l.holder!]),
    );
  };
  const heldBy = async (self: string) =>
    devices.filter((d) => running.get(self)?.gateway.drives(d.Id)).map((d) => d.Id);
  /** Every controller driven by exactly one running gateway, and its listener pointed at that one. */
  const sharedOut = async () => {
    for (const d of devices) {
      const drivers = [...running.values()].filter((r) => r.gateway.drives(d.Id));
      if (drivers.length !== 1) return false;
      const listener = sim.controller(Number(d.SerialNumber)).listener;
      if (listener.port !== drivers[0]!.gateway.listenerAddress()?.port) return false;
    }
    return true;
  };
  const stored = async () => {
    const row = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`count(distinct "DeviceId" || ':' || "RecordIndex")`.as('d'),
      ])
      .where(
        'DeviceId',
        'in',
        devices.map((d) => d.Id),
      )
      .where('RecordIndex', 'is not', null)
      .executeTakeFirst();
    return { n: Number(row?.n ?? 0), distinct: Number(row?.d ?? 0) };
  };
  const swiped = () => devices.reduce((n, d) => n + sim.controller(Number(d.SerialNumber)).lastIndex, 0);

  beforeAll(async () => {
    const k = h().db.kysely;
    devices = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name'])
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .where('AreaId', 'is not', null)
      .orderBy('Id')
      .limit(6)
      .execute();
    expect(devices).toHaveLength(6);
    sim = await WgSimulator.start({
      controllers: devices.map((d) => ({ serial: Number(d.SerialNumber) })),
      timeZone: 'Asia/Shanghai',
    });
    // Only these six answer; every other controller is disabled so that the six are the whole fleet.
    await fleetOfSimulated(h().db, sim, devices);
  });

  afterAll(async () => {
    for (const self of [...running.keys()]) await stop(self);
    await sim?.close();
  });

  it('shares the controllers out, each driven by one instance whose listener it pushes to; records stored once', async () => {
    await start('gh-a');
    await start('gh-b');
    await until(
      async () => (await heldBy('gh-a')).length === 3 && (await heldBy('gh-b')).length === 3 && sharedOut(),
      15_000,
      'three controllers each',
    );
    const table = await holders();
    expect([...table.values()].sort()).toEqual(['gh-a', 'gh-a', 'gh-a', 'gh-b', 'gh-b', 'gh-b']);
    for (const d of devices) expect(running.get(table.get(d.Id)!)!.gateway.drives(d.Id)).toBe(true);

    for (const d of devices) for (let i = 0; i < 15; i++) sim.swipe(Number(d.SerialNumber), 4000 + i, 1);
    await until(async () => (await stored()).n === swiped(), 20_000, 'collection');
    await new Promise((r) => setTimeout(r, 600));
    expect(await stored()).toEqual({ n: swiped(), distinct: swiped() });
  }, 60_000);

  it('carries a door command to the instance driving the controller and brings its answer back', async () => {
    const a = running.get('gh-a')!.gateway;
    // Each instance drives its share now (a renewal that came late may have moved one for a moment).
    await until(
      async () => (await heldBy('gh-a')).length === 3 && (await heldBy('gh-b')).length === 3 && sharedOut(),
      15_000,
      'three controllers each',
    );
    const target = devices.find((d) => running.get('gh-b')!.gateway.drives(d.Id))!;
    const [ref] = await wgControllers(
      { db: h().db, clock: systemClock, lang: 'en', actor: deviceActor(0, 'test'), areaId: undefined },
      target.Id,
    );
    const serial = Number(target.SerialNumber);
    const before = sim.controller(serial).lastIndex;
    await a.openDoor(ref!, 1);
    // The open happened at the controller (it records a remote open), issued through the other instance.
    expect(sim.controller(serial).lastIndex).toBe(before + 1);
    const { driftSeconds } = await a.setTime(ref!);
    expect(typeof driftSeconds).toBe('number');
    // An access check's read (issue 31) takes the same path: the card, the door's control and the clock, read there.
    const read = await a.readCard(ref!, 3_999_999_999, 1);
    expect(read).toMatchObject({ card: null, profiles: [], door: { mode: expect.any(Number) } });
    expect(typeof read.driftSeconds).toBe('number');
    // A controller that answers nobody: the owner's failure comes back in the operator's terms.
    sim.setOffline(true, serial);
    try {
      const failure = await a.openDoor(ref!, 1).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DoorControllerError);
      // The driving instance's own verdict (it knows the controller went silent), not a transport error.
      expect(['offline', 'timeout']).toContain((failure as DoorControllerError).reason);
    } finally {
      sim.setOffline(false, serial);
    }
  }, 30_000);

  it('takes a stopped instance’s controllers over, and gives them back when it returns; nothing collected twice', async () => {
    const b = running.get('gh-b')!;
    const bDevices = await heldBy('gh-b');
    const staleFence = b.owned.fence(String(bDevices[0]));
    await stop('gh-b');
    for (const d of devices) for (let i = 0; i < 10; i++) sim.swipe(Number(d.SerialNumber), 5000 + i, 1);
    await until(async () => (await heldBy('gh-a')).length === 6 && sharedOut(), 20_000, 'takeover by gh-a');
    await until(async () => (await stored()).n === swiped(), 20_000, 'collection after takeover');

    // The former owner's fence no longer holds: a late write of its pass stores nothing, moves no cursor.
    const cursorBefore = await h()
      .db.kysely.selectFrom('AccessControlRecordCursor')
      .selectAll()
      .where('DeviceId', '=', bDevices[0]!)
      .executeTakeFirst();
    await expect(
      storeControllerRecords(
        {
          db: h().db,
          clock: systemClock,
          lang: 'en',
          actor: deviceActor(bDevices[0]!, 'late'),
          areaId: undefined,
          fence: staleFence,
        },
        bDevices[0]!,
        [],
        { nextIndex: 1, lost: 99 },
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    const cursorAfter = await h()
      .db.kysely.selectFrom('AccessControlRecordCursor')
      .selectAll()
      .where('DeviceId', '=', bDevices[0]!)
      .executeTakeFirst();
    expect(cursorAfter).toEqual(cursorBefore);

    // gh-b back under the same id: its own controllers move back to it (rendezvous ranking).
    await start('gh-b');
    await until(
      async () => (await heldBy('gh-a')).length === 3 && (await heldBy('gh-b')).length === 3 && sharedOut(),
      15_000,
      'rebalanced',
    );
    expect((await heldBy('gh-b')).sort()).toEqual([...bDevices].sort());
    for (const d of devices) for (let i = 0; i < 5; i++) sim.swipe(Number(d.SerialNumber), 6000 + i, 1);
    await until(async () => (await stored()).n === swiped(), 20_000, 'collection after the return');
    await new Promise((r) => setTimeout(r, 600));
    expect(await stored()).toEqual({ n: swiped(), distinct: swiped() });
  }, 90_000);
});
