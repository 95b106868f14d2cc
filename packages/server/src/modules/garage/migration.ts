import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- column helpers serve every table builder
type Builder = CreateTableBuilder<any, any>;

const area = (t: Builder) =>
  t.addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'));

const tariff = (t: Builder) =>
  t
    .addColumn('ChargeType', 'integer', (c) => c.notNull())
    .addColumn('TemporaryChargeType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('UnitPriceCents', 'integer', (c) => c.notNull())
    .addColumn('TimeUnit', 'integer')
    .addColumn('FreeMinutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('CapCents', 'integer');

const payment = (t: Builder) =>
  t
    .addColumn('OrderNo', 'text', (c) => c.notNull().unique())
    .addColumn('ChargeRuleId', 'integer', (c) => c.references('ChargeRule.Id').onDelete('restrict'))
    .addColumn('AmountCents', 'integer')
    .addColumn('PaymentState', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('PaidAt', 'bigint')
    .addColumn('RefundReason', 'text')
    .addColumn('CloseReason', 'text')
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull());

/** Tables and indexes of the garage module (docs/garage.md). */
export const garageMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    // In this order, as released: a table's foreign keys point at tables created before it.
    await createParkAreaAndRuleTables(db, ctx);
    await createChargerTables(db, ctx);
    await createChargingSessionTables(db, ctx);
    await createVehicleAndParkOrderTables(db, ctx);
    await createForcedOutageTable(db, ctx);
    await createMonthlyPassTable(db, ctx);
  },
};

/** Parking zones, the charge rules (tariffs) and which rules each zone offers. */
async function createParkAreaAndRuleTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    area(withId(db.schema.createTable('ParkArea'), ctx))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Capacity', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Location', 'text')
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('ParkArea_AreaId_Name', ['AreaId', 'Name']),
  ).execute();

  await withTimestamps(
    tariff(area(withId(db.schema.createTable('ChargeRule'), ctx)))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('ChargeRule_AreaId_Name', ['AreaId', 'Name']),
  ).execute();

  await db.schema
    .createTable('ParkAreaChargeRule')
    .addColumn('ParkAreaId', 'integer', (c) => c.notNull().references('ParkArea.Id').onDelete('cascade'))
    .addColumn('ChargeRuleId', 'integer', (c) => c.notNull().references('ChargeRule.Id').onDelete('cascade'))
    .addPrimaryKeyConstraint('ParkAreaChargeRule_pk', ['ParkAreaId', 'ChargeRuleId'])
    .execute();
  await db.schema
    .createIndex('ParkAreaChargeRule_ChargeRuleId')
    .on('ParkAreaChargeRule')
    .column('ChargeRuleId')
    .execute();
}

/** Charging hosts and their sockets. */
async function createChargerTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    area(withId(db.schema.createTable('ChargeHost'), ctx))
      .addColumn('ParkAreaId', 'integer', (c) => c.notNull().references('ParkArea.Id').onDelete('restrict'))
      .addColumn('SerialNumber', 'text', (c) => c.notNull().unique())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('PortCount', 'integer', (c) => c.notNull())
      .addColumn('ChargingSystemType', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Endpoint', 'text')
      .addColumn('Account', 'text')
      .addColumn('Password', 'text')
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('LastSeenAt', 'bigint')
      .addUniqueConstraint('ChargeHost_AreaId_Name', ['AreaId', 'Name']),
  ).execute();
  await db.schema.createIndex('ChargeHost_ParkAreaId').on('ChargeHost').column('ParkAreaId').execute();

  await withTimestamps(
    area(withId(db.schema.createTable('ChargeEquipment'), ctx))
      // A host's sockets go with it; a socket with sessions keeps both (ChargeRecord restricts).
      .addColumn('ChargeHostId', 'integer', (c) =>
        c.notNull().references('ChargeHost.Id').onDelete('cascade'),
      )
      .addColumn('PortNumber', 'integer', (c) => c.notNull())
      .addColumn('State', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('StateChangedAt', 'bigint', (c) => c.notNull())
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Remark', 'text')
      .addUniqueConstraint('ChargeEquipment_Host_Port', ['ChargeHostId', 'PortNumber']),
  ).execute();
  await db.schema
    .createIndex('ChargeEquipment_AreaId_State')
    .on('ChargeEquipment')
    .columns(['AreaId', 'State'])
    .execute();
}

/** Charging sessions and their orders. */
async function createChargingSessionTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await area(withId(db.schema.createTable('ChargeRecord'), ctx))
    .addColumn('ChargeEquipmentId', 'integer', (c) =>
      c.notNull().references('ChargeEquipment.Id').onDelete('restrict'),
    )
    .addColumn('CardNumber', 'text')
    .addColumn('StartAt', 'bigint', (c) => c.notNull())
    .addColumn('EndAt', 'bigint')
    .addColumn('EnergyWh', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('StopReason', 'integer')
    .execute();
  await db.schema
    .createIndex('ChargeRecord_AreaId_StartAt')
    .on('ChargeRecord')
    .columns(['AreaId', 'StartAt'])
    .execute();
  await db.schema
    .createIndex('ChargeRecord_Equipment_StartAt')
    .on('ChargeRecord')
    .columns(['ChargeEquipmentId', 'StartAt'])
    .execute();
  // One open session per socket, whatever the callers do: the database says no to a second.
  await sql`create unique index "ChargeRecord_open_per_socket" on "ChargeRecord" ("ChargeEquipmentId") where "EndAt" is null`.execute(
    db,
  );

  await payment(
    tariff(area(withId(db.schema.createTable('ChargeOrder'), ctx)))
      .addColumn('ChargeRecordId', 'integer', (c) =>
        c.notNull().unique().references('ChargeRecord.Id').onDelete('restrict'),
      )
      .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
      .addColumn('SettledAt', 'bigint'),
  ).execute();
  await db.schema
    .createIndex('ChargeOrder_AreaId_CreatedAt')
    .on('ChargeOrder')
    .columns(['AreaId', 'CreatedAt'])
    .execute();
  // No index on PaymentState or ChargeRuleId: lists filter them inside an area's time range, and a rule is
  // deleted rarely, while each index slows the 100,000-session demo seed (docs/performance.md).
}

/** Vehicles and parking orders. */
async function createVehicleAndParkOrderTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    area(withId(db.schema.createTable('Vehicle'), ctx))
      .addColumn('Plate', 'text', (c) => c.notNull())
      .addColumn('OwnerName', 'text')
      .addColumn('Phone', 'text')
      .addColumn('CardHolderId', 'integer')
      .addColumn('CardHolderName', 'text')
      .addColumn('CardId', 'integer')
      .addColumn('CardNumber', 'text')
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('Vehicle_AreaId_Plate', ['AreaId', 'Plate']),
  ).execute();

  await payment(
    tariff(area(withId(db.schema.createTable('ParkOrder'), ctx)))
      .addColumn('ParkAreaId', 'integer', (c) => c.notNull().references('ParkArea.Id').onDelete('restrict'))
      .addColumn('Plate', 'text')
      .addColumn('CardNumber', 'text')
      .addColumn('VehicleId', 'integer', (c) => c.references('Vehicle.Id').onDelete('set null'))
      .addColumn('EntryAt', 'bigint', (c) => c.notNull())
      .addColumn('ExitAt', 'bigint'),
  ).execute();
  await db.schema
    .createIndex('ParkOrder_AreaId_EntryAt')
    .on('ParkOrder')
    .columns(['AreaId', 'EntryAt'])
    .execute();
  await db.schema
    .createIndex('ParkOrder_ParkAreaId_ExitAt')
    .on('ParkOrder')
    .columns(['ParkAreaId', 'ExitAt'])
    .execute();
}

/** Operators' power-offs of sockets. */
async function createForcedOutageTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await area(withId(db.schema.createTable('ForcedOutageRecord'), ctx))
    .addColumn('ChargeEquipmentId', 'integer', (c) =>
      c.notNull().references('ChargeEquipment.Id').onDelete('restrict'),
    )
    .addColumn('ChargeRecordId', 'integer', (c) => c.references('ChargeRecord.Id').onDelete('restrict'))
    .addColumn('ChargeOrderId', 'integer', (c) => c.references('ChargeOrder.Id').onDelete('restrict'))
    .addColumn('Reason', 'text', (c) => c.notNull())
    .addColumn('Result', 'integer', (c) => c.notNull())
    .addColumn('UserId', 'integer', (c) => c.notNull())
    .addColumn('UserName', 'text', (c) => c.notNull())
    .addColumn('At', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ForcedOutageRecord_AreaId_At')
    .on('ForcedOutageRecord')
    .columns(['AreaId', 'At'])
    .execute();
  await db.schema
    .createIndex('ForcedOutageRecord_Equipment')
    .on('ForcedOutageRecord')
    .column('ChargeEquipmentId')
    .execute();
}

/** Vehicles' monthly (and yearly) passes, each renewal its own row. */
async function createMonthlyPassTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    area(withId(db.schema.createTable('MonthlyPass'), ctx))
      .addColumn('VehicleId', 'integer', (c) => c.notNull().references('Vehicle.Id').onDelete('restrict'))
      .addColumn('ChargeRuleId', 'integer', (c) =>
        c.notNull().references('ChargeRule.Id').onDelete('restrict'),
      )
      .addColumn('StartAt', 'bigint', (c) => c.notNull())
      .addColumn('EndAt', 'bigint', (c) => c.notNull())
      .addColumn('Units', 'integer', (c) => c.notNull())
      .addColumn('AmountCents', 'integer', (c) => c.notNull())
      .addColumn('RenewedFromId', 'integer', (c) => c.references('MonthlyPass.Id').onDelete('set null'))
      .addColumn('Remark', 'text')
      .addColumn('UserName', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('MonthlyPass_VehicleId_EndAt')
    .on('MonthlyPass')
    .columns(['VehicleId', 'EndAt'])
    .execute();
  await db.schema
    .createIndex('MonthlyPass_AreaId_EndAt')
    .on('MonthlyPass')
    .columns(['AreaId', 'EndAt'])
    .execute();
  await db.schema.createIndex('MonthlyPass_ChargeRuleId').on('MonthlyPass').column('ChargeRuleId').execute();
}
