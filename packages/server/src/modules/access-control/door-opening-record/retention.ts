import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { invalidateCounts } from '../../../platform/count-cache.ts';
import {
  pruneInSteps,
  retentionCutoff,
  RETENTION_BUDGET_MS,
  RETENTION_STEP_ROWS,
  type RetentionResult,
  type RetentionRun,
} from '../../../platform/retention.ts';
import { LOCK_TIMEOUT, swipePartitions, type SwipePartition } from './partitions.ts';
import { DAY_MS } from './service.ts';

// The face has offered the cutoff beside the swipes' retention since it came first.
export { retentionCutoff } from '../../../platform/retention.ts';

/**
 * Retention of swipe records (issue 20, docs/performance.md "Growth bounded"): with the system setting
 * SwipeRetentionMonths = N > 0, records from before the start of the UTC day N calendar months ago are
 * removed; 0 (the default) keeps everything.
 *
 * Every expired record may go, so a step simply takes the area's oldest ones (the step loop, its budget and
 * pauses are the platform's, shared with the garage's records: platform/retention.ts). Each step also takes
 * the removed rows off their per-day counts (DoorOpeningRecordDay) in its transaction, so the list's totals
 * and pages, which rest on those counts, are exact after every step, not only at the end, and their ring
 * indexes off the exactly-once ledger (DoorOpeningRecordKey).
 *
 * PostgreSQL first removes every month that lies wholly before the cutoff by dropping its partition
 * (dropExpiredMonths); the steps then only meet the month the cutoff falls in. On SQLite (one table) the steps do
 * it all.
 */
export async function pruneSwipeRecords(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  const started = Date.now();
  const whole = months > 0 ? await dropExpiredMonths(db, retentionCutoff(now, months), run) : undefined;
  if (whole && !whole.done) return whole;
  const budgetMs = (run.budgetMs ?? RETENTION_BUDGET_MS) - (Date.now() - started);
  const rest = await pruneInSteps<never>(
    now,
    months,
    { ...run, budgetMs },
    // The areas holding expired records, from their day counts (a small table; whole days before the cutoff).
    async (cutoff) =>
      (
        await db.kysely
          .selectFrom('DoorOpeningRecordDay')
          .select('AreaId')
          .distinct()
          .where('Day', '<', cutoff / DAY_MS)
          .execute()
      ).map((r) => r.AreaId),
    (cutoff) => async (areaId, stepRows) => {
      const removed = await pruneStep(db, areaId, cutoff, stepRows);
      if (removed > 0) recordsRemoved();
      return { removed, more: removed === stepRows };
    },
  );
  return whole ? { ...rest, removed: whole.removed + rest.removed, steps: whole.steps + rest.steps } : rest;
}

/**
 * The swipe list's totals rest on the day counts, kept in step; the visitor log (a list of the resource helper
 * over these records) counts them through the list count cache (platform/count-cache.ts), whose totals in this
 * process are stale once records went: dropped, as the garage's retention does.
 */
function recordsRemoved(): void {
  invalidateCounts();
}

/**
 * PostgreSQL: the partitions lying wholly before the cutoff (retention's cutoff is a UTC midnight, a partition a
 * UTC month), oldest first, each in two parts:
 *
 * 1. Its records' keys leave the ledger in steps of `stepRows`, walking the partition's (DeviceId, RecordIndex)
 *    index; each step a short transaction, like the DELETE steps. The records stay until part 2: a key gone
 *    before its record only matters if its controller reported that ring index again, months after the
 *    collection cursor passed it.
 * 2. One short transaction: the partition is locked against inserts (a record of a controller whose clock is
 *    months behind), counted, its days' rows leave DoorOpeningRecordDay (a partition holds whole UTC days, so
 *    those rows count its records and nothing else), then it is detached. The detach takes DoorOpeningRecord's
 *    ACCESS EXCLUSIVE lock, so the rows and their day counts go at the same instant (the list's totals stay
 *    exact, as with the DELETE steps) and the lock is held for milliseconds. Waiting for that lock behind a
 *    long reader (an export) would hold up every list queued behind the wait: it gives up after LOCK_TIMEOUT,
 *    the run ends (done: false) and the next run tries again. `detach partition … concurrently` would not
 *    block at all but cannot run in a transaction: the rows would leave before or after their counts, and an
 *    interrupted one leaves the partition half detached.
 * 3. The detached table is dropped after that transaction (dropTable): a drop's commit removes the table's
 *    files, which took 250 ms at 500,000 rows (docs/performance.md), and in the detach's transaction the lock
 *    on DoorOpeningRecord would be held until that was done. A detached table left by a crash in between, or
 *    by a lock not had in time, is dropped at the next run (dropDetached).
 *
 * Stops starting steps when the run's budget is spent, like the step loop.
 */
async function dropExpiredMonths(db: Db, cutoff: number, run: RetentionRun): Promise<RetentionResult> {
  const result: RetentionResult = { cutoff, removed: 0, steps: 0, done: true };
  if (db.dialect !== 'postgres') return result;
  const stepRows = run.stepRows ?? RETENTION_STEP_ROWS;
  const budgetMs = run.budgetMs ?? RETENTION_BUDGET_MS;
  const started = Date.now();
  const spent = () => Date.now() - started > budgetMs;
  const step = async () => {
    result.steps += 1;
    await run.afterStep?.();
    if (run.pauseMs) await new Promise((resolve) => setTimeout(resolve, run.pauseMs));
  };
  await dropDetached(db);
  const expired = (await swipePartitions(db.kysely, db.dialect)).filter(
    (p) => p.to !== null && p.to <= cutoff,
  );
  for (const partition of expired) {
    let after: { DeviceId: number; RecordIndex: number } | undefined;
    for (;;) {
      if (spent()) return { ...result, done: false };
      const done = await dropKeysStep(db, partition, after, stepRows);
      await step();
      if (!done.last) break;
      after = done.last;
    }
    if (spent()) return { ...result, done: false };
    const removed = await dropPartition(db, partition);
    if (removed === undefined) return { ...result, done: false };
    if (removed > 0) recordsRemoved();
    result.removed += removed;
    await step();
  }
  return result;
}

/** Part 1: the ledger keys of the partition's next `stepRows` ring records; `last` is where the next step starts. */
async function dropKeysStep(
  db: Db,
  partition: SwipePartition,
  after: { DeviceId: number; RecordIndex: number } | undefined,
  stepRows: number,
): Promise<{ last?: { DeviceId: number; RecordIndex: number } }> {
  const from = after
    ? sql`and ("DeviceId", "RecordIndex") > (${after.DeviceId}, ${after.RecordIndex})`
    : sql``;
  const { rows } = await sql<{ DeviceId: number; RecordIndex: number; n: number }>`
    with chunk as (
      select "DeviceId", "RecordIndex" from ${sql.id(partition.name)}
      where "RecordIndex" is not null ${from}
      order by "DeviceId", "RecordIndex" limit ${stepRows}
    ), gone as (
      delete from "DoorOpeningRecordKey" k using chunk c
      where k."DeviceId" = c."DeviceId" and k."RecordIndex" = c."RecordIndex"
    )
    select "DeviceId", "RecordIndex", count(*) over () as n from chunk
    order by "DeviceId" desc, "RecordIndex" desc limit 1`.execute(db.kysely);
  const last = rows[0];
  return last && Number(last.n) === stepRows
    ? { last: { DeviceId: last.DeviceId, RecordIndex: Number(last.RecordIndex) } }
    : {};
}

/**
 * Tables named like a month's partition that are no partition (any more): detached by a run that stopped before
 * dropping them (part 3). Partitions are created and attached in one transaction, so no other table looks so.
 */
async function dropDetached(db: Db): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class
    where relnamespace = (select oid from pg_namespace where nspname = current_schema())
      and relkind = 'r' and not relispartition and relname ~ '^DoorOpeningRecord_([0-9]{6}|beyond)$'`.execute(
    db.kysely,
  );
  for (const { name } of rows) await dropTable(db, name);
}

/**
 * Drops a detached month. Its foreign key (AreaId to AreaInfo, cloned from DoorOpeningRecord's) goes first, in a
 * short transaction of its own: dropping a table with a foreign key takes an ACCESS EXCLUSIVE lock on AreaInfo
 * (its triggers are removed) until the commit, which removes the files, and nearly every request reads
 * AreaInfo. Gives up quietly when a lock is not had within LOCK_TIMEOUT (the next run's dropDetached retries).
 */
async function dropTable(db: Db, name: string): Promise<void> {
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
      const { rows } = await sql<{ name: string }>`
        select conname as name from pg_constraint
        where contype = 'f' and conrelid = (
          select oid from pg_class
          where relname = ${name} and relnamespace = (select oid from pg_namespace where nspname = current_schema()))`.execute(
        trx,
      );
      for (const fk of rows)
        await sql`alter table ${sql.id(name)} drop constraint ${sql.id(fk.name)}`.execute(trx);
    });
    await sql`drop table ${sql.id(name)}`.execute(db.kysely);
  } catch (error) {
    if ((error as { code?: unknown }).code !== '55P03') throw error;
  }
}

/**
 * Parts 2 and 3: the partition's day counts and its detach in one transaction, then its table dropped (see
 * dropExpiredMonths). Answers the records removed, or undefined when the detach's transaction did not have its
 * locks within LOCK_TIMEOUT (nothing changed).
 */
async function dropPartition(db: Db, partition: SwipePartition): Promise<number | undefined> {
  try {
    const removed = await db.kysely.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
      const table = sql.id(partition.name);
      await sql`lock table ${table} in share mode`.execute(trx);
      const counted = await sql<{ n: number }>`select count(*) as n from ${table}`.execute(trx);
      await trx
        .deleteFrom('DoorOpeningRecordDay')
        .where('Day', '>=', Math.floor(partition.from / DAY_MS))
        .where('Day', '<', Math.ceil(partition.to! / DAY_MS))
        .execute();
      await sql`alter table "DoorOpeningRecord" detach partition ${table}`.execute(trx);
      return Number(counted.rows[0]?.n ?? 0);
    });
    await dropTable(db, partition.name);
    return removed;
  } catch (error) {
    // lock_not_available: a reader held the table longer than LOCK_TIMEOUT; the next run tries again.
    if ((error as { code?: unknown }).code === '55P03') return undefined;
    throw error;
  }
}

/** One step: the area's oldest expired records, at most `stepRows`, and their share of the day counts. */
async function pruneStep(db: Db, areaId: number, cutoff: number, stepRows: number): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const oldest = trx
      .selectFrom('DoorOpeningRecord')
      .select('Id')
      .where('AreaId', '=', areaId)
      .where('At', '<', cutoff)
      .orderBy('At')
      .limit(stepRows);
    const gone = await trx
      .deleteFrom('DoorOpeningRecord')
      .where('Id', 'in', oldest)
      // PostgreSQL: only the partitions before the cutoff are looked into.
      .where('At', '<', cutoff)
      .returning(['At', 'DeviceId', 'Result', 'RecordIndex'])
      .execute();
    // Their ring indexes leave the exactly-once ledger with them.
    const keys = new Map<number, number[]>();
    for (const row of gone)
      if (row.RecordIndex !== null) {
        const list = keys.get(row.DeviceId) ?? [];
        list.push(Number(row.RecordIndex));
        keys.set(row.DeviceId, list);
      }
    for (const [deviceId, indexes] of keys)
      await trx
        .deleteFrom('DoorOpeningRecordKey')
        .where('DeviceId', '=', deviceId)
        .where('RecordIndex', 'in', indexes)
        .execute();
    const counts = new Map<string, { Day: number; DeviceId: number; Result: number; n: number }>();
    for (const row of gone) {
      const Day = Math.floor(Number(row.At) / DAY_MS);
      const key = `${Day}:${row.DeviceId}:${row.Result}`;
      const entry = counts.get(key);
      if (entry) entry.n += 1;
      else counts.set(key, { Day, DeviceId: row.DeviceId, Result: row.Result, n: 1 });
    }
    for (const c of counts.values()) {
      const where = trx
        .updateTable('DoorOpeningRecordDay')
        .set((eb) => ({ Count: eb('Count', '-', c.n) }))
        .where('AreaId', '=', areaId)
        .where('Day', '=', c.Day)
        .where('DeviceId', '=', c.DeviceId)
        .where('Result', '=', c.Result);
      await where.execute();
    }
    await trx
      .deleteFrom('DoorOpeningRecordDay')
      .where('AreaId', '=', areaId)
      .where('Day', '<', cutoff / DAY_MS)
      .where('Count', '<=', 0)
      .execute();
    return gone.length;
  });
}
