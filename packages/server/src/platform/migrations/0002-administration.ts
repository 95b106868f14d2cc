import { sql, type Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/** Organisation (departments, people groups and types), operator staff, the audit log and export jobs. */
export const administration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    // In this order, as released: a table's foreign keys point at tables created before it.
    await createDepartmentTable(db, ctx);
    await createPeopleGroupAndTypeTables(db, ctx);
    await createOperatorStaffTable(db, ctx);
    await createAuditLogTable(db, ctx);
    await createExportJobTable(db, ctx);
  },
};

/** Departments: a tree per area, sibling names unique. */
async function createDepartmentTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('Department'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      // A parent with children cannot be deleted (the service says so first; the key is the last word).
      .addColumn('ParentId', 'integer', (c) => c.references('Department.Id').onDelete('restrict'))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Sort', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema
    .createIndex('Department_AreaId_ParentId')
    .on('Department')
    .columns(['AreaId', 'ParentId'])
    .execute();
  // Sibling names are unique; COALESCE makes root departments (no parent) collide too.
  await sql`create unique index "Department_sibling_name" on "Department" ("AreaId", coalesce("ParentId", 0), "Name")`.execute(
    db,
  );
}

/** People groups and people types: two flat per-area lists of the same shape. */
async function createPeopleGroupAndTypeTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  for (const table of ['PeopleGroup', 'PeopleType'] as const) {
    await withTimestamps(
      withId(db.schema.createTable(table), ctx)
        .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
        .addColumn('Name', 'text', (c) => c.notNull())
        .addColumn('Remark', 'text')
        .addColumn('Sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint(`${table}_AreaId_Name`, ['AreaId', 'Name']),
    ).execute();
    await db.schema.createIndex(`${table}_AreaId_Sort`).on(table).columns(['AreaId', 'Sort']).execute();
  }
}

/** Operator staff, per area (a failure declaration names its handler among them). */
async function createOperatorStaffTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('OperatorStaff'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('StaffType', 'integer', (c) => c.notNull())
      .addColumn('Phone', 'text')
      .addColumn('Email', 'text')
      .addColumn('WechatOpenId', 'text')
      .addColumn('Remark', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  // (AreaId, Id): an area's rows in the default list order, so a page reads 20 index entries, not a sort.
  await db.schema
    .createIndex('OperatorStaff_AreaId_Id')
    .on('OperatorStaff')
    .columns(['AreaId', 'Id'])
    .execute();
}

/** The audit log of operators' changes. */
async function createAuditLogTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  // Audit rows outlive their users and areas: plain ids and names, no foreign keys.
  await withId(db.schema.createTable('AuditLog'), ctx)
    .addColumn('At', 'bigint', (c) => c.notNull())
    .addColumn('UserId', 'integer')
    .addColumn('UserName', 'text')
    .addColumn('AreaId', 'integer')
    .addColumn('Action', 'text', (c) => c.notNull())
    .addColumn('Entity', 'text', (c) => c.notNull())
    .addColumn('EntityId', 'text')
    .addColumn('Before', 'text')
    .addColumn('After', 'text')
    .addColumn('Ip', 'text')
    .execute();
  await db.schema.createIndex('AuditLog_At').on('AuditLog').column('At').execute();
  await db.schema.createIndex('AuditLog_Entity').on('AuditLog').columns(['Entity', 'EntityId']).execute();
  await db.schema.createIndex('AuditLog_UserId_At').on('AuditLog').columns(['UserId', 'At']).execute();
}

/** Export jobs and their progress. */
async function createExportJobTable(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('ExportJob'), ctx)
    .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
    .addColumn('UserId', 'integer', (c) => c.references('AppUser.Id').onDelete('set null'))
    .addColumn('UserName', 'text', (c) => c.notNull())
    .addColumn('Resource', 'text', (c) => c.notNull())
    .addColumn('Title', 'text', (c) => c.notNull())
    .addColumn('Lang', 'text', (c) => c.notNull())
    .addColumn('Query', 'text', (c) => c.notNull())
    .addColumn('Status', 'text', (c) => c.notNull())
    .addColumn('Progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('RowCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('FileName', 'text')
    .addColumn('Error', 'text')
    .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
    .addColumn('FinishedAt', 'bigint')
    .addColumn('ExpiresAt', 'bigint')
    .execute();
  await db.schema
    .createIndex('ExportJob_AreaId_CreatedAt')
    .on('ExportJob')
    .columns(['AreaId', 'CreatedAt'])
    .execute();
}
