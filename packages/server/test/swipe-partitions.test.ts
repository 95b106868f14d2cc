import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/assembly.ts';
import { runMigrations } from '../src/db/migrate.ts';
import {
  ensurePartitionsAhead,
  monthsOf,
  pruneSwipeRecords,
  recordRingRestarted,
  recordSwipes,
  retentionCutoff,
  storeControllerRecords,
  storePushedRecords,
  swipePartitions,
  type ControllerRecordInput,
} from '../src/modules/access-control/index.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, systemContext, targets, type Harness } from './support/harness.ts';

const DAY = 86_400_000;

/** Partition names (DoorOpeningRecord_YYYYMM) of the UTC months of the given instants. */
const monthNames = (...ats: number[]) => monthsOf(ats).map((p) => p.name);

/** The exactly-once ledger and the ring records' keys, both sorted: they must always be the same set. */
async function ledgerAndRecords(h: Harness): Promise<{ ledger: string[]; records: string[] }> {
  const k = h.db.kysely;
  const ledger = (await k.selectFrom('DoorOpeningRecordKey').select(['DeviceId', 'RecordIndex']).execute())
    .map((r) => `${r.DeviceId}:${Number(r.RecordIndex)}`)
    .sort();
  const records = (
    await k
      .selectFrom('DoorOpeningRecord')
      .select(['DeviceId', 'RecordIndex'])
      .where('RecordIndex', 'is not', null)
      .execute()
  )
    .map((r) => `${r.DeviceId}:${Number(r.RecordIndex)}`)
    .sort();
  return { ledger, records };
}

/** The day counts as kept, against a recount of the records (every area, day, device and result). */
async function dayCountsMatch(h: Harness): Promise<void> {
  const k = h.db.kysely;
  const kept = await k
    .selectFrom('DoorOpeningRecordDay')
    .select(['AreaId', 'Day', 'DeviceId', 'Result', 'Count'])
    .where('Count', '>', 0)
    .execute();
  const recount = await k
    .selectFrom('DoorOpeningRecord')
    .select([
      'AreaId',
      sql<number>`floor("At" / ${sql.lit(DAY)})`.as('Day'),
      'DeviceId',
      'Result',
      sql<number>`count(*)`.as('Count'),
    ])
    .groupBy(['AreaId', sql`floor("At" / ${sql.lit(DAY)})`, 'DeviceId', 'Result'])
    .execute();
  const key = (r: { AreaId: number; Day: number; DeviceId: number; Result: number; Count: number }) =>
    `${r.AreaId}:${Number(r.Day)}:${r.DeviceId}:${Number(r.Result)}:${Number(r.Count)}`;
  expect(kept.map(key).sort()).toEqual(recount.map(key).sort());
}

/**
 * Swipe records partitioned by UTC month on PostgreSQL, one table on SQLite (issue 20, docs/performance.md
 * "Growth bounded"): partitions made ahead and on demand, exactly once through the key ledger on both
 * databases, retention by partition with the day counts exact.
 */
describeEachDb('swipe records by month', (h) => {
  const ctx = () => systemContext(h());
  /** The area-1 controllers: the first for ring records, the second for the retention run. */
  const devices = async () =>
    h()
      .db.kysely.selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .execute();
  const ring = (deviceId: number, index: number, at: number): ControllerRecordInput => ({
    DeviceId: deviceId,
    RecordIndex: index,
    EventType: 1,
    EventReason: 1,
    At: at,
    DoorNumber: 1,
    Direction: 1,
    CardValue: 7654321,
    Result: true,
  });
  const rowsOf = (deviceId: number, index: number) =>
    h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['Id', 'At'])
      .where('DeviceId', '=', deviceId)
      .where('RecordIndex', '=', index)
      .execute();

  it('has the partitions of this month and the next three after start (PostgreSQL), none on SQLite', async () => {
    const { db, clock, dialect } = h();
    const now = clock.now();
    const ahead = Array.from({ length: 4 }, (_, i) => {
      const d = new Date(now);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + i, 15);
    });
    const later = Date.UTC(2027, 9, 15);
    if (dialect === 'sqlite') {
      expect(await ensurePartitionsAhead(db, later)).toEqual([]);
      expect(await swipePartitions(db.kysely, db.dialect)).toEqual([]);
      const tables = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name like 'DoorOpeningRecord%'`.execute(
        db.kysely,
      );
      expect(tables.rows.map((r) => r.name).sort()).toEqual([
        'DoorOpeningRecord',
        'DoorOpeningRecordDay',
        'DoorOpeningRecordKey',
      ]);
      return;
    }
    // The singleton job runs at start, on its own: waited for (a few seconds at most).
    const names = async () => (await swipePartitions(db.kysely, db.dialect)).map((p) => p.name);
    for (let i = 0; i < 50; i++) {
      const all = await names();
      if (monthNames(...ahead).every((n) => all.includes(n))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await names()).toEqual(expect.arrayContaining(monthNames(...ahead)));
    const partitioned = await sql<{ strategy: string }>`
      select partstrat as strategy from pg_partitioned_table where partrelid = '"DoorOpeningRecord"'::regclass`.execute(
      db.kysely,
    );
    expect(partitioned.rows).toEqual([{ strategy: 'r' }]);

    // A year on, the same function adds what is missing, once; three instances at once create each month once.
    const wanted = monthNames(
      ...Array.from({ length: 4 }, (_, i) => Date.UTC(2027, 9 + i, 1)).filter(
        (at) => !ahead.some((a) => monthNames(a)[0] === monthNames(at)[0]),
      ),
    );
    const created = await Promise.all([0, 1, 2].map(() => ensurePartitionsAhead(db, later)));
    expect(created.flat().sort()).toEqual(wanted.sort());
    expect(await ensurePartitionsAhead(db, later)).toEqual([]);
    expect(await names()).toEqual(expect.arrayContaining(wanted));
  });

  it('stores a ring record once when it is reported again across a month boundary, or twice at once', async () => {
    const [device] = await devices();
    const lastMinute = Date.UTC(2026, 9, 31, 23, 59);
    const nextMonth = Date.UTC(2026, 10, 1, 0, 0, 30);
    const first = await storeControllerRecords(ctx(), device!.Id, [ring(device!.Id, 70_001, lastMinute)]);
    expect(first).toHaveLength(1);
    // The controller's clock was set between two readings: the same ring index, now in November.
    const again = await storePushedRecords(ctx(), [
      { deviceId: device!.Id, inputs: [ring(device!.Id, 70_001, nextMonth)] },
    ]);
    expect(again).toEqual([]);
    const polled = await storeControllerRecords(ctx(), device!.Id, [
      ring(device!.Id, 70_001, nextMonth),
      ring(device!.Id, 70_002, nextMonth),
    ]);
    expect(polled.map((r) => r.RecordIndex)).toEqual([70_002]);
    expect(await rowsOf(device!.Id, 70_001)).toEqual([{ Id: first[0]!.Id, At: lastMinute }]);

    // A push and a poll of the same records in two transactions at the same time: each stored once. The push has
    // them in reverse order: on PostgreSQL, keys claimed in the order given (1,000 records, five statements each)
    // made the two transactions wait for each other in a cycle ("deadlock detected"); claimed in ring order, never.
    const batch = Array.from({ length: 1_000 }, (_, i) =>
      ring(device!.Id, 70_100 + i, i % 2 ? lastMinute - i : nextMonth + i),
    );
    const [a, b] = await Promise.all([
      storeControllerRecords(ctx(), device!.Id, batch),
      storePushedRecords(ctx(), [{ deviceId: device!.Id, inputs: [...batch].reverse() }]),
    ]);
    expect(a.length + b.length).toBe(1_000);
    const copies = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['RecordIndex', sql<number>`count(*)`.as('n')])
      .where('DeviceId', '=', device!.Id)
      .where('RecordIndex', '>=', 70_100)
      .where('RecordIndex', '<', 71_100)
      .groupBy('RecordIndex')
      .execute();
    expect(copies).toHaveLength(1_000);
    expect(copies.every((c) => Number(c.n) === 1)).toBe(true);
    const { ledger, records } = await ledgerAndRecords(h());
    expect(ledger).toEqual(records);
    await dayCountsMatch(h());
  });

  it('stores a ring again under the same indexes after a ring restart', async () => {
    const [device] = await devices();
    const now = h().clock.now();
    const indexes = [1, 2, 3, 4, 5];
    const stored = await storeControllerRecords(
      ctx(),
      device!.Id,
      indexes.map((i) => ring(device!.Id, 80_000 + i, now - 10 * DAY + i)),
    );
    expect(stored).toHaveLength(5);
    // The controller was reset: its ring starts over at 80,001 (its newest 80,003 is behind the cursor).
    await recordRingRestarted(ctx(), device!.Id, 80_003);
    const fresh = await storeControllerRecords(
      ctx(),
      device!.Id,
      indexes.map((i) => ring(device!.Id, 80_000 + i, now - DAY + i)),
    );
    expect(fresh.map((r) => r.RecordIndex)).toEqual(indexes.map((i) => 80_000 + i));
    for (const i of indexes) expect(await rowsOf(device!.Id, 80_000 + i)).toHaveLength(1);
    // Still once: the new ring's records are not stored twice either.
    expect(
      await storeControllerRecords(
        ctx(),
        device!.Id,
        indexes.map((i) => ring(device!.Id, 80_000 + i, now - DAY + i)),
      ),
    ).toEqual([]);
    const { ledger, records } = await ledgerAndRecords(h());
    expect(ledger).toEqual(records);
  });

  it('stores records of a clock years off (no partition made ahead): the month is made on demand', async () => {
    const { db, dialect } = h();
    const [device] = await devices();
    const future = Date.UTC(2099, 5, 15, 12);
    const past = Date.UTC(2001, 0, 1, 0, 0, 5);
    if (dialect === 'postgres') {
      const before = (await swipePartitions(db.kysely, db.dialect)).map((p) => p.name);
      expect(before).not.toContain(monthNames(future)[0]);
      expect(before).not.toContain(monthNames(past)[0]);
    }
    const polled = await storeControllerRecords(ctx(), device!.Id, [
      ring(device!.Id, 90_001, h().clock.now() - 1_000),
      ring(device!.Id, 90_002, future),
    ]);
    expect(polled).toHaveLength(2);
    const pushed = await storePushedRecords(ctx(), [
      {
        deviceId: device!.Id,
        inputs: [ring(device!.Id, 90_003, future + DAY), ring(device!.Id, 90_002, future)],
      },
    ]);
    expect(pushed.map((r) => r.RecordIndex)).toEqual([90_003]);
    const [id] = await recordSwipes(db.kysely, [
      {
        DeviceId: device!.Id,
        DoorNumber: 1,
        Direction: 1,
        CardNumber: '123456',
        At: past,
        Result: false,
        Reason: 2,
      },
    ]);
    expect(id).toBeGreaterThan(0);
    expect(await rowsOf(device!.Id, 90_002)).toEqual([{ Id: polled[1]!.Id, At: future }]);
    if (dialect === 'postgres')
      expect((await swipePartitions(db.kysely, db.dialect)).map((p) => p.name)).toEqual(
        expect.arrayContaining(monthNames(future, past)),
      );
    await dayCountsMatch(h());
    // Out of the way of the retention test below (far past records would count as expired there).
    expect(await pruneSwipeRecords(db, Date.UTC(2001, 3, 1), 1)).toMatchObject({ removed: 1, done: true });
  });

  it('removes exactly the expired records, whole months by partition, while lists and inserts run', async () => {
    const { app, db, clock, dialect } = h();
    const k = db.kysely;
    const token = await login(app, 'acuser', DEMO_PASSWORD);
    const [ringDevice, device] = await devices();
    // A retention run two weeks on from the clock: the cutoff falls mid-September, so June to August go whole
    // (by partition on PostgreSQL) and September's first half by the DELETE steps.
    const now = clock.now() + 14 * DAY;
    const cutoff = retentionCutoff(now, 2);
    expect(new Date(cutoff).toISOString()).toBe('2026-09-15T00:00:00.000Z');
    // Ring records (they have ledger keys) every 12 hours from early June, and around the cutoff.
    const start = Date.UTC(2026, 5, 3, 6);
    const old = Array.from({ length: 240 }, (_, i) =>
      ring(ringDevice!.Id, 100_000 + i, start + i * (DAY / 2)),
    );
    old.push(
      ring(ringDevice!.Id, 100_500, cutoff - 1),
      ring(ringDevice!.Id, 100_501, cutoff),
      ring(ringDevice!.Id, 100_502, Date.UTC(2026, 8, 1)),
      ring(ringDevice!.Id, 100_503, Date.UTC(2026, 8, 1) - 1),
    );
    expect(await storeControllerRecords(ctx(), ringDevice!.Id, old)).toHaveLength(old.length);
    const months = monthNames(Date.UTC(2026, 5, 1), Date.UTC(2026, 6, 1), Date.UTC(2026, 7, 1));
    const names = async () => (await swipePartitions(k, db.dialect)).map((p) => p.name);
    if (dialect === 'postgres') {
      expect(await names()).toEqual(expect.arrayContaining(months));
      // A month an earlier run detached and did not get to drop (a crash in between): dropped by this run.
      await sql`create table "DoorOpeningRecord_200002" (like "DoorOpeningRecord")`.execute(k);
      await sql`alter table "DoorOpeningRecord_200002" add foreign key ("AreaId") references "AreaInfo" ("Id")`.execute(
        k,
      );
    }

    const countOf = async (where: 'before' | 'from') =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('At', where === 'before' ? '<' : '>=', cutoff)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const areaCount = async () =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const listTotal = async () => {
      const page = await call<{ Total: number }>(app, 'GET', '/api/DoorOpeningRecord', {
        token,
        area: 1,
        query: { PageSize: 20 },
      });
      expect(page.status).toBe(200);
      return page.data.Total;
    };
    const expired = await countOf('before');
    const kept = await countOf('from');
    const partial = Number(
      (
        await k
          .selectFrom('DoorOpeningRecord')
          .select(sql<number>`count(*)`.as('n'))
          .where('At', '>=', Date.UTC(2026, 8, 1))
          .where('At', '<', cutoff)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(expired - partial).toBeGreaterThan(150);
    expect(partial).toBeGreaterThan(25);
    await dayCountsMatch(h());

    // Arrivals (ring records of another controller, on the ledger too) and a list take turns with the checks
    // between steps, as in swipe-retention.test.ts.
    let turn = Promise.resolve();
    const exclusive = (fn: () => Promise<void>) => {
      const run = turn.then(fn);
      turn = run.catch(() => undefined);
      return run;
    };
    let inserted = 0;
    let running = true;
    const arrivals = (async () => {
      while (running) {
        await exclusive(async () => {
          const i = inserted;
          await storePushedRecords(ctx(), [
            { deviceId: device!.Id, inputs: [ring(device!.Id, 200_000 + i, clock.now() - 1_000 + i)] },
          ]);
          inserted += 1;
        });
        expect(await listTotal()).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let stepsSeen = 0;
    const result = await pruneSwipeRecords(db, now, 2, {
      stepRows: 25,
      pauseMs: 5,
      afterStep: () =>
        exclusive(async () => {
          stepsSeen += 1;
          expect(await listTotal()).toBe(await areaCount());
        }),
    });
    running = false;
    await arrivals;

    expect(result).toMatchObject({ cutoff, removed: expired, done: true });
    expect(result.steps).toBe(stepsSeen);
    // The partial month alone needs more than one step of 25.
    expect(result.steps).toBeGreaterThan(2);
    expect(inserted).toBeGreaterThan(0);
    expect(await countOf('before')).toBe(0);
    expect(await countOf('from')).toBe(kept + inserted);
    expect((await rowsOf(ringDevice!.Id, 100_501)).length).toBe(1);
    expect((await rowsOf(ringDevice!.Id, 100_500)).length).toBe(0);
    await dayCountsMatch(h());
    expect(await listTotal()).toBe(await areaCount());
    const { ledger, records } = await ledgerAndRecords(h());
    expect(ledger).toEqual(records);
    if (dialect === 'postgres') {
      const after = await names();
      for (const month of months) expect(after).not.toContain(month);
      const tables = await sql<{ name: string }>`
        select relname as name from pg_class where relname like 'DoorOpeningRecord\_2%' and relkind = 'r'
          and relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(k);
      expect(tables.rows.map((r) => r.name).sort()).toEqual([...after].sort());
      expect(after).toContain(monthNames(Date.UTC(2026, 8, 1))[0]);
    }
    // An expired index may be stored again (its key went with it); the kept ones may not.
    expect(
      await storeControllerRecords(ctx(), ringDevice!.Id, [ring(ringDevice!.Id, 100_501, cutoff)]),
    ).toEqual([]);
    expect((await pruneSwipeRecords(db, now, 2)).removed).toBe(0);
  }, 120_000);
});

/**
 * Migration 0023 on a database that already holds swipe records (the usual case is an empty one, which every
 * other test file starts from): rows, ids and ring keys kept, partitions for the months they are in.
 */
describe('migration 0023 over existing swipe records', () => {
  for (const target of targets)
    it(`[${target.name}] keeps every record and its id, fills the ledger, partitions their months`, async () => {
      const { db, drop } = await target.open();
      try {
        const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0023'));
        await runMigrations(db, before);
        const k = db.kysely;
        await k
          .insertInto('AreaInfo')
          .values({ Name: 'A', Custom: null, CreatedAt: 0, UpdatedAt: 0 })
          .execute();
        const base = {
          AreaId: 1,
          CardNumber: '0000000001',
          CardUserId: null,
          HolderName: null,
          DeviceId: 7,
          DeviceName: 'D',
          ChannelId: null,
          ChannelName: null,
          DoorNumber: 1,
          Direction: 1,
          Result: 1,
          Reason: 1,
          EventType: 1,
          EventReason: 1,
        };
        const ats = [
          Date.UTC(2019, 2, 31, 23),
          Date.UTC(2024, 0, 1),
          Date.UTC(2024, 0, 31),
          Date.UTC(2099, 0, 1),
        ];
        await k
          .insertInto('DoorOpeningRecord')
          .values([
            ...ats.map((At, i) => ({ ...base, At, RecordIndex: i + 1 })),
            { ...base, At: Date.UTC(2024, 1, 2), RecordIndex: null },
          ])
          .execute();
        const old = await k.selectFrom('DoorOpeningRecord').selectAll().orderBy('Id').execute();
        expect(old).toHaveLength(5);

        expect(await runMigrations(db, migrations)).toContain('0023-swipe-partitions');
        expect(await k.selectFrom('DoorOpeningRecord').selectAll().orderBy('Id').execute()).toEqual(old);
        const keys = await k
          .selectFrom('DoorOpeningRecordKey')
          .select(['DeviceId', 'RecordIndex'])
          .orderBy('RecordIndex')
          .execute();
        expect(keys.map((r) => [r.DeviceId, Number(r.RecordIndex)])).toEqual([
          [7, 1],
          [7, 2],
          [7, 3],
          [7, 4],
        ]);
        const names = (await swipePartitions(k, db.dialect)).map((p) => p.name);
        if (db.dialect === 'postgres') {
          expect(names).toEqual(
            expect.arrayContaining([
              'DoorOpeningRecord_201903',
              'DoorOpeningRecord_202401',
              'DoorOpeningRecord_202402',
              'DoorOpeningRecord_209901',
            ]),
          );
          // Months without records in between get none: not one partition per month from 2019 to 2099.
          expect(names.length).toBeLessThan(12);
        } else expect(names).toEqual([]);
        // The next id follows the old ones (the same sequence); a ledger key still refuses its record.
        const [added] = await k
          .insertInto('DoorOpeningRecord')
          .values({ ...base, At: Date.UTC(2024, 0, 2), RecordIndex: null })
          .returning('Id')
          .execute();
        expect(added!.Id).toBeGreaterThan(Math.max(...old.map((r) => r.Id)));
        await expect(
          k.insertInto('DoorOpeningRecordKey').values({ DeviceId: 7, RecordIndex: 2 }).execute(),
        ).rejects.toThrow();
      } finally {
        await db.close();
        await drop();
      }
    });
});
