import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * What driving WG controllers persists (docs/devices.md, "Sync" and "Collection"). One column per statement:
 * SQLite alters one column at a time.
 *
 * - AccessControlDeviceState: the driver's view of a controller that must outlive a restart (last seen,
 *   firmware, clock drift, where its listener points) and the progress of its authorisation sync.
 * - AccessControlRecordCursor: the collection cursor, the next ring index to read, and the records the
 *   controller overwrote before Gatehouse read them.
 * - DoorOpeningRecord: the controller's ring index, record type and its own reason code. (DeviceId,
 *   RecordIndex) is unique: a record polled twice, pushed and polled, or read again after a crash is stored
 *   once. NULLs are distinct on both databases, so the rows written before (demo data) never collide.
 * - CardUserLinkChannel: sync bookkeeping of an authorisation (attempts, next attempt, last failure).
 */
export const wgMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('AccessControlDeviceState')
      .addColumn('DeviceId', 'integer', (c) =>
        c.primaryKey().references('AccessControlDevice.Id').onDelete('cascade'),
      )
      .addColumn('Online', 'integer')
      .addColumn('LastSeenAt', 'bigint')
      .addColumn('Firmware', 'text')
      .addColumn('ClockDriftSeconds', 'integer')
      .addColumn('DriftCheckedAt', 'bigint')
      .addColumn('ListenerAddress', 'text')
      .addColumn('LastError', 'text')
      .addColumn('SyncState', 'text')
      .addColumn('SyncPhase', 'text')
      .addColumn('SyncDone', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SyncTotal', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SyncStartedAt', 'bigint')
      .addColumn('SyncFinishedAt', 'bigint')
      .addColumn('SyncError', 'text')
      .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('AccessControlRecordCursor')
      .addColumn('DeviceId', 'integer', (c) =>
        c.primaryKey().references('AccessControlDevice.Id').onDelete('cascade'),
      )
      .addColumn('NextIndex', 'bigint', (c) => c.notNull())
      .addColumn('LostRecords', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('DoorOpeningRecord').addColumn('RecordIndex', 'bigint').execute();
    await db.schema.alterTable('DoorOpeningRecord').addColumn('EventType', 'integer').execute();
    await db.schema.alterTable('DoorOpeningRecord').addColumn('EventReason', 'integer').execute();
    await sql`create unique index "DoorOpeningRecord_DeviceId_RecordIndex" on "DoorOpeningRecord" ("DeviceId", "RecordIndex")`.execute(
      db,
    );

    await db.schema
      .alterTable('CardUserLinkChannel')
      .addColumn('SyncAttempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('CardUserLinkChannel').addColumn('NextSyncAt', 'bigint').execute();
    /** 'offline' | 'refused' | 'timeout' */
    await db.schema.alterTable('CardUserLinkChannel').addColumn('SyncError', 'text').execute();
    await db.schema.alterTable('CardUserLinkChannel').addColumn('SyncedAt', 'bigint').execute();
  },
};

/**
 * CardUserLinkChannel.SentToDevice: 1 once a sync pass may have written the authorisation to its controller,
 * back to 0 when the controller confirmed its removal. Revoking (or withdrawing) one that was never sent needs
 * no deletion on the device: it goes straight to "deletion succeeded". Rows from before this column are taken
 * as sent (the honest guess when nobody knows), except those no controller holds: -2 and 0 (no issue needed).
 */
export const wgSentMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('CardUserLinkChannel')
      .addColumn('SentToDevice', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await sql`update "CardUserLinkChannel" set "SentToDevice" = 0 where "IssueStatus" in (-2, 0)`.execute(db);
  },
};
