import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
// The table this file reads and writes (joined to Database by declaration merging): part of every program
// that uses it.
import type {} from './tables.ts';

/**
 * Export files live in the database (table ExportFile, one row per finished job), not on a local disk: a file
 * made by one instance downloads from every other, nothing is half-written (the row is inserted in the same
 * transaction that marks the job done, or not at all), and no folder has to be shared or cleaned after a crash.
 * A file is at most 3,000 rows, a few hundred kilobytes.
 */

/** Stores a job's workbook; inside the transaction that marks the job done. */
export async function storeExportFile(
  trx: Kysely<Database>,
  jobId: number,
  content: Uint8Array,
): Promise<void> {
  await trx.insertInto('ExportFile').values({ JobId: jobId, Content: content }).execute();
}

/** A finished job's workbook, or null when it has none (expired, deleted, never finished). */
export async function readExportFile(db: Db, jobId: number): Promise<Buffer | null> {
  const row = await db.kysely
    .selectFrom('ExportFile')
    .select('Content')
    .where('JobId', '=', jobId)
    .executeTakeFirst();
  return row ? Buffer.from(row.Content) : null;
}
