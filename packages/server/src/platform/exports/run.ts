import { randomBytes } from 'node:crypto';
import {
  DEFAULT_LANG,
  EXPORT_MAX_ROWS,
  isLang,
  siteTimeZone,
  translate,
  type Lang,
  type Params,
} from '@gatehouse/shared';
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ExportJobTable } from '../tables.ts';
import type { Clock } from '../clock.ts';
import { userActor, type AreaContext, type UserContext } from '../context.ts';
import type { JobRun } from '../jobs/queue.ts';
import { hasAnyCode, type Principal } from '../principal.ts';
import { storeExportFile } from './files.ts';
import { PartChangedError, PartsUnsupportedError, parseExportQuery, partOf, readPart } from './parts.ts';
import { findExportable, type Exportable } from './registry.ts';
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
  const claim = `export-${jobId}-${randomBytes(8).toString('hex')}.xlsx`;
  const job = await claimJob(deps, jobId, claim);
  if (!job) return;
  const lang = isLang(job.Lang) ? job.Lang : DEFAULT_LANG;
  const fail = (key: string, params?: Params) =>
    finishUnderClaim(deps.db.kysely, jobId, claim, {
      Status: 'failed',
      FileName: null,
      Error: translate(lang, key, params),
      FinishedAt: deps.clock.now(),
    });
  const request = await requestOf(deps, job, lang);
  if (typeof request === 'string') return void (await fail(request));
  try {
    const { rows, buffer } = await buildFile(deps, job, claim, request, lang);
    const finished = deps.clock.now();
    await deps.db.kysely.transaction().execute(async (trx) => {
      const marked = await finishUnderClaim(trx, jobId, claim, {
        Status: 'done',
        Progress: 100,
        RowCount: rows.length,
        Size: buffer.length,
        FinishedAt: finished,
        ExpiresAt: finished + deps.retentionDays() * 86_400_000,
      });
      // Taken over by another attempt (run.signal says this one outlived its expiry), or deleted meanwhile.
      if (marked) await storeExportFile(trx, jobId, buffer);
    });
  } catch (error) {
    if (error instanceof PartChangedError || error instanceof PartsUnsupportedError)
      return void (await fail('error.exportPartChanged'));
    deps.log.error({ err: error, jobId, attempt: run.attempt }, 'export failed');
    await fail('error.internal');
  }
}

type JobRow = Selectable<ExportJobTable>;

/** Claims the job (pending or running → running under `claim`) and answers its row; null when not ours. */
async function claimJob(deps: ExportDeps, jobId: number, claim: string): Promise<JobRow | undefined> {
  const k = deps.db.kysely;
  const claimed = await k
    .updateTable('ExportJob')
    .set({ Status: 'running', Progress: 10, FileName: claim })
    .where('Id', '=', jobId)
    .where('Status', 'in', ['pending', 'running'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return undefined;
  return k.selectFrom('ExportJob').selectAll().where('Id', '=', jobId).executeTakeFirst();
}

/** Ends the job as `values` say, only while it is running under this claim; whether it did. */
async function finishUnderClaim(
  k: Kysely<Database>,
  jobId: number,
  claim: string,
  values: Updateable<ExportJobTable>,
): Promise<boolean> {
  const marked = await k
    .updateTable('ExportJob')
    .set(values)
    .where('Id', '=', jobId)
    .where('Status', '=', 'running')
    .where('FileName', '=', claim)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}

interface ExportRequest {
  exportable: Exportable;
  ctx: UserContext & AreaContext;
  query: Record<string, unknown>;
  part: ReturnType<typeof partOf>;
}

/**
 * The export as its caller asked it, checked again now (a user disabled or stripped of the list's code since
 * asking gets nothing), or the catalogue key of why not.
 */
async function requestOf(deps: ExportDeps, job: JobRow, lang: Lang): Promise<ExportRequest | string> {
  const user = job.UserId === null ? null : await deps.principalOfUser(job.UserId);
  if (!user) return 'error.exportUserGone';
  const exportable = findExportable(job.Resource);
  if (!exportable) return 'error.exportUnknown';
  if (!hasAnyCode(user, exportable.read) || !user.areaIds.has(job.AreaId)) return 'error.exportNotAllowed';
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(job.Query) as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const { parsed } = parseExportQuery(exportable, stored);
  if (!parsed.success) return 'error.validation';
  const ctx = { db: deps.db, clock: deps.clock, lang, actor: userActor(user, ''), areaId: job.AreaId, user };
  return { exportable, ctx, query: parsed.data as Record<string, unknown>, part: partOf(stored) };
}

/** Reads the rows (all, or the part's) and writes them as a workbook in the area's time zone. */
async function buildFile(deps: ExportDeps, job: JobRow, claim: string, request: ExportRequest, lang: Lang) {
  const { exportable, ctx, query, part } = request;
  const k = deps.db.kysely;
  const rows = part
    ? await readPart(exportable, ctx, query, part)
    : await exportable.rows(ctx, query, EXPORT_MAX_ROWS);
  await k
    .updateTable('ExportJob')
    .set({ Progress: 50 })
    .where('Id', '=', job.Id)
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
  return { rows, buffer };
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
