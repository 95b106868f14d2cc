import { sql, type Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/**
 * Access rules on the controllers (docs/access-control.md, "Access rules"): time profiles and holidays of an
 * area, a grant's time profile, door schedules, interlock and anti-passback per controller, keypad, passcodes
 * and held-open limit per door, where each controller's rules stand, the doors' live state and the alarms.
 * One column per statement: SQLite alters one column at a time.
 */
export const accessRulesMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await createProfilesAndHolidays(db, ctx);
    await db.schema
      .alterTable('CardUserLinkChannel')
      .addColumn('TimeProfileId', 'integer', (c) => c.references('TimeProfile.Id').onDelete('restrict'))
      .execute();
    await db.schema
      .createIndex('CardUserLinkChannel_TimeProfileId')
      .on('CardUserLinkChannel')
      .columns(['TimeProfileId'])
      .execute();
    await db.schema
      .alterTable('AccessControlDevice')
      .addColumn('Interlock', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('AccessControlDevice')
      .addColumn('AntiPassback', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await createDoorTables(db, ctx);
    await createAlarms(db, ctx);
  },
};

async function createProfilesAndHolidays(db: Kysely<unknown>, ctx: MigrationContext) {
  await withTimestamps(
    withId(db.schema.createTable('TimeProfile'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('StartDate', 'text', (c) => c.notNull())
      .addColumn('EndDate', 'text', (c) => c.notNull())
      .addColumn('Weekdays', 'integer', (c) => c.notNull())
      .addColumn('Segments', 'text', (c) => c.notNull())
      .addColumn('LinkedProfileId', 'integer', (c) => c.references('TimeProfile.Id').onDelete('restrict'))
      .addColumn('NotOnHolidays', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Remark', 'text'),
  ).execute();
  await sql`create unique index "TimeProfile_AreaId_Name" on "TimeProfile" ("AreaId", "Name")`.execute(db);

  await withTimestamps(
    withId(db.schema.createTable('Holiday'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('StartDate', 'text', (c) => c.notNull())
      .addColumn('EndDate', 'text', (c) => c.notNull())
      .addColumn('Remark', 'text'),
  ).execute();
  await db.schema.createIndex('Holiday_AreaId').on('Holiday').columns(['AreaId', 'StartDate']).execute();
}

async function createDoorTables(db: Kysely<unknown>, ctx: MigrationContext) {
  const device = 'AccessControlDevice.Id';
  await withTimestamps(
    withId(db.schema.createTable('DoorSchedule'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('DeviceId', 'integer', (c) => c.notNull().references(device).onDelete('cascade'))
      .addColumn('DoorNumber', 'integer', (c) => c.notNull())
      .addColumn('Action', 'integer', (c) => c.notNull())
      .addColumn('Time', 'text', (c) => c.notNull())
      .addColumn('Weekdays', 'integer', (c) => c.notNull())
      .addColumn('StartDate', 'text', (c) => c.notNull())
      .addColumn('EndDate', 'text', (c) => c.notNull())
      .addColumn('Remark', 'text'),
  ).execute();
  await db.schema
    .createIndex('DoorSchedule_AreaId')
    .on('DoorSchedule')
    .columns(['AreaId', 'DeviceId'])
    .execute();

  await db.schema
    .createTable('AccessControlDoorRule')
    .addColumn('DeviceId', 'integer', (c) => c.notNull().references(device).onDelete('cascade'))
    .addColumn('DoorNumber', 'integer', (c) => c.notNull())
    .addColumn('Keypad', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Passcodes', 'text')
    .addColumn('HeldOpenSeconds', 'integer')
    .addColumn('Mode', 'integer')
    .addColumn('Delay', 'integer')
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('AccessControlDoorRule_pk', ['DeviceId', 'DoorNumber'])
    .execute();

  await db.schema
    .createTable('AccessControlDoorState')
    .addColumn('DeviceId', 'integer', (c) => c.notNull().references(device).onDelete('cascade'))
    .addColumn('DoorNumber', 'integer', (c) => c.notNull())
    .addColumn('Open', 'integer')
    .addColumn('Unlocked', 'integer')
    .addColumn('Alarm', 'integer')
    .addColumn('OpenSince', 'bigint')
    .addColumn('State', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Since', 'bigint')
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('AccessControlDoorState_pk', ['DeviceId', 'DoorNumber'])
    .execute();

  await db.schema
    .createTable('AccessControlRuleSync')
    .addColumn('DeviceId', 'integer', (c) => c.primaryKey().references(device).onDelete('cascade'))
    .addColumn('Revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('AppliedRevision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('State', 'text')
    .addColumn('Error', 'text')
    .addColumn('Attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('NextAt', 'bigint')
    .addColumn('FinishedAt', 'bigint')
    .addColumn('Applied', 'text')
    .addColumn('Slots', 'text')
    .addColumn('ProfileSlots', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('RestoredAt', 'bigint')
    .addColumn('RecordWatermark', 'bigint')
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .execute();
}

async function createAlarms(db: Kysely<unknown>, ctx: MigrationContext) {
  await withId(db.schema.createTable('DoorAlarm'), ctx)
    .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
    .addColumn('DeviceId', 'integer', (c) =>
      c.notNull().references('AccessControlDevice.Id').onDelete('restrict'),
    )
    .addColumn('DeviceName', 'text', (c) => c.notNull())
    .addColumn('DoorNumber', 'integer', (c) => c.notNull())
    .addColumn('DoorName', 'text')
    .addColumn('Kind', 'integer', (c) => c.notNull())
    .addColumn('State', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('RaisedAt', 'bigint', (c) => c.notNull())
    .addColumn('LastAt', 'bigint', (c) => c.notNull())
    .addColumn('Count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ClearedAt', 'bigint')
    .addColumn('Detail', 'text')
    .addColumn('AcknowledgedAt', 'bigint')
    .addColumn('AcknowledgedById', 'integer')
    .addColumn('AcknowledgedBy', 'text')
    .addColumn('Note', 'text')
    .execute();
  await db.schema.createIndex('DoorAlarm_AreaId').on('DoorAlarm').columns(['AreaId', 'RaisedAt']).execute();
  await db.schema.createIndex('DoorAlarm_State').on('DoorAlarm').columns(['AreaId', 'State']).execute();
  await db.schema
    .createIndex('DoorAlarm_Door')
    .on('DoorAlarm')
    .columns(['DeviceId', 'DoorNumber', 'Kind', 'State'])
    .execute();
}
