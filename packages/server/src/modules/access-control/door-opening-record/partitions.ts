import { sql, type QueryExecutorProvider } from 'kysely';
import type { Db, DialectName } from '../../../db/database.ts';

/**
 * Monthly partitions of the swipe records on PostgreSQL (issue 20, docs/performance.md "Growth bounded"):
 * DoorOpeningRecord is partitioned by range on At (epoch milliseconds), one partition per UTC month, named
 * DoorOpeningRecord_YYYYMM. Retention then removes a whole month by detaching and dropping its partition
 * (milliseconds) instead of deleting its rows (retention.ts). SQLite has no partitions: DoorOpeningRecord stays
 * one table there and every function here does nothing.
 *
 * There is no DEFAULT partition. Rows in a default partition would stop that month's partition from ever being
 * created (PostgreSQL refuses a new partition whose range holds rows of the default one, and scans the default
 * on every creation to know), and retention could not drop them by month. Instead partitions are created ahead
 * (the current month and the next PARTITIONS_AHEAD, at migration, at start and daily), and a record whose month
 * has none (a controller whose clock is years off) makes its insert fail with "no partition of relation found"
 * (SQLSTATE 23514): the writer then creates that month's partition and runs its transaction again (service.ts).
 */

/** Months created ahead of the current one. */
export const PARTITIONS_AHEAD = 3;

/** The first instant JavaScript dates can name (8.64e15 ms); At is at most 2^53 - 1, a little beyond. */
const LAST_DATE_MS = 8_640_000_000_000_000;

/** How long creating or detaching a partition waits for its lock on DoorOpeningRecord. */
export const LOCK_TIMEOUT = '1s';

/** A partition: its name and its range [from, to) of At; to null: MAXVALUE (beyond the last date). */
export interface SwipePartition {
  name: string;
  from: number;
  to: number | null;
}

/** The partition (UTC month) holding `at`. */
export function monthPartition(at: number): SwipePartition {
  if (at >= LAST_DATE_MS) return { name: 'DoorOpeningRecord_beyond', from: LAST_DATE_MS, to: null };
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const to = Date.UTC(y, m + 1, 1);
  return {
    name: `DoorOpeningRecord_${String(y).padStart(4, '0')}${String(m + 1).padStart(2, '0')}`,
    from: Date.UTC(y, m, 1),
    to: to > LAST_DATE_MS ? LAST_DATE_MS : to,
  };
}

/** The months holding the given instants, each once. */
export function monthsOf(ats: Iterable<number>): SwipePartition[] {
  const months = new Map<string, SwipePartition>();
  for (const at of ats) {
    const p = monthPartition(at);
    months.set(p.name, p);
  }
  return [...months.values()];
}

/** The current month (of `now`) and the `ahead` next ones. */
export function monthsAhead(now: number, ahead = PARTITIONS_AHEAD): SwipePartition[] {
  const d = new Date(now);
  return Array.from({ length: ahead + 1 }, (_, i) =>
    monthPartition(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + i, 1)),
  );
}

/** DoorOpeningRecord's partitions as the catalogue has them (PostgreSQL; [] on SQLite), oldest first. */
export async function swipePartitions(
  db: QueryExecutorProvider,
  dialect: DialectName,
): Promise<SwipePartition[]> {
  if (dialect !== 'postgres') return [];
  // regclass resolves through search_path: the schema the application (or a test) runs in.
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = '"DoorOpeningRecord"'::regclass`.execute(db);
  return rows
    .map((r) => {
      // FOR VALUES FROM ('1761955200000') TO ('1764547200000'), or TO (MAXVALUE).
      const m = /FROM \('?(-?\d+)'?\) TO \((?:'?(-?\d+)'?|MAXVALUE)\)/.exec(r.bound);
      if (!m) throw new Error(`unexpected partition bound of ${r.name}: ${r.bound}`);
      return { name: r.name, from: Number(m[1]), to: m[2] === undefined ? null : Number(m[2]) };
    })
    .sort((a, b) => a.from - b.from);
}

/**
 * Creates one month's partition, in the caller's transaction: an empty table like the parent, then attached.
 * Not `create table … partition of`, which takes an ACCESS EXCLUSIVE lock on DoorOpeningRecord (every list and
 * insert waits behind it, and it behind any long read); ATTACH PARTITION takes SHARE UPDATE EXCLUSIVE, which
 * lets reads and inserts go on, and it finds the new table empty and no default partition to scan. The
 * partitioned indexes, the primary key and the foreign key are created on the new partition by the attach (the
 * foreign key takes SHARE ROW EXCLUSIVE on AreaInfo until the commit: an area's edit waits, its reads do not).
 */
export async function createPartition(db: QueryExecutorProvider, p: SwipePartition): Promise<void> {
  await sql`create table ${sql.id(p.name)} (like "DoorOpeningRecord" including defaults including constraints)`.execute(
    db,
  );
  const to = p.to === null ? sql`maxvalue` : sql.lit(p.to);
  await sql`alter table "DoorOpeningRecord" attach partition ${sql.id(p.name)} for values from (${sql.lit(p.from)}) to (${to})`.execute(
    db,
  );
}

/**
 * Makes sure the partitions of `months` exist (PostgreSQL; nothing on SQLite): each missing one is created in
 * its own short transaction. Its attach waits for a lock at most LOCK_TIMEOUT (a long export scanning the
 * table): longer, it fails and the caller tries again later, rather than holding up the lists queued behind
 * it. Two instances creating the same month at once: the loser's error is ignored once the month exists.
 * Given a transaction (`db.kysely`), the partitions are created in it.
 * Answers the partitions created.
 */
export async function ensureSwipePartitions(
  db: Pick<Db, 'kysely' | 'dialect'>,
  months: SwipePartition[],
): Promise<string[]> {
  if (db.dialect !== 'postgres' || months.length === 0) return [];
  const existing = new Set((await swipePartitions(db.kysely, db.dialect)).map((p) => p.name));
  const created: string[] = [];
  for (const month of months) {
    if (existing.has(month.name)) continue;
    // Inside the caller's transaction (the demo seed's, which nothing else sees yet): created there.
    if (db.kysely.isTransaction) {
      await createPartition(db.kysely, month);
      created.push(month.name);
      continue;
    }
    try {
      await db.kysely.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
        await createPartition(trx, month);
      });
      created.push(month.name);
    } catch (error) {
      const now = new Set((await swipePartitions(db.kysely, db.dialect)).map((p) => p.name));
      if (!now.has(month.name)) throw error;
    }
  }
  return created;
}

/** The partitions for the month of `now` and the next PARTITIONS_AHEAD (the singleton job, at start and daily). */
export function ensurePartitionsAhead(db: Pick<Db, 'kysely' | 'dialect'>, now: number): Promise<string[]> {
  return ensureSwipePartitions(db, monthsAhead(now));
}

/**
 * Whether `error` is PostgreSQL's "no partition of relation "DoorOpeningRecord" found for row": SQLSTATE 23514
 * like a check constraint's, told apart by naming the table and no constraint (the message is translated).
 */
export function isMissingPartition(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; table?: unknown; constraint?: unknown };
  return e.code === '23514' && e.table === 'DoorOpeningRecord' && !e.constraint;
}
