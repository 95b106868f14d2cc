import { sql, type Kysely } from 'kysely';
import { withId, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/**
 * API keys (issue 29, platform/auth/api-keys.ts): one row per key, kept after it is revoked (the list and the
 * operation log still name it), with only the SHA-256 of its secret; the areas it operates in a link table
 * that follows an area's deletion. The creator is a plain id that outlives the user, with their name kept.
 */
export const apiKeysMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await withId(db.schema.createTable('ApiKey'), ctx)
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Prefix', 'text', (c) => c.notNull())
      .addColumn('KeyHash', 'text', (c) => c.notNull().unique())
      .addColumn('Codes', 'text', (c) => c.notNull())
      .addColumn('CreatedById', 'integer', (c) => c.references('AppUser.Id').onDelete('set null'))
      .addColumn('CreatedByName', 'text', (c) => c.notNull())
      .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
      .addColumn('ExpiresAt', 'bigint')
      .addColumn('LastUsedAt', 'bigint')
      .addColumn('LastUsedIp', 'text')
      .addColumn('RevokedAt', 'bigint')
      .addColumn('RevokedByName', 'text')
      .execute();
    await sql`create index "ApiKey_CreatedAt" on "ApiKey" ("CreatedAt", "Id")`.execute(db);
    await db.schema
      .createTable('ApiKeyArea')
      .addColumn('ApiKeyId', 'integer', (c) => c.notNull().references('ApiKey.Id').onDelete('cascade'))
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
      .addPrimaryKeyConstraint('ApiKeyArea_pk', ['ApiKeyId', 'AreaId'])
      .execute();
    await sql`create index "ApiKeyArea_AreaId" on "ApiKeyArea" ("AreaId")`.execute(db);
  },
};
