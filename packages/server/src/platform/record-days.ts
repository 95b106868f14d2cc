import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { MigrationContext } from '../db/migration.ts';

/**
 * Per-area, per-UTC-day row counts of a records table (issue 20: a deep page of the largest area's charging
 * sessions walked 736,000 index entries, 47–94 ms at 10,000,000 rows). With the counts a list finds the day
 * its page starts in by summing at most a few hundred small rows, then skips within that day only; and its
 * total over any range is exact for the price of those rows plus the partial first and last day.
 *
 * The counts are kept by the database itself (triggers on insert, delete and a change of area or time), not
 * by the writers: sessions, orders and parking orders are written by the charger gateway, the payment
 * channel, the operators' routes, retention, the demo seed and the volume bench, and a count that one writer
 * forgot would put pages out of step with their rows. On PostgreSQL inserts and deletes are counted once per
 * statement from its transition table (a bulk insert of 2,000 rows is one grouped upsert, not 2,000); SQLite
 * has row triggers only. `RecordDay` rows whose count reaches 0 are removed, so every row is a day with records.
 */
export interface DayCounted {
  /** The records table, also the `Kind` its counts are kept under. */
  table: string;
  /** Its time column (epoch milliseconds): the list's time range and default order. */
  column: string;
}

export const DAY_MS = 86_400_000;

export interface RecordDayTable {
  Kind: string;
  AreaId: number;
  /** UTC day number: floor(time / 86,400,000). */
  Day: number;
  Count: number;
}

export interface RecordDayTables {
  RecordDay: RecordDayTable;
}

declare module '../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends RecordDayTables {}
}

const ident = (name: string) => sql.id(name);
const literal = (value: string) => sql.lit(value);

/**
 * Creates `RecordDay` when missing, the triggers that keep it for each table, and fills it from the rows
 * already there (a migration on a large database counts them once: one grouped scan per table).
 */
export async function createRecordDays(
  db: Kysely<unknown>,
  ctx: MigrationContext,
  tables: readonly DayCounted[],
): Promise<void> {
  await db.schema
    .createTable('RecordDay')
    .ifNotExists()
    .addColumn('Kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('AreaId', 'integer', (c) => c.notNull())
    .addColumn('Day', 'integer', (c) => c.notNull())
    .addColumn('Count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('RecordDay_pk', ['Kind', 'AreaId', 'Day'])
    .execute();
  for (const t of tables)
    await (ctx.dialect === 'postgres' ? postgresTriggers(db, t) : sqliteTriggers(db, t));
  await recountRecordDays(db, ctx, tables);
}

/**
 * The tables' day counts counted again from their rows (one grouped scan per table), replacing what was kept:
 * for a load that bypassed the triggers (the volume bench's COPY with `session_replication_role = replica`).
 */
export async function recountRecordDays(
  db: Kysely<unknown>,
  ctx: MigrationContext,
  tables: readonly DayCounted[],
): Promise<void> {
  for (const t of tables) {
    await sql`delete from "RecordDay" where "Kind" = ${literal(t.table)}`.execute(db);
    await sql`insert into "RecordDay" ("Kind", "AreaId", "Day", "Count")
      select ${literal(t.table)}, "AreaId", ${dayOf(ctx, sql`${ident(t.column)}`)}, count(*)
      from ${ident(t.table)} group by 2, 3`.execute(db);
  }
}

/** The UTC day of an epoch-milliseconds expression, as an integer on both engines. */
function dayOf(ctx: MigrationContext, time: RawBuilder<unknown>) {
  return ctx.dialect === 'postgres'
    ? sql`(${time} / ${sql.lit(DAY_MS)})::integer`
    : sql`cast(${time} / ${sql.lit(DAY_MS)} as integer)`;
}

async function sqliteTriggers(db: Kysely<unknown>, t: DayCounted): Promise<void> {
  const kind = literal(t.table);
  const table = ident(t.table);
  const day = (row: 'new' | 'old') =>
    sql`cast(${sql.raw(row)}.${ident(t.column)} / ${sql.lit(DAY_MS)} as integer)`;
  const add = sql`insert into "RecordDay" ("Kind", "AreaId", "Day", "Count")
      values (${kind}, new."AreaId", ${day('new')}, 1)
      on conflict ("Kind", "AreaId", "Day") do update set "Count" = "Count" + 1;`;
  const take = sql`update "RecordDay" set "Count" = "Count" - 1
      where "Kind" = ${kind} and "AreaId" = old."AreaId" and "Day" = ${day('old')};
    delete from "RecordDay"
      where "Kind" = ${kind} and "AreaId" = old."AreaId" and "Day" = ${day('old')} and "Count" <= 0;`;
  await sql`create trigger ${ident(`${t.table}_RecordDay_insert`)} after insert on ${table}
    begin ${add} end`.execute(db);
  await sql`create trigger ${ident(`${t.table}_RecordDay_delete`)} after delete on ${table}
    begin ${take} end`.execute(db);
  await sql`create trigger ${ident(`${t.table}_RecordDay_update`)}
    after update of "AreaId", ${ident(t.column)} on ${table}
    when old."AreaId" is not new."AreaId" or ${day('old')} is not ${day('new')}
    begin ${take} ${add} end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>, t: DayCounted): Promise<void> {
  const kind = literal(t.table);
  const table = ident(t.table);
  const column = ident(t.column);
  const fn = (what: string) => ident(`${t.table}_RecordDay_${what}`);
  const day = (row: string) => sql`(${sql.raw(row)}.${column} / ${sql.lit(DAY_MS)})::integer`;
  // Grouped and in key order: two statements touching the same days lock their rows in the same order.
  await sql`create or replace function ${fn('insert')}() returns trigger language plpgsql as $$
    begin
      insert into "RecordDay" ("Kind", "AreaId", "Day", "Count")
        select ${kind}, n."AreaId", ${day('n')}, count(*) from new_rows n group by 2, 3 order by 2, 3
        on conflict ("Kind", "AreaId", "Day") do update set "Count" = "RecordDay"."Count" + excluded."Count";
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${fn('delete')}() returns trigger language plpgsql as $$
    begin
      update "RecordDay" r set "Count" = r."Count" - g.n
        from (select o."AreaId", ${day('o')} as d, count(*) as n from old_rows o group by 1, 2 order by 1, 2) g
        where r."Kind" = ${kind} and r."AreaId" = g."AreaId" and r."Day" = g.d;
      delete from "RecordDay" r using (select distinct o."AreaId", ${day('o')} as d from old_rows o) g
        where r."Kind" = ${kind} and r."AreaId" = g."AreaId" and r."Day" = g.d and r."Count" <= 0;
      return null;
    end $$`.execute(db);
  // A change of area or day is rare (a record's time is set once): a row trigger, filtered by its WHEN.
  await sql`create or replace function ${fn('update')}() returns trigger language plpgsql as $$
    begin
      update "RecordDay" set "Count" = "Count" - 1
        where "Kind" = ${kind} and "AreaId" = old."AreaId" and "Day" = ${day('old')};
      delete from "RecordDay"
        where "Kind" = ${kind} and "AreaId" = old."AreaId" and "Day" = ${day('old')} and "Count" <= 0;
      insert into "RecordDay" ("Kind", "AreaId", "Day", "Count") values (${kind}, new."AreaId", ${day('new')}, 1)
        on conflict ("Kind", "AreaId", "Day") do update set "Count" = "RecordDay"."Count" + 1;
      return null;
    end $$`.execute(db);
  await sql`create trigger ${fn('insert')} after insert on ${table}
    referencing new table as new_rows for each statement execute function ${fn('insert')}()`.execute(db);
  await sql`create trigger ${fn('delete')} after delete on ${table}
    referencing old table as old_rows for each statement execute function ${fn('delete')}()`.execute(db);
  await sql`create trigger ${fn('update')} after update of "AreaId", ${column} on ${table} for each row
    when (old."AreaId" is distinct from new."AreaId" or ${day('old')} is distinct from ${day('new')})
    execute function ${fn('update')}()`.execute(db);
  // TRUNCATE fires no delete trigger: the kind's counts go with it.
  await sql`create or replace function ${fn('truncate')}() returns trigger language plpgsql as $$
    begin delete from "RecordDay" where "Kind" = ${kind}; return null; end $$`.execute(db);
  await sql`create trigger ${fn('truncate')} after truncate on ${table}
    for each statement execute function ${fn('truncate')}()`.execute(db);
}
