import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/** The area a row belongs to; devices and cards in the unassigned pool have none. */
const area =
  (nullable = false) =>
  (c: ColumnDefinitionBuilder) => {
    const col = c.references('AreaInfo.Id').onDelete('restrict');
    return nullable ? col : col.notNull();
  };

/**
 * Tables and indexes of the access-control module. The swipe-record indexes serve the list's filters
 * newest first; the per-day counts make totals and deep pages cheap (records/swipe-list.ts).
 */
export const accessControlMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    // In this order, as released: a table's foreign keys point at tables created before it.
    await createDeviceAndChannelTables(db, ctx);
    await createCardUserTable(db, ctx);
    await createCardTables(db, ctx);
    await createDoorOpeningRecordTables(db, ctx);
    await createHolderHistoryTables(db, ctx);
    await createFailureDeclarationTable(db, ctx);
  },
};

/** Door controllers and their channels (a door and a direction each). */
async function createDeviceAndChannelTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('AccessControlDevice'), ctx)
      .addColumn('AreaId', 'integer', area(true))
      .addColumn('SerialNumber', 'text', (c) => c.notNull())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Protocol', 'integer', (c) => c.notNull())
      .addColumn('Type', 'integer', (c) => c.notNull())
      .addColumn('Ip', 'text')
      .addColumn('Port', 'integer')
      .addColumn('Location', 'text')
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('AssignedAt', 'bigint')
      .addUniqueConstraint('AccessControlDevice_SerialNumber', ['SerialNumber']),
  ).execute();
  await db.schema
    .createIndex('AccessControlDevice_AreaId')
    .on('AccessControlDevice')
    .columns(['AreaId', 'Name'])
    .execute();

  await withTimestamps(
    withId(db.schema.createTable('AccessControlChannel'), ctx)
      .addColumn('AreaId', 'integer', area())
      .addColumn('DeviceId', 'integer', (c) =>
        c.notNull().references('AccessControlDevice.Id').onDelete('restrict'),
      )
      .addColumn('DoorNumber', 'integer', (c) => c.notNull())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Direction', 'integer', (c) => c.notNull())
      .addColumn('ReaderType', 'integer', (c) => c.notNull())
      .addColumn('Remark', 'text'),
  ).execute();
  await db.schema
    .createIndex('AccessControlChannel_DeviceId')
    .on('AccessControlChannel')
    .columns(['DeviceId', 'DoorNumber'])
    .execute();
  await db.schema
    .createIndex('AccessControlChannel_AreaId')
    .on('AccessControlChannel')
    .columns(['AreaId', 'DeviceId'])
    .execute();
  // A controller reports door and direction: two channels with the same pair could not be told apart.
  await sql`create unique index "AccessControlChannel_door" on "AccessControlChannel" ("DeviceId", "DoorNumber", "Direction") where "DoorNumber" > 0`.execute(
    db,
  );
}

/** Card holders. */
async function createCardUserTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('CardUser'), ctx)
      .addColumn('AreaId', 'integer', area())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Phone', 'text')
      .addColumn('CitizenId', 'text')
      .addColumn('Nation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('DepartmentId', 'integer', (c) => c.references('Department.Id').onDelete('restrict'))
      .addColumn('PeopleGroupId', 'integer', (c) => c.references('PeopleGroup.Id').onDelete('restrict'))
      .addColumn('PeopleTypeId', 'integer', (c) => c.references('PeopleType.Id').onDelete('restrict'))
      .addColumn('ValidFrom', 'bigint', (c) => c.notNull())
      .addColumn('ValidTo', 'bigint', (c) => c.notNull())
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Remark', 'text'),
  ).execute();
  for (const column of ['Name', 'Phone', 'DepartmentId', 'PeopleGroupId', 'PeopleTypeId', 'ValidTo']) {
    await db.schema
      .createIndex(`CardUser_AreaId_${column}`)
      .on('CardUser')
      .columns(['AreaId', column])
      .execute();
  }
  // One person, one holder per area.
  await sql`create unique index "CardUser_AreaId_CitizenId" on "CardUser" ("AreaId", "CitizenId") where "CitizenId" is not null`.execute(
    db,
  );
}

/** Cards and the holders' grants on channels (with their issue status on the controllers). */
async function createCardTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('Card'), ctx)
      .addColumn('AreaId', 'integer', area(true))
      .addColumn('CardNumber', 'text', (c) => c.notNull())
      .addColumn('CardType', 'integer', (c) => c.notNull())
      // One column, one holder: the database itself keeps a card from belonging to two holders.
      .addColumn('CardUserId', 'integer', (c) => c.references('CardUser.Id').onDelete('restrict'))
      .addColumn('Remark', 'text')
      .addUniqueConstraint('Card_CardNumber', ['CardNumber']),
  ).execute();
  await db.schema.createIndex('Card_AreaId').on('Card').columns(['AreaId', 'CardUserId']).execute();
  await db.schema.createIndex('Card_CardUserId').on('Card').column('CardUserId').execute();

  await withTimestamps(
    withId(db.schema.createTable('CardUserLinkChannel'), ctx)
      .addColumn('AreaId', 'integer', area())
      .addColumn('CardUserId', 'integer', (c) => c.notNull().references('CardUser.Id').onDelete('restrict'))
      // Rows left after a confirmed deletion (-2) go with their channel; the service refuses any other.
      .addColumn('ChannelId', 'integer', (c) =>
        c.notNull().references('AccessControlChannel.Id').onDelete('cascade'),
      )
      .addColumn('DeviceId', 'integer', (c) =>
        c.notNull().references('AccessControlDevice.Id').onDelete('restrict'),
      )
      .addColumn('ValidFrom', 'bigint')
      .addColumn('ValidTo', 'bigint')
      .addColumn('IssueStatus', 'integer', (c) => c.notNull())
      .addColumn('Revoked', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('CardUserLinkChannel_holder_channel', ['CardUserId', 'ChannelId']),
  ).execute();
  await db.schema
    .createIndex('CardUserLinkChannel_AreaId_DeviceId')
    .on('CardUserLinkChannel')
    .columns(['AreaId', 'DeviceId', 'IssueStatus'])
    .execute();
}

/** Swipe records and their per-day counts. */
async function createDoorOpeningRecordTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('CardUserLinkChannel_ChannelId')
    .on('CardUserLinkChannel')
    .columns(['ChannelId', 'IssueStatus'])
    .execute();

  // History: no foreign keys to devices, channels or holders; the names are copied in.
  await withId(db.schema.createTable('DoorOpeningRecord'), ctx)
    .addColumn('AreaId', 'integer', area())
    .addColumn('At', 'bigint', (c) => c.notNull())
    .addColumn('CardNumber', 'text', (c) => c.notNull())
    .addColumn('CardUserId', 'integer')
    .addColumn('HolderName', 'text')
    .addColumn('DeviceId', 'integer', (c) => c.notNull())
    .addColumn('DeviceName', 'text', (c) => c.notNull())
    .addColumn('ChannelId', 'integer')
    .addColumn('ChannelName', 'text')
    .addColumn('DoorNumber', 'integer', (c) => c.notNull())
    .addColumn('Direction', 'integer', (c) => c.notNull())
    .addColumn('Result', 'integer', (c) => c.notNull())
    .addColumn('Reason', 'integer', (c) => c.notNull())
    .execute();
  // Newest first within the area, and per holder or card (selective filters). Device, result (and the
  // holder, for time windows of a broad holder match) ride along, so every filter and every row a deep
  // page skips is read from an index alone.
  for (const [name, columns] of [
    ['At', ['AreaId', 'At', 'Id', 'DeviceId', 'Result', 'CardUserId']],
    ['CardUserId', ['AreaId', 'CardUserId', 'At', 'Id', 'DeviceId', 'Result']],
    ['CardNumber', ['AreaId', 'CardNumber', 'At', 'Id', 'DeviceId', 'Result']],
  ] as const) {
    await db.schema
      .createIndex(`DoorOpeningRecord_${name}`)
      .on('DoorOpeningRecord')
      .columns([...columns])
      .execute();
  }
  await db.schema
    .createTable('DoorOpeningRecordDay')
    .addColumn('AreaId', 'integer', (c) => c.notNull())
    .addColumn('Day', 'integer', (c) => c.notNull())
    .addColumn('DeviceId', 'integer', (c) => c.notNull())
    .addColumn('Result', 'integer', (c) => c.notNull())
    .addColumn('Count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('DoorOpeningRecordDay_pk', ['AreaId', 'Day', 'DeviceId', 'Result'])
    .execute();
  await db.schema
    .createIndex('DoorOpeningRecordDay_DeviceId')
    .on('DoorOpeningRecordDay')
    .column('DeviceId')
    .execute();
}

/** Holders' change and renewal history. */
async function createHolderHistoryTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('ChangeRecord'), ctx)
    .addColumn('AreaId', 'integer', area())
    .addColumn('CardUserId', 'integer', (c) => c.notNull().references('CardUser.Id').onDelete('restrict'))
    .addColumn('HolderName', 'text', (c) => c.notNull())
    .addColumn('ChangeType', 'integer', (c) => c.notNull())
    .addColumn('Detail', 'text')
    .addColumn('OperatorId', 'integer')
    .addColumn('OperatorName', 'text', (c) => c.notNull())
    .addColumn('At', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ChangeRecord_AreaId_At')
    .on('ChangeRecord')
    .columns(['AreaId', 'At'])
    .execute();
  await db.schema
    .createIndex('ChangeRecord_CardUserId')
    .on('ChangeRecord')
    .columns(['CardUserId', 'At'])
    .execute();

  await withId(db.schema.createTable('RenewalRecord'), ctx)
    .addColumn('AreaId', 'integer', area())
    .addColumn('CardUserId', 'integer', (c) => c.notNull().references('CardUser.Id').onDelete('restrict'))
    .addColumn('HolderName', 'text', (c) => c.notNull())
    .addColumn('OldValidTo', 'bigint', (c) => c.notNull())
    .addColumn('NewValidTo', 'bigint', (c) => c.notNull())
    .addColumn('Remark', 'text')
    .addColumn('OperatorId', 'integer')
    .addColumn('OperatorName', 'text', (c) => c.notNull())
    .addColumn('At', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('RenewalRecord_AreaId_At')
    .on('RenewalRecord')
    .columns(['AreaId', 'At'])
    .execute();
  await db.schema
    .createIndex('RenewalRecord_CardUserId')
    .on('RenewalRecord')
    .columns(['CardUserId', 'At'])
    .execute();
}

/** Failure declarations of devices and channels. */
async function createFailureDeclarationTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('FailureDeclarationRecord'), ctx)
    .addColumn('AreaId', 'integer', area())
    .addColumn('DeviceId', 'integer', (c) =>
      c.notNull().references('AccessControlDevice.Id').onDelete('restrict'),
    )
    .addColumn('DeviceName', 'text', (c) => c.notNull())
    .addColumn('ChannelId', 'integer')
    .addColumn('ChannelName', 'text')
    .addColumn('Description', 'text', (c) => c.notNull())
    .addColumn('Status', 'integer', (c) => c.notNull())
    .addColumn('HandlerId', 'integer', (c) => c.references('OperatorStaff.Id').onDelete('set null'))
    .addColumn('HandlerName', 'text')
    .addColumn('ReporterId', 'integer')
    .addColumn('ReporterName', 'text', (c) => c.notNull())
    .addColumn('History', 'text', (c) => c.notNull())
    .addColumn('ReportedAt', 'bigint', (c) => c.notNull())
    .addColumn('ResolvedAt', 'bigint')
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('FailureDeclarationRecord_AreaId')
    .on('FailureDeclarationRecord')
    .columns(['AreaId', 'ReportedAt'])
    .execute();
  await db.schema
    .createIndex('FailureDeclarationRecord_DeviceId')
    .on('FailureDeclarationRecord')
    .columns(['DeviceId', 'Status'])
    .execute();
}
