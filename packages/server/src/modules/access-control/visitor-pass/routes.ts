import { VisitorLogApi, VisitorPassApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { standardOperations } from '../common.ts';
import {
  enrichPasses,
  passExportColumns,
  type PassRow,
  passQuery,
  passSorts,
  passWhere,
  publicPass,
  toPassItem,
} from './items.ts';
import { toVisitorLogItem, visitorLogExportColumns, visitorLogQuery, visitorLogWhere } from './log.ts';
import { issuePass, passQr, revokePass } from './service.ts';

/**
 * Visitor passes and their log (AccessControl/Admin or User; docs/access-control.md, "Visitor passes"): the
 * list, detail and export from the resource helper; issuing, revoking and the QR image are services of their own.
 */
export const visitorPassRoutes = [
  ...implementResource(standardOperations(VisitorPassApi), {
    table: 'VisitorPass',
    query: passQuery,
    toItem: toPassItem,
    enrich: async (ctx, items) => (await enrichPasses(ctx, items as PassRow[])).map(publicPass),
    where: passWhere,
    sorts: passSorts,
    defaultOrder: 'desc',
    export: { titleKey: 'accessControl.title.visitorPass', columns: passExportColumns },
  }),
  route(VisitorPassApi.create, ({ body }, ctx) => issuePass(ctx, body)),
  route(VisitorPassApi.revoke, ({ body }, ctx) => revokePass(ctx, body.Id)),
  route(VisitorPassApi.qr, ({ query }, ctx) => passQr(ctx, query.Id)),
  ...implementResource(VisitorLogApi, {
    table: 'DoorOpeningRecord',
    query: visitorLogQuery,
    toItem: toVisitorLogItem,
    where: visitorLogWhere,
    sorts: { At: 'DoorOpeningRecord.At' },
    defaultOrder: 'desc',
    timeRange: { column: 'DoorOpeningRecord.At', requiredForExport: true, retention: 'SwipeRetentionMonths' },
    export: { titleKey: 'accessControl.title.visitorLog', columns: visitorLogExportColumns },
  }),
];
