import { EXPORT_MANAGERS, exportJobItem } from '@gatehouse/shared';
import { z } from 'zod';
import { instant } from '../../../platform/filters.ts';
import { defineRoute } from '../../../platform/route.ts';
import { assertDaySpan } from '../../../platform/resource.ts';
import { endAfterStart, idParams, pageOf, paging } from '../../../platform/schemas.ts';
import {
  createExportJob,
  deleteExportJob,
  downloadExport,
  exportRuntime,
  getExportJob,
  listExportJobs,
} from './service.ts';

const tag = 'ExportJob';

export const exportJobRoutes = [
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
      // The screen's title as the menu shows it (the file is named after it); absent: the list's own title.
      Title: z.string().trim().min(1).max(60).optional(),
    }),
    response: exportJobItem,
    handler: ({ body }, ctx) =>
      createExportJob(ctx, exportRuntime(ctx.platform), body.Resource, body.Query, body.Title),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/ExportJob',
    summary: "The area's export log, newest first",
    tag,
    access: EXPORT_MANAGERS,
    area: true,
    query: z
      .object({
        ...paging,
        Status: z.enum(['pending', 'running', 'done', 'failed', 'expired']).optional(),
        Keyword: z.string().trim().min(1).max(100).optional(),
        StartTime: instant.optional(),
        EndTime: instant.optional(),
      })
      // The same range rules as every other record list: not reversed, at most 61 days.
      .superRefine(endAfterStart('StartTime', 'EndTime')),
    response: pageOf(exportJobItem),
    handler: ({ query }, ctx) => {
      assertDaySpan(query, { timeRange: { column: 'CreatedAt' } });
      return listExportJobs(ctx, query);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/ExportJob/:Id',
    summary: 'One export job (its creator or an export manager)',
    tag,
    access: 'authenticated',
    area: true,
    params: idParams,
    response: exportJobItem,
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
    handler: ({ params }, ctx) => downloadExport(ctx, exportRuntime(ctx.platform), params.Id),
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
      await deleteExportJob(ctx, exportRuntime(ctx.platform), params.Id);
      return null;
    },
  }),
];
