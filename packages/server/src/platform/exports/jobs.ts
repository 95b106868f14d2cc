import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ExportJobTable } from '../tables.ts';

/**
 * An ExportJob row's whole life is written here, in platform/exports, its one writer: created pending (this
 * file), claimed, advanced, finished or failed by the run (run.ts), expired with its file by the sweep
 * (queue.ts), deleted here. The export-job service (modules/system/export-job) decides who may create, see and
 * delete a job and audits it; it calls these functions inside its own transaction.
 */

/** A new job, pending until an instance takes it; inside the transaction that audits it and queues it. */
export async function insertExportJob(
  trx: Kysely<Database>,
  job: Omit<Insertable<ExportJobTable>, 'Status'>,
): Promise<Selectable<ExportJobTable>> {
  return trx
    .insertInto('ExportJob')
    .values({ ...job, Status: 'pending' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a job; its file goes with the row (ON DELETE CASCADE). */
export async function deleteExportJobRow(trx: Kysely<Database>, jobId: number): Promise<void> {
  await trx.deleteFrom('ExportJob').where('Id', '=', jobId).execute();
}
