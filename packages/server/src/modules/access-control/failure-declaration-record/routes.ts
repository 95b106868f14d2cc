import type { failureHistoryEntry } from '@gatehouse/shared';
import {
  enumLabel,
  faultReportStatus,
  ACCESS_CONTROL_ANY,
  failureDeclarationRecordItem,
  failureHandlerItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import { actorDisplayName, actorUserId, type AreaContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { enumNumber, id } from '../../../platform/schemas.ts';
import { TAG, type Trx } from '../common.ts';

/**
 * Fault reports (Admin or User): an operator reports a fault of a device or one of its doors; the report
 * moves forward only, open → in progress → resolved (a note is required to resolve), and is handed to one
 * of the area's operator staff (operator settings).
 */
export const FAULT = { open: 0, inProgress: 1, resolved: 2 } as const;

type HistoryEntry = z.infer<typeof failureHistoryEntry>;

type Item = z.infer<typeof failureDeclarationRecordItem>;

/** An enabled operator staff member of the area. */
async function handlerOf(trx: Trx, areaId: number, handlerId: number) {
  const staff = await trx
    .selectFrom('OperatorStaff')
    .select(['Id', 'Name'])
    .where('Id', '=', handlerId)
    .where('AreaId', '=', areaId)
    .where('Disabled', '=', 0)
    .executeTakeFirst();
  if (!staff) throw fieldError('HandlerId', 'accessControl.error.handlerMissing');
  return staff;
}

const operatorName = (ctx: AreaContext) => actorDisplayName(ctx.actor);

export async function progressFault(
  ctx: AreaContext,
  input: {
    Id: number;
    Status: number;
    Note?: string | null | undefined;
    HandlerId?: number | null | undefined;
  },
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const report = await trx
      .selectFrom('FailureDeclarationRecord')
      .selectAll()
      .where('Id', '=', input.Id)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!report) throw notFound();
    if (report.Status === FAULT.resolved) throw new AppError(409, 'accessControl.error.faultResolved');
    if (input.Status < report.Status) throw new AppError(409, 'accessControl.error.faultBackwards');
    const note = input.Note?.trim() || null;
    if (input.Status === FAULT.resolved && !note)
      throw fieldError('Note', 'accessControl.error.resolutionNoteRequired');
    let handler = { HandlerId: report.HandlerId, HandlerName: report.HandlerName };
    if (input.HandlerId !== undefined) {
      handler =
        input.HandlerId === null
          ? { HandlerId: null, HandlerName: null }
          : await handlerOf(trx, report.AreaId, input.HandlerId).then((s) => ({
              HandlerId: s.Id,
              HandlerName: s.Name,
            }));
    }
    const history = JSON.parse(report.History) as HistoryEntry[];
    history.push({
      At: new Date(now).toISOString(),
      Status: input.Status,
      Note: note,
      OperatorName: operatorName(ctx),
      HandlerName: handler.HandlerName,
    });
    const after = {
      Status: input.Status,
      ...handler,
      History: JSON.stringify(history),
      ResolvedAt: input.Status === FAULT.resolved ? now : null,
      UpdatedAt: now,
    };
    await trx.updateTable('FailureDeclarationRecord').set(after).where('Id', '=', input.Id).execute();
    await audit(
      ctx,
      { action: 'progress', entity: 'FailureDeclarationRecord', entityId: input.Id, before: report, after },
      trx,
    );
  });
}

const faultResource = defineResource({
  name: 'FailureDeclarationRecord',
  table: 'FailureDeclarationRecord',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: failureDeclarationRecordItem,
  query: (db) =>
    db
      .selectFrom('FailureDeclarationRecord')
      .select([
        'Id',
        'DeviceId',
        'DeviceName',
        'ChannelId',
        'ChannelName',
        'Description',
        'Status',
        'HandlerId',
        'HandlerName',
        'ReporterName',
        'History',
        'ReportedAt',
        'ResolvedAt',
        'UpdatedAt',
      ]),
  toItem: ({ History, ...row }) => ({
    ...rowMapper<Item>({ instants: ['ReportedAt', 'ResolvedAt', 'UpdatedAt'] })(row),
    History: JSON.parse(History as string) as HistoryEntry[],
  }),
  filters: {
    Status: filter.oneOf('FailureDeclarationRecord.Status', faultReportStatus),
    DeviceId: filter.id('FailureDeclarationRecord.DeviceId'),
    HandlerId: filter.id('FailureDeclarationRecord.HandlerId'),
    Keyword: filter.keyword([
      'FailureDeclarationRecord.Description',
      'FailureDeclarationRecord.DeviceName',
      'FailureDeclarationRecord.ChannelName',
    ]),
  },
  sorts: { ReportedAt: 'FailureDeclarationRecord.ReportedAt', Status: 'FailureDeclarationRecord.Status' },
  defaultOrder: 'desc',
  timeRange: { column: 'FailureDeclarationRecord.ReportedAt', requiredForExport: true },
  create: {
    body: z.strictObject({
      DeviceId: id,
      ChannelId: id.nullable().optional(),
      Description: z.string().trim().min(1).max(500),
      HandlerId: id.nullable().optional(),
    }),
    /** A new report is open; names are copied so the report reads the same after devices change. */
    async values(input, ctx, trx) {
      const device = await trx
        .selectFrom('AccessControlDevice')
        .select(['Id', 'Name'])
        .where('Id', '=', input.DeviceId)
        .where('AreaId', '=', ctx.areaId)
        .executeTakeFirst();
      if (!device) throw fieldError('DeviceId', 'accessControl.error.deviceMissing');
      let channel: { Id: number; Name: string } | undefined;
      if (input.ChannelId) {
        channel = await trx
          .selectFrom('AccessControlChannel')
          .select(['Id', 'Name'])
          .where('Id', '=', input.ChannelId)
          .where('DeviceId', '=', device.Id)
          .executeTakeFirst();
        if (!channel) throw fieldError('ChannelId', 'accessControl.error.channelMissing');
      }
      const handler = input.HandlerId ? await handlerOf(trx, ctx.areaId, input.HandlerId) : undefined;
      const now = ctx.clock.now();
      const history: HistoryEntry[] = [
        {
          At: new Date(now).toISOString(),
          Status: FAULT.open,
          Note: input.Description,
          OperatorName: operatorName(ctx),
          HandlerName: handler?.Name ?? null,
        },
      ];
      return {
        DeviceId: device.Id,
        DeviceName: device.Name,
        ChannelId: channel?.Id ?? null,
        ChannelName: channel?.Name ?? null,
        Description: input.Description,
        Status: FAULT.open,
        HandlerId: handler?.Id ?? null,
        HandlerName: handler?.Name ?? null,
        ReporterId: actorUserId(ctx.actor),
        ReporterName: operatorName(ctx),
        History: JSON.stringify(history),
        ReportedAt: now,
        ResolvedAt: null,
        UpdatedAt: now,
      };
    },
  },
  export: {
    titleKey: 'accessControl.title.failureDeclarationRecords',
    columns: [
      { key: 'ReportedAt', labelKey: 'accessControl.field.ReportedAt', kind: 'instant' },
      { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
      { key: 'ChannelName', labelKey: 'accessControl.field.ChannelName', width: 18 },
      { key: 'Description', labelKey: 'accessControl.field.Description', width: 40 },
      {
        key: 'Status',
        labelKey: 'accessControl.field.FaultStatus',
        label: (v, lang) => enumLabel(lang, faultReportStatus, v),
      },
      { key: 'HandlerName', labelKey: 'accessControl.field.Handler' },
      { key: 'ReporterName', labelKey: 'accessControl.field.Reporter' },
      { key: 'ResolvedAt', labelKey: 'accessControl.field.ResolvedAt', kind: 'instant' },
    ],
  },
});

export const failureDeclarationRecordRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/FailureDeclarationRecord/Handlers',
    summary: "The area's enabled operator staff (operator settings), who handle fault reports",
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    response: z.array(failureHandlerItem),
    handler: (_input, ctx) =>
      ctx.db.kysely
        .selectFrom('OperatorStaff')
        .select(['Id', 'Name', 'StaffType', 'Phone', 'Remark'])
        .where('AreaId', '=', ctx.areaId)
        .where('Disabled', '=', 0)
        .orderBy('StaffType', 'desc')
        .orderBy('Name')
        .execute(),
  }),
  ...faultResource,
  defineRoute({
    method: 'POST',
    url: '/api/FailureDeclarationRecord/Progress',
    summary:
      'Move a fault report forward (open → in progress → resolved; resolving needs a note), or note and hand over',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: z.strictObject({
      Id: id,
      Status: enumNumber(faultReportStatus),
      Note: z.string().trim().max(500).nullable().optional(),
      HandlerId: id.nullable().optional(),
    }),
    async handler({ body }, ctx) {
      await progressFault(ctx, body);
      return null;
    },
  }),
];
