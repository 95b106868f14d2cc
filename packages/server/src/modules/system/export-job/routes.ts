import { ExportJobApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import {
  createExportJob,
  deleteExportJob,
  downloadExport,
  exportRuntime,
  getExportJob,
  listExportJobs,
} from './service.ts';

export const exportJobRoutes = [
  route(ExportJobApi.create, ({ body }, ctx) =>
    createExportJob(ctx, exportRuntime(ctx.platform), body.Resource, body.Query, body.Title, body.Parts),
  ),
  route(ExportJobApi.list, ({ query }, ctx) => listExportJobs(ctx, query)),
  route(ExportJobApi.get, ({ params }, ctx) => getExportJob(ctx, params.Id)),
  route(ExportJobApi.download, ({ params }, ctx) => downloadExport(ctx, params.Id)),
  route(ExportJobApi.remove, async ({ params }, ctx) => {
    await deleteExportJob(ctx, params.Id);
    return null;
  }),
];
