import { FailureDeclarationRecordApi, faultReportStatus } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { faultHandlers, faultQuery, newFault, progressFault, toFaultItem } from './service.ts';

const api = FailureDeclarationRecordApi;

/** Fault reports (Admin or User): reported, handed over and moved forward to resolved. */
export const failureDeclarationRecordRoutes = [
  route(api.handlers, (_input, ctx) => faultHandlers(ctx)),
  ...implementResource(api, {
    table: 'FailureDeclarationRecord',
    query: faultQuery,
    toItem: toFaultItem,
    where: {
      Status: match.equals('FailureDeclarationRecord.Status'),
      DeviceId: match.equals('FailureDeclarationRecord.DeviceId'),
      HandlerId: match.equals('FailureDeclarationRecord.HandlerId'),
      Keyword: match.keyword([
        'FailureDeclarationRecord.Description',
        'FailureDeclarationRecord.DeviceName',
        'FailureDeclarationRecord.ChannelName',
      ]),
    },
    sorts: { ReportedAt: 'FailureDeclarationRecord.ReportedAt', Status: 'FailureDeclarationRecord.Status' },
    defaultOrder: 'desc',
    timeRange: { column: 'FailureDeclarationRecord.ReportedAt', requiredForExport: true },
    create: { values: newFault },
    export: {
      titleKey: 'accessControl.title.failureDeclarationRecords',
      columns: exportColumns('accessControl.field', {
        ReportedAt: 'instant',
        DeviceName: 20,
        ChannelName: 18,
        Description: 40,
        Status: { header: 'FaultStatus', enum: faultReportStatus },
        HandlerName: { header: 'Handler' },
        ReporterName: { header: 'Reporter' },
        ResolvedAt: 'instant',
      }),
    },
  }),
  route(api.progress, ({ body }, ctx) => progressFault(ctx, body)),
];
