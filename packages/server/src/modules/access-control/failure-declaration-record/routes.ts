import { FailureDeclarationRecordApi, faultReportStatus } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { enumColumn } from '../common.ts';
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
      columns: [
        { key: 'ReportedAt', labelKey: 'accessControl.field.ReportedAt', kind: 'instant' },
        { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
        { key: 'ChannelName', labelKey: 'accessControl.field.ChannelName', width: 18 },
        { key: 'Description', labelKey: 'accessControl.field.Description', width: 40 },
        enumColumn('Status', 'FaultStatus', faultReportStatus),
        { key: 'HandlerName', labelKey: 'accessControl.field.Handler' },
        { key: 'ReporterName', labelKey: 'accessControl.field.Reporter' },
        { key: 'ResolvedAt', labelKey: 'accessControl.field.ResolvedAt', kind: 'instant' },
      ],
    },
  }),
  route(api.progress, ({ body }, ctx) => progressFault(ctx, body)),
];
