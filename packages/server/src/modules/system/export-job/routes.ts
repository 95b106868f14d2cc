import { z } from 'zod';
import { instant } from '../../../platform/filters.ts';
import { defineRoute } from '../../../platform/route.ts';
import { idParams, pageOf, paging } from '../../../platform/schemas.ts';
import {
  EXPORT_MANAGERS,
  createExportJob,
  deleteExportJob,
  downloadExport,
  getExportJob,
  listExportJobs,
} from './service.ts';

const tag = 'ExportJob';

const job = z.object({
  Id: z.number(),
  Resource: z.string(),
  Title: z.string(),
  Status: z.enum(['pending', 'running', 'done', 'failed', 'expired']),
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

export const exportRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/ExportJob',
    summary:
      'Export a list with its current filters (Query: the list query without paging); the file is written in the background',
    tag,
    access: 'authenticated',
    area: true,
    body: z.strictObject({
      Resource: z.string().trim().min(1).max(60),
      Query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    }),
    response: job,
    handler: ({ body }, ctx) => createExportJob(ctx, body.Resource, body.Query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/ExportJob',
    summary: "The area's export log, newest first",
    tag,
    access: EXPORT_MANAGERS,
    area: true,
    query: z.object({
      ...paging,
      Status: z.enum(['pending', 'running', 'done', 'failed', 'expired']).optional(),
      Keyword: z.string().trim().min(1).max(100).optional(),
      StartTime: instant.optional(),
      EndTime: instant.optional(),
    }),
    response: pageOf(job),
    handler: ({ query }, ctx) => listExportJobs(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/ExportJob/:Id',
    summary: 'One export job (its creator or an export manager)',
    tag,
    access: 'authenticated',
    area: true,
    params: idParams,
    response: job,
    handler: ({ params }, ctx) => getExportJob(ctx, params.Id),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/ExportJob/:Id/Download',
    summary: 'Download the .xlsx of a finished export (its creator or an export manager)',
    tag,
    access: 'authenticated',
    area: true,
    params: idParams,
    handler: ({ params }, ctx) => downloadExport(ctx, params.Id),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/ExportJob/:Id',
    summary: 'Delete an export job and its file',
    tag,
    access: EXPORT_MANAGERS,
    area: true,
    params: idParams,
    async handler({ params }, ctx) {
      await deleteExportJob(ctx, params.Id);
      return null;
    },
  }),
];
