import os from 'node:os';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { ManualClock } from '../src/platform/clock.ts';
import {
  clusterMigration,
  instanceId,
  InstanceRegistry,
  joinCluster,
} from '../src/platform/cluster/index.ts';
import { ClusterNode } from '../src/platform/cluster/node.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';

async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe('instance id', () => {
  it('is INSTANCE_ID when set, and refuses a bad one naming the variable', () => {
    expect(instanceId({ INSTANCE_ID: 'gate-2.eu:a_1' })).toBe('gate-2.eu:a_1');
    expect(() => instanceId({ INSTANCE_ID: 'two words' })).toThrow(/INSTANCE_ID must be/);
    expect(instanceId({ INSTANCE_ID: 'x'.repeat(32) })).toBe('x'.repeat(32));
    expect(() => instanceId({ INSTANCE_ID: 'x'.repeat(33) })).toThrow(/INSTANCE_ID/);
  });

  it('is otherwise hostname-pid-random, different for every call', () => {
    const id = instanceId({});
    expect(id).toMatch(new RegExp(`-${process.pid}-[0-9a-f]{6}$`));
    expect(
      id.startsWith(
        os
          .hostname()
          .replace(/[^A-Za-z0-9.-]/g, '-')
          .slice(0, 16),
      ),
    ).toBe(true);
    expect(id.length).toBeLessThanOrEqual(32);
    // Short enough to name the instance in a bus channel.
    expect(`wg.cmd.${id}`.length).toBeLessThanOrEqual(48);
    expect(instanceId({ INSTANCE_ID: '' })).not.toBe(id);
  });
});

describe.each(childDbKinds)('[%s] instance registry', (kind) => {
  let database: ChildDatabase;
  let db: Db;
  let other: Db;
  let clock: ManualClock;
  let registry: InstanceRegistry;
  let seenFromOther: InstanceRegistry;
  beforeAll(async () => {
    database = await childDatabase(kind, 'instances');
    db = database.open();
    await clusterMigration.up(db.kysely as unknown as Kysely<unknown>, { dialect: db.dialect });
    // A second instance's own connection (its own pool on PostgreSQL, another handle on the SQLite file).
    other = database.open();
    clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
    registry = new InstanceRegistry(db, clock);
    seenFromOther = new InstanceRegistry(other, clock);
  });
  afterAll(async () => {
    await db.close();
    await other.close();
    await database.drop();
  });

  it('registers instances with address and meta, seen by the others', async () => {
    const t0 = clock.now();
    await registry.register('a', { address: '10.0.0.1:8080', meta: { wgListen: '10.0.0.1:60099' } });
    clock.advance(1000);
    await seenFromOther.register('b');
    expect(await seenFromOther.live(5000)).toEqual([
      {
        id: 'a',
        startedAt: t0,
        heartbeatAt: t0,
        address: '10.0.0.1:8080',
        meta: { wgListen: '10.0.0.1:60099' },
      },
      { id: 'b', startedAt: t0 + 1000, heartbeatAt: t0 + 1000, address: null, meta: null },
    ]);
    await expect(registry.register('bad id')).rejects.toThrow(/invalid instance id/);
  });

  it('counts an instance live while its heartbeat is recent enough, and not after', async () => {
    clock.advance(4000); // a beat 5 s ago, b 4 s ago
    expect((await registry.live(5000)).map((i) => i.id)).toEqual(['a', 'b']);
    clock.advance(1);
    expect((await registry.live(5000)).map((i) => i.id)).toEqual(['b']);
    expect(await registry.heartbeat('a')).toBe(true);
    expect((await registry.live(5000)).map((i) => i.id)).toEqual(['a', 'b']);
    expect((await registry.all()).find((i) => i.id === 'a')?.heartbeatAt).toBe(clock.now());
  });

  it('forgets an instance: its heartbeat then says so, and registering again starts it anew', async () => {
    expect(await seenFromOther.forget('a')).toBe(true);
    expect(await registry.heartbeat('a')).toBe(false);
    expect((await registry.live(60_000)).map((i) => i.id)).toEqual(['b']);
    await registry.register('a');
    const a = (await registry.all()).find((i) => i.id === 'a')!;
    expect(a.startedAt).toBe(clock.now());
    expect(a.address).toBeNull();
    expect(await registry.forget('nobody')).toBe(false);
  });

  it('sweeps instances silent for too long', async () => {
    clock.advance(10_000);
    await registry.heartbeat('a');
    expect(await registry.forgetStale(5000)).toBe(1);
    expect((await registry.all()).map((i) => i.id)).toEqual(['a']);
  });

  it('keeps a joined instance alive on a timer, registers it again if forgotten, and removes it on stop', async () => {
    const member = await joinCluster(registry, 'c', { everyMs: 20, address: '10.0.0.3:8080' });
    try {
      clock.advance(1000);
      const beatAt = clock.now();
      await until(async () => (await registry.all()).find((i) => i.id === 'c')?.heartbeatAt === beatAt);
      expect((await registry.all()).find((i) => i.id === 'c')?.heartbeatAt).toBe(beatAt);
      await seenFromOther.forget('c');
      await until(async () => (await registry.all()).some((i) => i.id === 'c'));
      const again = (await registry.all()).find((i) => i.id === 'c');
      expect(again).toMatchObject({ startedAt: beatAt, address: '10.0.0.3:8080' });
    } finally {
      await member.stop();
    }
    expect((await registry.all()).some((i) => i.id === 'c')).toBe(false);
  });
});

describe.each(childDbKinds)('[%s] instances by the devices they drive', (kind) => {
  let database: ChildDatabase;
  let db: Db;
  let other: Db;
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
  const log = { error() {}, info() {} };
  beforeAll(async () => {
    database = await childDatabase(kind, 'drives');
    db = database.open();
    await clusterMigration.up(db.kysely as unknown as Kysely<unknown>, { dialect: db.dialect });
    other = database.open();
  });
  afterAll(async () => {
    await db.close();
    await other.close();
    await database.drop();
  });

  it('shares controllers out only among instances whose WG gateway runs; a row of an earlier version counts', async () => {
    const a = new ClusterNode('gw-a', db, clock, log);
    const b = new ClusterNode('gw-b', other, clock, log);
    await a.start();
    await b.start();
    try {
      // Both alive; neither drives controllers yet (an instance started with WG=off stays so).
      expect(await b.liveInstances()).toEqual(['gw-a', 'gw-b']);
      expect(await b.liveInstances('wg')).toEqual([]);
      await a.drive('wg', true);
      expect(await b.liveInstances('wg')).toEqual(['gw-a']);
      expect(await a.liveInstances('wg')).toEqual(['gw-a']);
      // An instance of an earlier version says nothing of what it drives: it drove everything then.
      await new InstanceRegistry(other, clock).register('gw-old', { meta: { wgListen: '10.0.0.9:60099' } });
      expect(await a.liveInstances('wg')).toEqual(['gw-a', 'gw-old']);
      // A gateway closing (a drain) tells the others at once.
      await a.drive('wg', false);
      expect(await b.liveInstances('wg')).toEqual(['gw-old']);
      expect(await b.liveInstances()).toEqual(['gw-a', 'gw-b', 'gw-old']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
