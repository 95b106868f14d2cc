import type { Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/** Areas, users, roles, resources, their links, sessions and settings. */
export const platform: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    // In this order, as released: a table's foreign keys point at tables created before it.
    await createAreaAndUserTables(db, ctx);
    await createPermissionTables(db, ctx);
    await createUserAreaTable(db);
    await createSessionAndSettingTables(db);
  },
};

/** Areas and operator accounts. */
async function createAreaAndUserTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('AreaInfo'), ctx)
      .addColumn('Name', 'text', (c) => c.notNull().unique())
      .addColumn('Custom', 'text')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await withTimestamps(
    withId(db.schema.createTable('AppUser'), ctx)
      .addColumn('UserName', 'text', (c) => c.notNull().unique())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('PasswordHash', 'text', (c) => c.notNull())
      .addColumn('Avatar', 'text')
      .addColumn('Phone', 'text')
      .addColumn('Email', 'text')
      // Departments come later (0002); SQLite cannot add a foreign key afterwards, so the users service
      // checks the department's area, and deleting a department refuses while users are bound to it.
      .addColumn('DepartmentId', 'integer')
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('BuiltIn', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
}

/** Roles, the resources (menus and permissions) they grant, and who holds which role. */
async function createPermissionTables(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await withTimestamps(
    withId(db.schema.createTable('Role'), ctx)
      .addColumn('Code', 'text', (c) => c.notNull().unique())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Description', 'text')
      .addColumn('BuiltIn', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await withId(db.schema.createTable('Resource'), ctx)
    .addColumn('Code', 'text', (c) => c.notNull().unique())
    .addColumn('Name', 'text', (c) => c.notNull())
    .addColumn('ParentId', 'integer', (c) => c.references('Resource.Id').onDelete('cascade'))
    .addColumn('Type', 'text', (c) => c.notNull())
    .addColumn('Sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('BuiltIn', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('RoleResource')
    .addColumn('RoleId', 'integer', (c) => c.notNull().references('Role.Id').onDelete('cascade'))
    .addColumn('ResourceId', 'integer', (c) => c.notNull().references('Resource.Id').onDelete('cascade'))
    .addPrimaryKeyConstraint('RoleResource_pk', ['RoleId', 'ResourceId'])
    .execute();

  // Deleting a role that users still hold is refused (restrict), not silently unlinked.
  await db.schema
    .createTable('UserRole')
    .addColumn('UserId', 'integer', (c) => c.notNull().references('AppUser.Id').onDelete('cascade'))
    .addColumn('RoleId', 'integer', (c) => c.notNull().references('Role.Id').onDelete('restrict'))
    .addPrimaryKeyConstraint('UserRole_pk', ['UserId', 'RoleId'])
    .execute();
  await db.schema.createIndex('UserRole_RoleId').on('UserRole').column('RoleId').execute();
}

/** Which areas each operator may work in. */
async function createUserAreaTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('UserArea')
    .addColumn('UserId', 'integer', (c) => c.notNull().references('AppUser.Id').onDelete('cascade'))
    .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
    .addPrimaryKeyConstraint('UserArea_pk', ['UserId', 'AreaId'])
    .execute();
  await db.schema
    .createIndex('UserArea_AreaId_UserId')
    .on('UserArea')
    .columns(['AreaId', 'UserId'])
    .execute();
}

/** Sign-in sessions and the site settings. */
async function createSessionAndSettingTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('Session')
    .addColumn('TokenHash', 'text', (c) => c.primaryKey())
    .addColumn('UserId', 'integer', (c) => c.notNull().references('AppUser.Id').onDelete('cascade'))
    .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
    .addColumn('LastSeenAt', 'bigint', (c) => c.notNull())
    .addColumn('Ip', 'text')
    .addColumn('UserAgent', 'text')
    .execute();
  await db.schema.createIndex('Session_UserId').on('Session').column('UserId').execute();

  await db.schema
    .createTable('Setting')
    .addColumn('Key', 'text', (c) => c.primaryKey())
    .addColumn('Value', 'text', (c) => c.notNull())
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .execute();
}
