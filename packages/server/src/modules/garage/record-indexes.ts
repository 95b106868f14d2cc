import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * The records' list indexes end with the id that breaks ties (issue 20, docs/performance.md "Ten million
 * records"): a list ordered by (time, Id) within an area is then read in index order, and its page chosen
 * from the index alone (PostgreSQL: an index-only scan; before, it sorted the area's rows or an incremental
 * sort of every skipped row). The by-socket indexes carry the area too: a list of one socket or host checks
 * its area (`+AreaId`, see ResourceDef.narrowFilters) from the index without reading the table. The payment
 * state of orders gets the index its filter lacked.
 */
const INDEXES: { table: string; drop: string; index: string; columns: string[] }[] = [
  {
    table: 'ChargeRecord',
    drop: 'ChargeRecord_AreaId_StartAt',
    index: 'ChargeRecord_AreaId_StartAt_Id',
    columns: ['AreaId', 'StartAt', 'Id'],
  },
  {
    table: 'ChargeRecord',
    drop: 'ChargeRecord_Equipment_StartAt',
    index: 'ChargeRecord_Equipment_StartAt_Id',
    columns: ['ChargeEquipmentId', 'StartAt', 'Id', 'AreaId'],
  },
  {
    table: 'ChargeOrder',
    drop: 'ChargeOrder_AreaId_CreatedAt',
    index: 'ChargeOrder_AreaId_CreatedAt_Id',
    columns: ['AreaId', 'CreatedAt', 'Id'],
  },
  {
    table: 'ParkOrder',
    drop: 'ParkOrder_AreaId_EntryAt',
    index: 'ParkOrder_AreaId_EntryAt_Id',
    columns: ['AreaId', 'EntryAt', 'Id'],
  },
  {
    table: 'ForcedOutageRecord',
    drop: 'ForcedOutageRecord_AreaId_At',
    index: 'ForcedOutageRecord_AreaId_At_Id',
    columns: ['AreaId', 'At', 'Id'],
  },
  {
    table: 'ForcedOutageRecord',
    drop: 'ForcedOutageRecord_Equipment',
    index: 'ForcedOutageRecord_Equipment_At_Id',
    columns: ['ChargeEquipmentId', 'At', 'Id', 'AreaId'],
  },
];

/** Added beside the existing ones: the payment state's, and a zone's stays by entry (the parking list's zone filter). */
const PAYMENT_STATE: { table: string; index: string; columns: string[] }[] = [
  {
    table: 'ParkOrder',
    index: 'ParkOrder_Zone_EntryAt_Id',
    columns: ['ParkAreaId', 'EntryAt', 'Id', 'AreaId'],
  },
  {
    table: 'ChargeOrder',
    index: 'ChargeOrder_AreaId_PaymentState',
    columns: ['AreaId', 'PaymentState', 'CreatedAt', 'Id'],
  },
  {
    table: 'ParkOrder',
    index: 'ParkOrder_AreaId_PaymentState',
    columns: ['AreaId', 'PaymentState', 'EntryAt', 'Id'],
  },
];

export const recordIndexesMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    for (const index of INDEXES) {
      // The new index first: the list never goes without one.
      await db.schema.createIndex(index.index).on(index.table).columns(index.columns).execute();
      await db.schema.dropIndex(index.drop).execute();
    }
    for (const index of PAYMENT_STATE)
      await db.schema.createIndex(index.index).on(index.table).columns(index.columns).execute();
  },
};

/**
 * One socket's charging orders (issue 20): the order gets its session's socket and an index by socket and time,
 * so the list of one socket reads its newest orders from that index (before: each of the socket's sessions'
 * orders looked up in the `ChargeRecordId` index and sorted, 36–39 ms at 1,775 sessions on both databases).
 * Filled from the sessions in one statement. PostgreSQL drops the default afterwards, so a writer that forgets
 * the socket fails instead of filing its order under socket 0; SQLite cannot drop a column default, and the
 * table's type (tables.ts) makes every insert name it.
 */
export const chargeOrderSocketMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx) {
    await db.schema
      .alterTable('ChargeOrder')
      .addColumn('ChargeEquipmentId', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    if (ctx.dialect === 'postgres') {
      // Every order is written again, and each new row version goes into every index of the table: 16 minutes
      // at 10 million orders with the five indexes kept (measured). The table is locked for the migration
      // anyway, so its other indexes and unique constraints are set aside and built again afterwards (a sorted
      // build, seconds each), and the update maintains the primary key alone.
      const unique = await sql<{ name: string; def: string }>`select conname as name,
          pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = '"ChargeOrder"'::regclass and contype = 'u'`.execute(db);
      const indexes = await sql<{ name: string; def: string }>`select i.relname as name,
          pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = '"ChargeOrder"'::regclass and not x.indisprimary
          and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`.execute(db);
      for (const c of unique.rows)
        await sql`alter table "ChargeOrder" drop constraint ${sql.id(c.name)}`.execute(db);
      for (const i of indexes.rows) await sql`drop index ${sql.id(i.name)}`.execute(db);
      // A join, not a subquery per row: 10 million orders in one pass over both tables.
      await sql`update "ChargeOrder" o set "ChargeEquipmentId" = r."ChargeEquipmentId"
        from "ChargeRecord" r where r."Id" = o."ChargeRecordId"`.execute(db);
      await sql`alter table "ChargeOrder" alter column "ChargeEquipmentId" drop default`.execute(db);
      for (const i of indexes.rows) await sql.raw(i.def).execute(db);
      for (const c of unique.rows)
        await sql`alter table "ChargeOrder" add constraint ${sql.id(c.name)} ${sql.raw(c.def)}`.execute(db);
    } else {
      await sql`update "ChargeOrder" set "ChargeEquipmentId" = (select r."ChargeEquipmentId"
        from "ChargeRecord" r where r."Id" = "ChargeOrder"."ChargeRecordId")`.execute(db);
    }
    await db.schema
      .createIndex('ChargeOrder_Equipment_CreatedAt_Id')
      .on('ChargeOrder')
      .columns(['ChargeEquipmentId', 'CreatedAt', 'Id', 'AreaId'])
      .execute();
  },
};
