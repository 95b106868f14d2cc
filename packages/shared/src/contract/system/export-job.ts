import { z } from 'zod';
import { operation, peopleOnly } from '../operation.ts';
import { EXPORT_MANAGERS } from '../permissions.ts';
import { endAfterStart, idParams, instantText, pageOf, paging } from '../wire.ts';

/**
 * A view over EXPORT_MAX_ROWS rows may be exported in parts of at most EXPORT_MAX_ROWS rows each (one job and
 * one file per part), up to this many parts.
 */
export const EXPORT_MAX_PARTS = 10;

export const exportJobStatus = z.enum(['pending', 'running', 'done', 'failed', 'expired']);

/** A ExportJob row, as GET /api/ExportJob lists it and GET /api/ExportJob/{Id} returns it. */
export const exportJobItem = z.object({
  Id: z.number(),
  Resource: z.string(),
  Title: z.string(),
  Status: exportJobStatus,
  Progress: z.number(),
  RowCount: z.number(),
  Size: z.number(),
  FileName: z.string().nullable(),
  Error: z.string().nullable(),
  UserName: z.string(),
  CreatedAt: z.string(),
  FinishedAt: z.string().nullable(),
  ExpiresAt: z.string().nullable(),
});
export type ExportJobItem = z.output<typeof exportJobItem>;

/** The export log's query: the same range rules as every other record list (not reversed, at most 61 days). */
export const exportJobQuery = z
  .object({
    ...paging,
    Status: exportJobStatus.optional(),
    Keyword: z.string().trim().min(1).max(100).optional(),
    StartTime: instantText.optional(),
    EndTime: instantText.optional(),
  })
  .superRefine(endAfterStart('StartTime', 'EndTime'));
export type ExportJobQuery = z.output<typeof exportJobQuery>;

/** A new export: a list's name and its query without paging (what the list's URL would carry). */
export const exportJobCreate = z.strictObject({
  Resource: z.string().trim().min(1).max(60),
  Query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  // The screen's title as the menu shows it (the file is named after it); absent: the list's own title.
  Title: z.string().trim().min(1).max(60).optional(),
  // More rows than one file takes: export them in parts of at most EXPORT_MAX_ROWS rows (one job per part,
  // "title (1 of 3)"). Without it such an export is refused, the refusal telling how many parts it would take.
  Parts: z.boolean().optional(),
});

/**
 * What POST /api/ExportJob answers: the job (the first part's, for an export in parts) and, for an export in
 * parts, every part's job in order.
 */
export const exportJobCreated = exportJobItem.extend({
  Parts: z.array(exportJobItem).optional(),
});
export type ExportJobCreated = z.output<typeof exportJobCreated>;

/**
 * The `data` of the 400 refusing an export of more than EXPORT_MAX_ROWS rows: how many match, the limit per
 * file, and how many parts an export in parts would take (null when even that is more than EXPORT_MAX_PARTS).
 */
export const exportTooManyData = z.object({
  Count: z.number(),
  Max: z.number(),
  Parts: z.number().nullable(),
});
export type ExportTooManyData = z.output<typeof exportTooManyData>;

const TAG = 'ExportJob';

export const ExportJobApi = peopleOnly({
  name: 'ExportJob',
  create: operation({
    method: 'POST',
    path: '/api/ExportJob',
    summary:
      'Export a list with its current filters (Query: the list query without paging); the file is written in the background. Over 3,000 rows: refused (400, data { Count, Max, Parts }) unless Parts is true, then one job per part of at most 3,000 rows',
    tag: TAG,
    access: 'authenticated',
    area: true,
    body: exportJobCreate,
    reply: exportJobCreated,
  }),
  list: operation({
    method: 'GET',
    path: '/api/ExportJob',
    summary: "The area's export log, newest first",
    tag: TAG,
    access: EXPORT_MANAGERS,
    area: true,
    query: exportJobQuery,
    reply: pageOf(exportJobItem),
  }),
  get: operation({
    method: 'GET',
    path: '/api/ExportJob/:Id',
    summary: 'One export job (its creator or an export manager)',
    tag: TAG,
    access: 'authenticated',
    area: true,
    params: idParams,
    reply: exportJobItem,
  }),
  download: operation({
    method: 'GET',
    path: '/api/ExportJob/:Id/Download',
    summary: 'Download the .xlsx of a finished export (its creator or an export manager)',
    tag: TAG,
    access: 'authenticated',
    area: true,
    params: idParams,
    file: true,
  }),
  remove: operation({
    method: 'DELETE',
    path: '/api/ExportJob/:Id',
    summary: 'Delete an export job and its file',
    tag: TAG,
    access: EXPORT_MANAGERS,
    area: true,
    params: idParams,
  }),
});
