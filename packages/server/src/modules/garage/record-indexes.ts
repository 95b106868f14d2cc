import type { Kysely } from 'kysely';
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
