import { sql, type Kysely } from 'kysely';
import type { MigrationContext, PortableMigration } from '../../db/migration.ts';

/**
 * Export files in the database (issue 19, background jobs): one row per finished export, its workbook bytes,
 * so a file made on one instance downloads from any other and no shared folder is needed. The row goes with
 * its job (ON DELETE CASCADE) and is deleted when the job expires. Blob on SQLite, bytea on PostgreSQL.
 */
export const exportFilesMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await db.schema
      .createTable('ExportFile')
      .addColumn('JobId', 'integer', (c) =>
        c.primaryKey().references('ExportJob.Id').onDelete('cascade').notNull(),
      )
      .addColumn('Content', ctx.dialect === 'postgres' ? sql`bytea` : 'blob', (c) => c.notNull())
      .execute();
  },
};
