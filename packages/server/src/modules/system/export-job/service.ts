import {
  EXPORT_MAX_PARTS,
  EXPORT_MAX_ROWS,
  translate,
  EXPORT_MANAGERS,
  type ExportJobCreated,
  type ExportJobItem,
  type ExportJobQuery,
  type ExportTooManyData,
  type Page,
} from '@gatehouse/shared';
import type { Selectable } from 'kysely';
import type { ExportJobTable } from '../../../platform/tables.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, forbidden, notFound } from '../../../platform/errors.ts';
import { readExportFile } from '../../../platform/exports/files.ts';
import { deleteExportJobRow, insertExportJob } from '../../../platform/exports/jobs.ts';
import {
  PART_KEY,
  PartsUnsupportedError,
  parseExportQuery,
  planParts,
  type ExportPart,
} from '../../../platform/exports/parts.ts';
import { findExportable, type Exportable } from '../../../platform/exports/registry.ts';
import { contains } from '../../../platform/filters.ts';
import { isoOrNull } from '../../../platform/instants.ts';
import { hasAnyCode } from '../../../platform/principal.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import type { ExportQueue } from '../../../platform/exports/queue.ts';
import type { Platform } from '../../../platform/platform.ts';
import { FileReply } from '../../../platform/route.ts';
import { assertDaySpan } from '../../../platform/resource.ts';
import { fieldErrors } from '../../../platform/validation.ts';
import { customTimeZone } from '../../../platform/area-zone.ts';

/** Exports run for a caller in an area: the list's own read codes and area decide what it may export. */
type ExportContext = UserContext & AreaContext;

/** What export jobs need beyond the service context: the queue (which also stores and expires the files). */
export interface ExportRuntime {
  queue: ExportQueue;
}

export function exportRuntime(platform: Platform): ExportRuntime {
  return { queue: platform.exports };
}

function toItem(row: Selectable<ExportJobTable>): ExportJobItem {
  return {
    Id: row.Id,
    Resource: row.Resource,
    Title: row.Title,
    Status: row.Status,
    Progress: row.Progress,
    RowCount: row.RowCount,
    Size: row.Size,
    // A running job has chosen its name but has no file yet; an expired one no longer has it.
    FileName: row.Status === 'done' ? row.FileName : null,
    Error: row.Error,
    UserName: row.UserName,
    CreatedAt: isoOrNull(row.CreatedAt)!,
    FinishedAt: isoOrNull(row.FinishedAt),
    ExpiresAt: isoOrNull(row.ExpiresAt),
  };
}

/** How many parts of at most EXPORT_MAX_ROWS rows `count` rows take; null past EXPORT_MAX_PARTS. */
function partsFor(count: number): number | null {
  const parts = Math.ceil(count / EXPORT_MAX_ROWS);
  return parts <= EXPORT_MAX_PARTS ? parts : null;
}

/**
 * Starts an export of a list with the list's own filters. Refused at once (400, nothing recorded) when the
 * caller may not read that list, the filters are invalid, a record list's range is missing or longer than
 * the day-span limit, or more than EXPORT_MAX_ROWS rows match and the caller did not ask for parts (the
 * refusal's data says how many parts it would take). With `parts`, a view of more than EXPORT_MAX_ROWS rows
 * becomes one job per part of at most EXPORT_MAX_ROWS rows (platform/exports/parts.ts), titled "… (1 of 3)".
 * The jobs and their audit entries commit together with their queue jobs; the files are written in the
 * background by whichever instance takes each job.
 */
export async function createExportJob(
  ctx: ExportContext,
  runtime: ExportRuntime,
  resource: string,
  rawQuery: Record<string, unknown>,
  screenTitle?: string,
  parts = false,
): Promise<ExportJobCreated> {
  const { exportable, query } = checkedRequest(ctx, resource, rawQuery);
  const count = await exportable.count(ctx, query);
  const plan = count > EXPORT_MAX_ROWS ? await partsPlan(ctx, exportable, query, count, parts) : null;
  // Path separators and control characters would make a poor file name.
  const title =
    screenTitle?.replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ').trim() || translate(ctx.lang, exportable.titleKey);
  const pieces: JobPiece[] = plan
    ? plan.map((part) => ({
        title: translate(ctx.lang, 'admin.exportPart', { title, part: part.index, parts: part.count }),
        query: { ...rawQuery, [PART_KEY]: part },
        rows: part.rows,
      }))
    : [{ title, query: rawQuery, rows: count }];
  const items = (await insertJobs(ctx, runtime, exportable.name, pieces, rawQuery)).map(toItem);
  return plan ? { ...items[0]!, Parts: items } : items[0]!;
}

/** The export the caller may make, with its filters parsed and checked as the list checks them; else 400/403/404. */
function checkedRequest(ctx: ExportContext, resource: string, rawQuery: Record<string, unknown>) {
  const exportable = findExportable(resource);
  if (!exportable) throw new AppError(404, 'error.exportUnknown');
  if (!hasAnyCode(ctx.user, exportable.read)) throw forbidden();
  const { asQuery, parsed } = parseExportQuery(exportable, rawQuery);
  if (!parsed.success) {
    throw new AppError(400, 'error.validation', undefined, {
      Errors: fieldErrors(parsed.error, asQuery, ctx.lang),
    });
  }
  const query = parsed.data as Record<string, unknown>;
  for (const field of exportable.requiresRange ?? []) {
    if (query[field] === undefined) throw new AppError(400, 'error.exportNeedsRange');
  }
  exportable.checkQuery?.(query);
  return { exportable, query };
}

/**
 * The parts of a view of more than EXPORT_MAX_ROWS rows; refused (400, with how many parts it would take)
 * when the caller did not ask for parts, or when more than EXPORT_MAX_PARTS would.
 */
async function partsPlan(
  ctx: ExportContext,
  exportable: Exportable,
  query: Record<string, unknown>,
  count: number,
  parts: boolean,
): Promise<ExportPart[]> {
  const data: ExportTooManyData = { Count: count, Max: EXPORT_MAX_ROWS, Parts: partsFor(count) };
  if (!parts) throw new AppError(400, 'error.exportTooMany', { count, max: EXPORT_MAX_ROWS }, data);
  let plan: ExportPart[] | null;
  try {
    plan = data.Parts === null ? null : await planParts(exportable, ctx, query);
  } catch (error) {
    if (error instanceof PartsUnsupportedError) throw new AppError(400, 'error.exportUnknown');
    throw error;
  }
  if (!plan)
    throw new AppError(
      400,
      'error.exportTooManyParts',
      { count, max: EXPORT_MAX_ROWS, parts: EXPORT_MAX_PARTS, limit: EXPORT_MAX_PARTS * EXPORT_MAX_ROWS },
      { ...data, Parts: null },
    );
  return plan;
}

interface JobPiece {
  title: string;
  query: Record<string, unknown>;
  rows: number;
}

/**
 * The jobs, their audit entries and their queue jobs, committed together: whoever took data out of the
 * system is in the log, and no job exists that no instance will run.
 */
async function insertJobs(
  ctx: ExportContext,
  runtime: ExportRuntime,
  resource: string,
  pieces: JobPiece[],
  rawQuery: Record<string, unknown>,
): Promise<Selectable<ExportJobTable>[]> {
  const now = ctx.clock.now();
  const jobs = await ctx.db.kysely.transaction().execute(async (trx) => {
    const created: Selectable<ExportJobTable>[] = [];
    for (const piece of pieces) {
      const job = await insertExportJob(trx, {
        AreaId: ctx.areaId,
        UserId: ctx.user.userId,
        UserName: ctx.user.userName,
        Resource: resource,
        Title: piece.title,
        Lang: ctx.lang,
        Query: JSON.stringify(piece.query),
        CreatedAt: now,
      });
      await audit(
        ctx,
        {
          action: 'export',
          entity: 'ExportJob',
          entityId: job.Id,
          after: { Resource: job.Resource, Title: job.Title, Query: rawQuery, RowCount: piece.rows },
        },
        trx,
      );
      created.push(job);
    }
    await runtime.queue.enqueue(
      created.map((job) => job.Id),
      trx,
    );
    return created;
  });
  runtime.queue.wake();
  return jobs;
}

async function findJob(ctx: ExportContext, jobId: number) {
  const job = await ctx.db.kysely
    .selectFrom('ExportJob')
    .selectAll()
    .where('Id', '=', jobId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!job) throw notFound();
  // Export managers see every job of the area; anyone else only follows and downloads their own.
  if (job.UserId !== ctx.user.userId && !hasAnyCode(ctx.user, EXPORT_MANAGERS)) throw notFound();
  return job;
}

export async function getExportJob(ctx: ExportContext, jobId: number): Promise<ExportJobItem> {
  return toItem(await findJob(ctx, jobId));
}

/** The area's export log, newest first; its range follows the rules of every record list (61 days). */
export async function listExportJobs(ctx: ExportContext, q: ExportJobQuery): Promise<Page<ExportJobItem>> {
  assertDaySpan(q, { timeRange: { column: 'CreatedAt' } });
  let base = ctx.db.kysely.selectFrom('ExportJob').where('AreaId', '=', ctx.areaId);
  if (q.Status) base = base.where('Status', '=', q.Status);
  if (q.Keyword) {
    const keyword = q.Keyword;
    base = base.where((eb) =>
      eb.or([
        contains(eb, 'Title', keyword),
        contains(eb, 'UserName', keyword),
        contains(eb, 'Resource', keyword),
      ]),
    );
  }
  if (q.StartTime !== undefined) base = base.where('CreatedAt', '>=', q.StartTime);
  if (q.EndTime !== undefined) base = base.where('CreatedAt', '<=', q.EndTime);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('CreatedAt', 'desc')
      .orderBy('Id', 'desc')
      .limit(q.PageSize)
      .offset((q.PageIndex - 1) * q.PageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { Items: rows.map(toItem), Total: Number(total.n) };
}

/** The finished file, to its creator or an export manager of the area. */
export async function downloadExport(ctx: ExportContext, jobId: number): Promise<FileReply> {
  const job = await findJob(ctx, jobId);
  if (job.Status === 'expired') throw new AppError(409, 'error.exportExpired');
  if (job.Status !== 'done' || !job.FileName) throw new AppError(409, 'error.exportNotReady');
  // Stored in the database: whichever instance made it, every instance serves it.
  const body = await readExportFile(ctx.db, job.Id);
  if (!body) throw new AppError(409, 'error.exportExpired');
  await audit(ctx, {
    action: 'download',
    entity: 'ExportJob',
    entityId: job.Id,
    after: { Resource: job.Resource, Title: job.Title, RowCount: job.RowCount },
  });
  const area = await ctx.db.kysely
    .selectFrom('AreaInfo')
    .select('Custom')
    .where('Id', '=', job.AreaId)
    .executeTakeFirst();
  const range = filterDates(job.Query, customTimeZone(area?.Custom ?? null));
  const stamp = new Date(Number(job.CreatedAt))
    .toISOString()
    .slice(0, 19)
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return new FileReply(
    body,
    // Named as the operator knows it: the screen's title and the filter's dates (else when it was made).
    range ? `${job.Title} ${range}.xlsx` : `${job.Title}-${stamp}.xlsx`,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

/**
 * The dates of an export's time filter (`StartTime`, `EndTime`: ISO or epoch ms), as the site reads them:
 * "2026-11-01~2026-11-07" in the area's zone (the server's without one); null without a range.
 */
export function filterDates(queryJson: string | null, timeZone: string | undefined): string | null {
  let query: Record<string, unknown>;
  try {
    query = JSON.parse(queryJson ?? '{}') as Record<string, unknown>;
  } catch {
    return null;
  }
  const instant = (value: unknown) => {
    if (value === undefined || value === null || value === '') return null;
    const ms = /^\d+$/.test(String(value)) ? Number(value) : Date.parse(String(value));
    return Number.isFinite(ms) ? ms : null;
  };
  const start = instant(query.StartTime);
  const end = instant(query.EndTime);
  if (start === null || end === null) return null;
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return `${day.format(start)}~${day.format(end)}`;
}

/** Deletes a job and its file (export managers); the file goes with the row (ON DELETE CASCADE). */
export async function deleteExportJob(ctx: ExportContext, jobId: number): Promise<void> {
  const job = await findJob(ctx, jobId);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await deleteExportJobRow(trx, jobId);
    await audit(
      ctx,
      {
        action: 'delete',
        entity: 'ExportJob',
        entityId: jobId,
        before: { Resource: job.Resource, Title: job.Title },
      },
      trx,
    );
  });
}
