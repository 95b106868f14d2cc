import { randomBytes } from 'node:crypto';
import {
  DEFAULT_LANG,
  EXPORT_MAX_ROWS,
  isLang,
  siteTimeZone,
  translate,
  type Params,
} from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { userActor, type AreaContext, type UserContext } from '../context.ts';
import type { JobRun } from '../jobs/queue.ts';
import { hasAnyCode, type Principal } from '../principal.ts';
import { storeExportFile } from './files.ts';
import { PART_KEY, PartChangedError, PartsUnsupportedError, partOf, readPart } from './parts.ts';
import { findExportable } from './registry.ts';
import { writeWorkbook } from './workbook.ts';

/** What an export job needs to run on any instance: no request, no caller in memory. */
export interface ExportDeps {
  db: Db;
  clock: Clock;
  /** The user's grants now (platform.sessions.principalOfUser): null when gone or disabled. */
  principalOfUser(userId: number): Promise<Principal | null>;
  retentionDays(): number;
  log: { error(obj: object, msg?: string): void };
}

/** The queue's payload for one ExportJob row. */
export interface ExportJobPayload {
  jobId: number;
}

/**
 * Runs the export of one ExportJob row: everything it needs is on the row (resource, query, language, area,
 * user), and the caller's grants are read again now. Idempotent, so the queue may run it more than once:
 *
 * - claim: `Status` pending or running → running, with a fresh claim name in `FileName`. A retry (its former
 *   instance died, or that attempt outlived its expiry) takes the job over the same way; a job already done,
 *   failed, expired or deleted is left alone.
 * - done: one transaction that moves the row from running *under this claim* to done and inserts its file.
 *   An attempt whose claim was taken over matches nothing and writes nothing, so one job gets one file and one
 *   "done", whatever ran twice.
 */
export async function runExportJob(deps: ExportDeps, jobId: number, run: JobRun): Promise<void> {
  const k = deps.db.kysely;
  const claim = `export-${jobId}-${randomBytes(8).toString('hex')}.xlsx`;
  const claimed = await k
    .updateTable('ExportJob')
    .set({ Status: 'running', Progress: 10, FileName: claim })
    .where('Id', '=', jobId)
    .where('Status', 'in', ['pending', 'running'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;
  const job = await k.selectFrom('ExportJob').selectAll().where('Id', '=', jobId).executeTakeFirst();
  if (!job) return;
  const lang = isLang(job.Lang) ? job.Lang : DEFAULT_LANG;
  const fail = async (key: string, params?: Params) => {
    await k
      .updateTable('ExportJob')
      .set({
        Status: 'failed',
        FileName: null,
        Error: translate(lang, key, params),
        FinishedAt: deps.clock.now(),
      })
      .where('Id', '=', jobId)
      .where('Status', '=', 'running')
      .where('FileName', '=', claim)
      .execute();
  };

  // The caller as they are now: a user disabled or stripped of the list's code since asking gets nothing.
  const user = job.UserId === null ? null : await deps.principalOfUser(job.UserId);
  if (!user) return fail('error.exportUserGone');
  const exportable = findExportable(job.Resource);
  if (!exportable) return fail('error.exportUnknown');
  if (!hasAnyCode(user, exportable.read) || !user.areaIds.has(job.AreaId))
    return fail('error.exportNotAllowed');

  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(job.Query) as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const part = partOf(stored);
  const asQuery = Object.fromEntries(
    Object.entries(stored)
      .filter(([key]) => key !== PART_KEY)
      .map(([key, value]) => [key, String(value)]),
  );
  const parsed = exportable.query.safeParse(asQuery);
  if (!parsed.success) return fail('error.validation');
  const q = parsed.data as Record<string, unknown>;
  const ctx: UserContext & AreaContext = {
    db: deps.db,
    clock: deps.clock,
    lang,
    actor: userActor(user, ''),
    areaId: job.AreaId,
    user,
  };

  try {
    const rows = part
      ? await readPart(exportable, ctx, q, part)
      : await exportable.rows(ctx, q, EXPORT_MAX_ROWS);
    await k
      .updateTable('ExportJob')
      .set({ Progress: 50 })
      .where('Id', '=', jobId)
      .where('FileName', '=', claim)
      .execute();
    const area = await k
      .selectFrom('AreaInfo')
      .select('Custom')
      .where('Id', '=', job.AreaId)
      .executeTakeFirst();
    const buffer = await writeWorkbook({
      title: job.Title,
      columns: exportable.columns,
      rows,
      lang,
      // The screen's zone: the area's own, else the default site zone (never the server's).
      timeZone: siteTimeZone(area?.Custom ?? null),
    });
    const finished = deps.clock.now();
    await k.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('ExportJob')
        .set({
          Status: 'done',
          Progress: 100,
          RowCount: rows.length,
          Size: buffer.length,
          FinishedAt: finished,
          ExpiresAt: finished + deps.retentionDays() * 86_400_000,
        })
        .where('Id', '=', jobId)
        .where('Status', '=', 'running')
        .where('FileName', '=', claim)
        .executeTakeFirst();
      // Taken over by another attempt (run.signal says this one outlived its expiry), or deleted meanwhile.
      if (Number(marked.numUpdatedRows) !== 1) return;
      await storeExportFile(trx, jobId, buffer);
    });
  } catch (error) {
    if (error instanceof PartChangedError || error instanceof PartsUnsupportedError)
      return fail('error.exportPartChanged');
    deps.log.error({ err: error, jobId, attempt: run.attempt }, 'export failed');
    await fail('error.internal');
  }
}

/**
 * The queue gave the job up: every attempt's instance died (or threw) and no retry is left. The row says so
 * in its language, unless an attempt finished it after all.
 */
export async function abandonExportJob(deps: ExportDeps, jobId: number, reason: string): Promise<void> {
  const k = deps.db.kysely;
  const job = await k.selectFrom('ExportJob').select('Lang').where('Id', '=', jobId).executeTakeFirst();
  if (!job) return;
  deps.log.error({ jobId, reason }, 'export abandoned');
  await k
    .updateTable('ExportJob')
    .set({
      Status: 'failed',
      FileName: null,
      Error: translate(isLang(job.Lang) ? job.Lang : DEFAULT_LANG, 'error.exportAbandoned'),
      FinishedAt: deps.clock.now(),
    })
    .where('Id', '=', jobId)
    .where('Status', 'in', ['pending', 'running'])
    .execute();
}
