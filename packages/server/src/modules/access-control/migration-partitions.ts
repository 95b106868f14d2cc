import { sql, type Kysely } from 'kysely';
import type { MigrationContext, PortableMigration } from '../../db/migration.ts';
import { createPartition, monthsAhead, monthsOf } from './door-opening-record/partitions.ts';

/** The swipe records' secondary indexes, as migrations 0003, 0007 and 0022 made them (0007's no longer unique). */
const INDEXES = [
  ['DoorOpeningRecord_At', sql`("AreaId", "At", "Id", "DeviceId", "Result", "CardUserId")`],
  ['DoorOpeningRecord_CardUserId', sql`("AreaId", "CardUserId", "At", "Id", "DeviceId", "Result")`],
  ['DoorOpeningRecord_CardNumber', sql`("AreaId", "CardNumber", "At", "Id", "DeviceId", "Result")`],
  // The dashboard's open alarms (a later door record of the same controller) and a ring restart read by it.
  ['DoorOpeningRecord_DeviceId_RecordIndex', sql`("DeviceId", "RecordIndex")`],
  ['DoorOpeningRecord_refused', sql`("DeviceId", "DoorNumber", "At") where "Result" = 0`],
] as const;

/**
 * Swipe records partitioned by month on PostgreSQL, and the exactly-once ledger of ring records on both
 * databases (issue 20, docs/performance.md "Growth bounded").
 *
 * PostgreSQL: DoorOpeningRecord becomes a table partitioned by range on At, one partition per UTC month
 * (door-opening-record/partitions.ts), so that retention drops a month's partition instead of deleting its rows.
 * Every unique index of a partitioned table must contain At: the primary key becomes (Id, At) (Id still comes
 * from the same sequence, so existing ids stay and new ones keep increasing) and (DeviceId, RecordIndex) can no
 * longer be unique. The rows are copied over (`insert … select`) into partitions for the months they fall in,
 * plus the current month and the next few; the old table goes. No foreign key references DoorOpeningRecord.
 *
 * Both databases: (DeviceId, RecordIndex) is kept unique by DoorOpeningRecordKey, filled here from the stored
 * ring records. A ring record is stored only when its key is new there (service.ts). SQLite could have kept its
 * unique index, but then the two databases would store ring records by two different means and the tests on
 * SQLite (always run) would not exercise the one PostgreSQL uses; one key more per ring record is its cost. On
 * SQLite the unique index becomes an ordinary one, as on PostgreSQL.
 */
export const swipePartitionsMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    const ledger = db.schema
      .createTable('DoorOpeningRecordKey')
      .addColumn('DeviceId', 'integer', (c) => c.notNull())
      .addColumn('RecordIndex', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('DoorOpeningRecordKey_pk', ['DeviceId', 'RecordIndex']);
    // SQLite: the key alone is the row (no rowid and second b-tree beside it).
    await (ctx.dialect === 'sqlite' ? ledger.modifyEnd(sql`without rowid`) : ledger).execute();

    if (ctx.dialect === 'sqlite') {
      await sql`insert into "DoorOpeningRecordKey" ("DeviceId", "RecordIndex")
        select "DeviceId", "RecordIndex" from "DoorOpeningRecord" where "RecordIndex" is not null`.execute(
        db,
      );
      await sql`drop index "DoorOpeningRecord_DeviceId_RecordIndex"`.execute(db);
      await sql`create index "DoorOpeningRecord_DeviceId_RecordIndex" on "DoorOpeningRecord" ("DeviceId", "RecordIndex")`.execute(
        db,
      );
      return;
    }

    const old = '"DoorOpeningRecord_unpartitioned"';
    await sql`alter table "DoorOpeningRecord" rename to "DoorOpeningRecord_unpartitioned"`.execute(db);
    // The old table's index names are taken back by the new table's; it is dropped at the end anyway.
    await sql`alter table ${sql.raw(old)} drop constraint "DoorOpeningRecord_pkey"`.execute(db);
    for (const [name] of INDEXES) await sql`drop index ${sql.id(name)}`.execute(db);

    // Same columns, types, not-nulls and defaults (Id's default: nextval of the serial's sequence).
    await sql`create table "DoorOpeningRecord" (like ${sql.raw(old)} including defaults including constraints)
      partition by range ("At")`.execute(db);
    const sequence = (
      await sql<{ name: string }>`select pg_get_serial_sequence(${old}, 'Id') as name`.execute(db)
    ).rows[0]?.name;
    if (!sequence) throw new Error('DoorOpeningRecord.Id has no sequence');
    // The sequence now belongs to the new table's Id, so dropping the old table leaves it.
    await sql`alter sequence ${sql.raw(sequence)} owned by "DoorOpeningRecord"."Id"`.execute(db);

    // The months holding records (a controller with a wrong clock may have left a few far off), then ahead.
    const months = (
      await sql<{ month: number }>`select distinct
          (extract(epoch from date_trunc('month', to_timestamp("At" / 1000.0) at time zone 'UTC')) * 1000)::bigint
          as month
        from ${sql.raw(old)}`.execute(db)
    ).rows.map((r) => Number(r.month));
    // Migrations have no application clock: the real one. The singleton job makes sure again at every start.
    const partitions = monthsOf(months);
    for (const p of monthsAhead(Date.now()))
      if (!partitions.some((q) => q.name === p.name)) partitions.push(p);
    for (const p of partitions) await createPartition(db, p);

    // Rows first, then the keys and indexes (built once over the copied rows rather than row by row).
    await sql`insert into "DoorOpeningRecord" select * from ${sql.raw(old)}`.execute(db);
    await sql`insert into "DoorOpeningRecordKey" ("DeviceId", "RecordIndex")
      select "DeviceId", "RecordIndex" from ${sql.raw(old)} where "RecordIndex" is not null`.execute(db);
    await sql`alter table "DoorOpeningRecord" add constraint "DoorOpeningRecord_pkey" primary key ("Id", "At")`.execute(
      db,
    );
    await sql`alter table "DoorOpeningRecord" add constraint "DoorOpeningRecord_AreaId_fkey"
      foreign key ("AreaId") references "AreaInfo" ("Id") on delete restrict`.execute(db);
    for (const [name, columns] of INDEXES)
      await sql`create index ${sql.id(name)} on "DoorOpeningRecord" ${columns}`.execute(db);
    await sql`drop table ${sql.raw(old)}`.execute(db);
    // Autovacuum analyses partitions but never a partitioned parent: the planner's view of the whole table.
    if (months.length > 0) await sql`analyze "DoorOpeningRecord"`.execute(db);
  },
};
