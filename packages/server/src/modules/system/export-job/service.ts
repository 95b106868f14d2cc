import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_MAX_ROWS, isLang, parseCustom, translate } from '@gatehouse/shared';
import type { Selectable } from 'kysely';
import type { ExportJobTable } from '../../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../../platform/errors.ts';
import { findExportable } from '../../../platform/exports/registry.ts';
import { writeWorkbook } from '../../../platform/exports/workbook.ts';
import { contains } from '../../../platform/filters.ts';
import { isoOrNull } from '../../../platform/instants.ts';
import { hasAnyCode } from '../../../platform/principal.ts';
import { FileReply, type AuthedContext } from '../../../platform/route.ts';
import type { Page } from '../../../platform/schemas.ts';
import { fieldErrors } from '../../../platform/validation.ts';

/** Who sees the export log and every job of the area; anyone may follow and download their own jobs. */
export const EXPORT_MANAGERS = ['SuperAdmin', 'Export'] as const;

export interface ExportJobItem {
  Id: number;
  Resource: string;
  Title: string;
  Status: ExportJobTable['Status'];
  Progress: number;
  RowCount: number;
  Size: number;
  FileName: string | null;
  Error: string | null;
  UserName: string;
  CreatedAt: string;
  FinishedAt: string | null;
  ExpiresAt: string | null;
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
    FileName: row.FileName,
    Error: row.Error,
    UserName: row.UserName,
    CreatedAt: isoOrNull(row.CreatedAt)!,
    FinishedAt: isoOrNull(row.FinishedAt),
    ExpiresAt: isoOrNull(row.ExpiresAt),
  };
}

/**
 * Starts an export of a list with the list's own filters. Refused at once (400, nothing recorded) when the
 * caller may not read that list, the filters are invalid, a record list's range is missing or longer than
 * the day-span limit, or more than EXPORT_MAX_ROWS rows match. The file is written in the background.
 */
export async function createExportJob(
  ctx: AuthedContext,
  resource: string,
  rawQuery: Record<string, unknown>,
): Promise<ExportJobItem> {
  const exportable = findExportable(resource);
  if (!exportable) throw new AppError(404, 'error.exportUnknown');
  if (!hasAnyCode(ctx.user, exportable.read)) throw forbidden();
  // The list reads its filters from a query string; read the export's filters the same way, whatever JSON
  // types the client used (true or 'true', 2 or '2').
  const asQuery = Object.fromEntries(Object.entries(rawQuery).map(([key, value]) => [key, String(value)]));
  const parsed = exportable.query.safeParse(asQuery);
  if (!parsed.success) {
    throw new AppError(400, 'error.validation', undefined, {
      Errors: fieldErrors(parsed.error, asQuery, ctx.lang),
    });
  }
  const q = parsed.data as Record<string, unknown>;
  for (const field of exportable.requiresRange ?? []) {
    if (q[field] === undefined) throw new AppError(400, 'error.exportNeedsRange');
  }
  exportable.checkQuery?.(q);
  const count = await exportable.count(ctx, q);
  if (count > EXPORT_MAX_ROWS)
    throw new AppError(400, 'error.exportTooMany', { count, max: EXPORT_MAX_ROWS });

  const now = ctx.clock.now();
  const job = await ctx.db.kysely
    .insertInto('ExportJob')
    .values({
      AreaId: ctx.areaId!,
      UserId: ctx.user.userId,
      UserName: ctx.user.userName,
      Resource: exportable.name,
      Title: translate(ctx.lang, exportable.titleKey),
      Lang: ctx.lang,
      Query: JSON.stringify(rawQuery),
      Status: 'pending',
      CreatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  ctx.platform.exports.enqueue(() => runExportJob(ctx, job.Id, q));
  return toItem(job);
}

async function runExportJob(ctx: AuthedContext, jobId: number, q: Record<string, unknown>): Promise<void> {
  const k = ctx.db.kysely;
  const job = await k.selectFrom('ExportJob').selectAll().where('Id', '=', jobId).executeTakeFirst();
  if (!job) return;
  const exportable = findExportable(job.Resource)!;
  const lang = isLang(job.Lang) ? job.Lang : ctx.lang;
  await k.updateTable('ExportJob').set({ Status: 'running', Progress: 10 }).where('Id', '=', jobId).execute();
  try {
    const rows = await exportable.rows({ ...ctx, lang }, q, EXPORT_MAX_ROWS);
    await k.updateTable('ExportJob').set({ Progress: 50 }).where('Id', '=', jobId).execute();
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
      timeZone: areaTimeZone(area?.Custom ?? null),
    });
    const dir = ctx.platform.config.exportDir;
    await fs.mkdir(dir, { recursive: true });
    const fileName = `export-${jobId}-${randomBytes(8).toString('hex')}.xlsx`;
    await fs.writeFile(path.join(dir, fileName), buffer);
    const finished = ctx.clock.now();
    await k
      .updateTable('ExportJob')
      .set({
        Status: 'done',
        Progress: 100,
        RowCount: rows.length,
        Size: buffer.length,
        FileName: fileName,
        FinishedAt: finished,
        ExpiresAt: finished + ctx.platform.settings.get('ExportRetentionDays') * 86_400_000,
      })
      .where('Id', '=', jobId)
      .execute();
  } catch (error) {
    ctx.platform.log.error({ err: error, jobId }, 'export failed');
    await k
      .updateTable('ExportJob')
      .set({ Status: 'failed', Error: translate(lang, 'error.internal'), FinishedAt: ctx.clock.now() })
      .where('Id', '=', jobId)
      .execute();
  }
}

/** The IANA time zone in an area's Custom JSON, when it names a real one. */
export function areaTimeZone(custom: string | null): string | undefined {
  const zone = parseCustom(custom)?.timezone;
  if (typeof zone !== 'string') return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

async function findJob(ctx: AuthedContext, jobId: number) {
  const job = await ctx.db.kysely
    .selectFrom('ExportJob')
    .selectAll()
    .where('Id', '=', jobId)
    .where('AreaId', '=', ctx.areaId!)
    .executeTakeFirst();
  if (!job) throw notFound();
  if (job.UserId !== ctx.user.userId && !hasAnyCode(ctx.user, EXPORT_MANAGERS)) throw notFound();
  return job;
}

export async function getExportJob(ctx: AuthedContext, jobId: number): Promise<ExportJobItem> {
  return toItem(await findJob(ctx, jobId));
}

export interface ExportJobQuery {
  PageIndex: number;
  PageSize: number;
  Status?: ExportJobTable['Status'] | undefined;
  Keyword?: string | undefined;
  StartTime?: number | undefined;
  EndTime?: number | undefined;
}

/** The area's export log, newest first. */
export async function listExportJobs(ctx: AuthedContext, q: ExportJobQuery): Promise<Page<ExportJobItem>> {
  let base = ctx.db.kysely.selectFrom('ExportJob').where('AreaId', '=', ctx.areaId!);
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
export async function downloadExport(ctx: AuthedContext, jobId: number): Promise<FileReply> {
  const job = await findJob(ctx, jobId);
  if (job.Status === 'expired') throw new AppError(409, 'error.exportExpired');
  if (job.Status !== 'done' || !job.FileName) throw new AppError(409, 'error.exportNotReady');
  const body = await fs.readFile(path.join(ctx.platform.config.exportDir, job.FileName)).catch(() => null);
  if (!body) throw new AppError(409, 'error.exportExpired');
  const stamp = new Date(Number(job.CreatedAt))
    .toISOString()
    .slice(0, 19)
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return new FileReply(
    body,
    `${job.Title}-${stamp}.xlsx`,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

/** Deletes a job and its file (export managers). */
export async function deleteExportJob(ctx: AuthedContext, jobId: number): Promise<void> {
  const job = await findJob(ctx, jobId);
  await ctx.db.kysely.deleteFrom('ExportJob').where('Id', '=', jobId).execute();
  if (job.FileName) await fs.rm(path.join(ctx.platform.config.exportDir, job.FileName), { force: true });
}
