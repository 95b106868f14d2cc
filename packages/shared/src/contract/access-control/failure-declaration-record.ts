import { z } from 'zod';
import { faultReportStatus } from '../../enums/doors.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

export const failureHistoryEntry = z.object({
  At: z.string(),
  Status: z.number(),
  Note: z.string().nullable(),
  OperatorName: z.string(),
  HandlerName: z.string().nullable(),
});
export type FailureHistoryEntry = z.output<typeof failureHistoryEntry>;

/** A FailureDeclarationRecord row, as GET /api/FailureDeclarationRecord lists it and GET /api/FailureDeclarationRecord/{Id} returns it. */
export const failureDeclarationRecordItem = z.object({
  Id: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string().nullable(),
  Description: z.string(),
  Status: z.number(),
  HandlerId: z.number().nullable(),
  HandlerName: z.string().nullable(),
  ReporterName: z.string(),
  History: z.array(failureHistoryEntry),
  ReportedAt: z.string(),
  ResolvedAt: z.string().nullable(),
  UpdatedAt: z.string(),
});
export type FailureDeclarationRecordItem = z.output<typeof failureDeclarationRecordItem>;

/** Operator staff a fault report can be handed to (the handler choices of the fault screen). */
export const failureHandlerItem = z.object({
  Id: z.number(),
  Name: z.string(),
  StaffType: z.number(),
  Phone: z.string().nullable(),
  Remark: z.string().nullable(),
});
export type FailureHandlerItem = z.output<typeof failureHandlerItem>;

/** faultReportStatus values: a report moves forward only. */
export const FAULT = { open: 0, inProgress: 1, resolved: 2 } as const;

export const progressFaultBody = z.strictObject({
  Id: id,
  Status: enumNumber(faultReportStatus),
  Note: z.string().trim().max(500).nullable().optional(),
  HandlerId: id.nullable().optional(),
});
export type ProgressFaultInput = z.output<typeof progressFaultBody>;

const everyday = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ANY, area: true } as const;

/**
 * Fault reports (Admin or User): an operator reports a fault of a device or one of its doors; the report
 * moves forward only, open → in progress → resolved (a note is required to resolve), and is handed to one
 * of the area's operator staff (operator settings).
 */
export const FailureDeclarationRecordApi = {
  handlers: operation({
    ...everyday,
    method: 'GET',
    path: '/api/FailureDeclarationRecord/Handlers',
    summary: "The area's enabled operator staff (operator settings), who handle fault reports",
    reply: z.array(failureHandlerItem),
  }),
  ...resourceApi({
    name: 'FailureDeclarationRecord',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: failureDeclarationRecordItem,
    filters: {
      Status: filterSchema.oneOf(faultReportStatus),
      DeviceId: filterSchema.id(),
      HandlerId: filterSchema.id(),
      /** Description, device or channel name. */
      Keyword: filterSchema.text(),
    },
    sorts: ['ReportedAt', 'Status'],
    timeRange: true,
    create: z.strictObject({
      DeviceId: id,
      ChannelId: id.nullable().optional(),
      Description: z.string().trim().min(1).max(500),
      HandlerId: id.nullable().optional(),
    }),
  }),
  progress: operation({
    ...everyday,
    method: 'POST',
    path: '/api/FailureDeclarationRecord/Progress',
    summary:
      'Move a fault report forward (open → in progress → resolved; resolving needs a note), or note and hand over',
    body: progressFaultBody,
  }),
};
