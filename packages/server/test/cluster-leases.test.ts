import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { clusterMigration, LeaseLostError, Leases } from '../src/platform/cluster/index.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';

const TTL = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh database (SQLite file, or a schema of its own) with only the cluster tables and a device table. */
async function openCluster(kind: 'sqlite' | 'postgres', prefix: string) {
  const database: ChildDatabase = await childDatabase(kind, prefix);
  const db = database.open();
  await clusterMigration.up(db.kysely as unknown as Kysely<unknown>, { dialect: db.dialect });
  // What a gateway writes for a device it owns: a collection cursor.
  await sql`create table "Cursor" ("DeviceId" text primary key, "NextIndex" bigint not null)`.execute(
    db.kysely,
  );
  return { database, db };
}

/** Writes the cursor of `device` only while `epoch` is the current tenure of its lease: rows updated. */
async function fencedWrite(k: Kysely<unknown>, leases: Leases, device: string, epoch: number, next: number) {
  const result =
    await sql`update "Cursor" set "NextIndex" = ${next} where "DeviceId" = ${device} and ${leases.whereLeaseCurrent('wg', device, epoch)}`.execute(
      k,
    );
  return Number(result.numAffectedRows);
}

const cursorOf = async (db: Db, device: string) =>
  Number(
    (
      await sql<{ n: number }>`select "NextIndex" as n from "Cursor" where "DeviceId" = ${device}`.execute(
        db.kysely,
      )
    ).rows[0]?.n,
  );

describe.each(childDbKinds)('[%s] cluster leases', (kind) => {
  let database: ChildDatabase;
  let db: Db;
  let clock: ManualClock;
  let leases: Leases;
  beforeAll(async () => {
    ({ database, db } = await openCluster(kind, 'leases'));
    clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
    leases = new Leases(db, clock);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('acquires a free lease at epoch 1 and refuses it to another holder until it expires', async () => {
    expect(await leases.acquire('wg', '1', 'a', TTL)).toBe(1);
    expect(await leases.holderOf('wg', '1')).toEqual({
      kind: 'wg',
      key: '1',
      holder: 'a',
      epoch: 1,
      expiresAt: clock.now() + TTL,
    });
    expect(await leases.acquire('wg', '1', 'b', TTL)).toBeNull();
    clock.advance(TTL - 1);
    expect(await leases.acquire('wg', '1', 'b', TTL)).toBeNull();
    expect((await leases.holderOf('wg', '1'))?.holder).toBe('a');
    expect(await leases.expired('wg')).toEqual([]);
  });

  it('renews only for the holder at its epoch; a renewed lease outlives its first term', async () => {
    expect(await leases.renew('wg', '1', 'b', 1, TTL)).toBe(false);
    expect(await leases.renew('wg', '1', 'a', 2, TTL)).toBe(false);
    expect(await leases.renew('wg', '1', 'a', 1, TTL)).toBe(true);
    clock.advance(TTL - 1); // past the first term, inside the renewed one
    expect(await leases.acquire('wg', '1', 'b', TTL)).toBeNull();
    expect((await leases.holderOf('wg', '1'))?.epoch).toBe(1);
  });

  it('lets another holder take an expired lease with the next epoch; the former holder can neither renew nor release it', async () => {
    clock.advance(1);
    expect(await leases.holderOf('wg', '1')).toBeNull();
    expect(await leases.expired('wg')).toEqual([
      { kind: 'wg', key: '1', holder: 'a', epoch: 1, expiresAt: clock.now() },
    ]);
    expect(await leases.acquire('wg', '1', 'b', TTL)).toBe(2);
    expect(await leases.renew('wg', '1', 'a', 1, TTL)).toBe(false);
    expect(await leases.release('wg', '1', 'a', 1)).toBe(false);
    expect(await leases.holderOf('wg', '1')).toMatchObject({ holder: 'b', epoch: 2 });
  });

  it('releases: free at once, the row kept so the next epoch is still higher than every earlier one', async () => {
    expect(await leases.release('wg', '1', 'b', 2)).toBe(true);
    expect(await leases.holderOf('wg', '1')).toBeNull();
    expect(await leases.expired('wg')).toEqual([
      { kind: 'wg', key: '1', holder: null, epoch: 2, expiresAt: 0 },
    ]);
    expect(await leases.acquire('wg', '1', 'a', TTL)).toBe(3);
  });

  it('starts a new tenure when the holder acquires again (a restart under the same INSTANCE_ID)', async () => {
    expect(await leases.acquire('wg', '1', 'a', TTL)).toBe(4);
    expect(await leases.renew('wg', '1', 'a', 3, TTL)).toBe(false);
    expect(await leases.renew('wg', '1', 'a', 4, TTL)).toBe(true);
  });

  it('seizes a lease whoever holds it; the former holder’s late release changes nothing', async () => {
    expect(await leases.acquire('ocpp', 'CP-1', 'a', TTL)).toBe(1);
    expect(await leases.seize('ocpp', 'CP-1', 'b', TTL)).toBe(2);
    expect(await leases.release('ocpp', 'CP-1', 'a', 1)).toBe(false);
    expect(await leases.holderOf('ocpp', 'CP-1')).toMatchObject({ holder: 'b', epoch: 2 });
    expect(await leases.seize('ocpp', 'CP-2', 'a', TTL)).toBe(1);
  });

  it('lists what a holder holds, every lease of a kind, and releases all of a holder’s at once', async () => {
    expect(await leases.acquire('wg', '2', 'a', TTL)).toBe(1);
    expect((await leases.listHeld('a')).map((l) => `${l.kind}/${l.key}@${l.epoch}`)).toEqual([
      'ocpp/CP-2@1',
      'wg/1@4',
      'wg/2@1',
    ]);
    expect((await leases.list('wg')).map((l) => [l.key, l.holder])).toEqual([
      ['1', 'a'],
      ['2', 'a'],
    ]);
    expect(await leases.releaseAll('a')).toBe(3);
    expect(await leases.listHeld('a')).toEqual([]);
    expect((await leases.listHeld('b')).map((l) => l.key)).toEqual(['CP-1']);
  });

  it('renews every lease of a kind a holder still holds in one statement, answering the epochs; releases one kind only', async () => {
    expect(await leases.acquire('dev', 'x', 'a', TTL)).toBe(1);
    expect(await leases.acquire('dev', 'y', 'a', TTL)).toBe(1);
    expect(await leases.acquire('dev', 'z', 'b', TTL)).toBe(1);
    expect(await leases.acquire('other', 'x', 'a', TTL)).toBe(1);
    clock.advance(TTL + 1);
    // y ran out and b took it: a's renewal answers x only (y's absence is how a holder learns it lost y).
    expect(await leases.acquire('dev', 'y', 'b', TTL)).toBe(2);
    expect([...(await leases.renewHeld('dev', 'a', TTL)).entries()]).toEqual([['x', 1]]);
    expect((await leases.holderOf('dev', 'x'))?.expiresAt).toBe(clock.now() + TTL);
    // Only the kind renewed: a's other lease ran out.
    expect(await leases.holderOf('other', 'x')).toBeNull();
    expect(await leases.releaseAll('b', 'dev')).toBe(2);
    expect(await leases.holderOf('dev', 'x')).toMatchObject({ holder: 'a' });
    expect((await leases.list('dev')).map((l) => [l.key, l.holder])).toEqual([
      ['x', 'a'],
      ['y', null],
      ['z', null],
    ]);
  });

  it('fences writes: a write carrying a stale epoch changes nothing, in one statement or in a transaction', async () => {
    await sql`insert into "Cursor" values ('7', 0)`.execute(db.kysely);
    const k = db.kysely as unknown as Kysely<unknown>;
    const first = (await leases.acquire('wg', '7', 'a', TTL))!;
    expect(await fencedWrite(k, leases, '7', first, 10)).toBe(1);
    clock.advance(TTL); // a stops renewing (a long pause); b takes over
    const second = (await leases.acquire('wg', '7', 'b', TTL))!;
    expect(second).toBe(first + 1);
    expect(await fencedWrite(k, leases, '7', first, 999)).toBe(0); // a wakes up and tries
    expect(await fencedWrite(k, leases, '7', second, 20)).toBe(1);
    expect(await cursorOf(db, '7')).toBe(20);

    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await leases.assertLease(trx, 'wg', '7', first);
        await sql`update "Cursor" set "NextIndex" = 999 where "DeviceId" = '7'`.execute(trx);
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await db.kysely.transaction().execute(async (trx) => {
      await leases.assertLease(trx, 'wg', '7', second);
      await sql`update "Cursor" set "NextIndex" = 30 where "DeviceId" = '7'`.execute(trx);
    });
    expect(await cursorOf(db, '7')).toBe(30);
    await expect(leases.assertLease(db.kysely, 'wg', '7', second)).rejects.toThrow(/inside the transaction/);
    // A released lease fences its last tenure too.
    expect(await leases.release('wg', '7', 'b', second)).toBe(true);
    expect(await fencedWrite(k, leases, '7', second, 999)).toBe(0);
    expect(await cursorOf(db, '7')).toBe(30);
  });

  it('acquires inside the caller’s transaction: rolled back, the lease was never taken', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        expect(await leases.in(trx).acquire('wg', '8', 'a', TTL)).toBe(1);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await leases.holderOf('wg', '8')).toBeNull();
    expect(await leases.acquire('wg', '8', 'b', TTL)).toBe(1);
  });

  it('has one winner when many racers acquire the same free or expired leases at once, round after round', async () => {
    // On PostgreSQL each racer group has its own pool (separate connections, truly concurrent); on SQLite
    // the racers share the one connection and the test checks the same outcome.
    const pools = kind === 'postgres' ? Array.from({ length: 4 }, () => database.open()) : [db];
    try {
      const racers = pools.flatMap((p, i) =>
        Array.from({ length: 6 }, (_, j) => ({ id: `r${i}-${j}`, leases: new Leases(p, clock) })),
      );
      const keys = Array.from({ length: 20 }, (_, i) => `race-${i}`);
      for (let round = 1; round <= 5; round++) {
        const results = await Promise.all(
          keys.flatMap((key) =>
            racers.map(async (r) => ({
              key,
              id: r.id,
              epoch: await r.leases.acquire('race', key, r.id, TTL),
            })),
          ),
        );
        for (const key of keys) {
          const winners = results.filter((r) => r.key === key && r.epoch !== null);
          expect(winners, `${key}, round ${round}`).toHaveLength(1);
          expect(winners[0]!.epoch).toBe(round);
          expect(await leases.holderOf('race', key)).toMatchObject({ holder: winners[0]!.id, epoch: round });
        }
        clock.advance(TTL); // every lease expires: the next round races for all of them again
      }
    } finally {
      if (kind === 'postgres') await Promise.all(pools.map((p) => p.close()));
    }
  });

  it('creates the tables with their primary key and indexes', async () => {
    await expect(
      sql`insert into "Lease" ("Kind", "Key", "Holder", "Epoch", "ExpiresAt") values ('wg', '1', 'x', 1, 0)`.execute(
        db.kysely,
      ),
    ).rejects.toThrow();
    await expect(
      sql`insert into "Instance" ("Id", "StartedAt", "HeartbeatAt") values ('i', 0, 0), ('i', 0, 0)`.execute(
        db.kysely,
      ),
    ).rejects.toThrow();
    const names =
      kind === 'postgres'
        ? (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(
              db.kysely,
            )
          ).rows
        : (
            await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(
              db.kysely,
            )
          ).rows;
    expect(names.map((n) => n.name)).toEqual(
      expect.arrayContaining(['Lease_Holder', 'Lease_Kind_ExpiresAt', 'Instance_HeartbeatAt']),
    );
  });
});

/** Interleavings that only PostgreSQL's concurrent connections produce, set up step by step. */
describe.runIf(childDbKinds.includes('postgres'))('[postgres] cluster leases under concurrency', () => {
  let database: ChildDatabase;
  let dbA: Db;
  let dbB: Db;
  let clock: ManualClock;
  let a: Leases;
  let b: Leases;
  beforeAll(async () => {
    ({ database, db: dbA } = await openCluster('postgres', 'lease_race'));
    dbB = database.open();
    clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
    a = new Leases(dbA, clock);
    b = new Leases(dbB, clock);
  });
  afterAll(async () => {
    await dbA.close();
    await dbB.close();
    await database.drop();
  });

  /** Runs `body` in a transaction on `db` that stays open until the returned `commit` (or `rollback`). */
  function openTransaction(db: Db, body: (trx: Kysely<unknown>) => Promise<void>) {
    let finish!: (ok: boolean) => void;
    const decided = new Promise<boolean>((r) => (finish = r));
    let started!: () => void;
    const ready = new Promise<void>((r) => (started = r));
    const done = db.kysely
      .transaction()
      .execute(async (trx) => {
        await body(trx as unknown as Kysely<unknown>);
        started();
        if (!(await decided)) throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    return { ready, commit: () => (finish(true), done), rollback: () => (finish(false), done) };
  }

  /** Whether `p` is still pending after `ms`. */
  async function stillPending(p: Promise<unknown>, ms = 300) {
    const marker = Symbol('pending');
    return (await Promise.race([p, sleep(ms).then(() => marker)])) === marker;
  }

  it('a racer that arrives while another’s acquire is uncommitted waits, then loses (or wins if that one rolls back)', async () => {
    const t1 = openTransaction(dbA, async (trx) => {
      expect(await a.in(trx).acquire('wg', 'x', 'a', TTL)).toBe(1);
    });
    await t1.ready;
    const racing = b.acquire('wg', 'x', 'b', TTL);
    expect(await stillPending(racing)).toBe(true); // blocked on the row A inserted
    await t1.commit();
    expect(await racing).toBeNull();

    clock.advance(TTL);
    const t2 = openTransaction(dbA, async (trx) => {
      expect(await a.in(trx).acquire('wg', 'x', 'a2', TTL)).toBe(2);
    });
    await t2.ready;
    const racing2 = b.acquire('wg', 'x', 'b', TTL);
    expect(await stillPending(racing2)).toBe(true);
    await t2.rollback();
    expect(await racing2).toBe(2); // the expired row, re-checked after the rollback: b takes it
  });

  it('a takeover waits for the holder’s fenced transaction to commit, after which the holder’s epoch is stale', async () => {
    await sql`insert into "Cursor" values ('f', 0)`.execute(dbA.kysely);
    const epoch = (await a.acquire('wg', 'f', 'a', TTL))!;
    clock.advance(TTL); // a's lease has expired, but a is still mid-write
    const write = openTransaction(dbA, async (trx) => {
      await a.assertLease(trx, 'wg', 'f', epoch);
      await sql`update "Cursor" set "NextIndex" = 5 where "DeviceId" = 'f'`.execute(trx);
    });
    await write.ready;
    const takeover = b.acquire('wg', 'f', 'b', TTL);
    expect(await stillPending(takeover)).toBe(true); // FOR SHARE holds the lease row
    await write.commit();
    expect(await takeover).toBe(epoch + 1);
    // b reads the cursor after its acquire committed, so it sees a's last write, and a writes no more.
    expect(await cursorOf(dbB, 'f')).toBe(5);
    expect(await fencedWrite(dbA.kysely as unknown as Kysely<unknown>, a, 'f', epoch, 6)).toBe(0);
  });

  it('the one-statement fence locks too: a write arriving during an uncommitted takeover waits and then writes nothing', async () => {
    await sql`insert into "Cursor" values ('g', 0)`.execute(dbA.kysely);
    const epoch = (await a.acquire('wg', 'g', 'a', TTL))!;
    clock.advance(TTL);
    const takeover = openTransaction(dbB, async (trx) => {
      expect(await b.in(trx).acquire('wg', 'g', 'b', TTL)).toBe(epoch + 1);
    });
    await takeover.ready;
    const late = fencedWrite(dbA.kysely as unknown as Kysely<unknown>, a, 'g', epoch, 99);
    // Without FOR SHARE the subquery would read the old row from its snapshot and the write would go through.
    expect(await stillPending(late)).toBe(true);
    await takeover.commit();
    expect(await late).toBe(0);
    expect(await cursorOf(dbA, 'g')).toBe(0);
  });

  it('a renewal and a transaction fencing several leases in key order never deadlock (they lock in one order)', async () => {
    // Inserted out of key order, so a renewal locking rows in scan order would lock p2 before p1.
    const e2 = (await a.acquire('wg', 'p2', 'p', TTL))!;
    const e1 = (await a.acquire('wg', 'p1', 'p', TTL))!;
    let renewing: Promise<Map<string, number>> | undefined;
    // What a store of pushed records does (storePushedRecords, its batches in lease-key order: pushed.ts).
    await dbA.kysely.transaction().execute(async (trx) => {
      await a.assertLease(trx, 'wg', 'p1', e1);
      renewing = b.renewHeld('wg', 'p', TTL);
      expect(await stillPending(renewing)).toBe(true); // waits for p1, shared until this commit
      // Before the renewal locked in key order: "deadlock detected" here or in the renewal.
      await a.assertLease(trx, 'wg', 'p2', e2);
    });
    expect(await renewing).toEqual(
      new Map([
        ['p1', e1],
        ['p2', e2],
      ]),
    );
  });
});
