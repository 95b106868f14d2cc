import {
  FAULT,
  type FailureDeclarationRecordApi,
  type FailureDeclarationRecordItem,
  type FailureHandlerItem,
  type FailureHistoryEntry,
  type ProgressFaultInput,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { actorDisplayName, actorUserId, type AreaContext } from '../../../platform/context.ts';
import { areaChannels } from '../access-control-channel/service.ts';
import { areaDevice } from '../access-control-device/service.ts';
import type { Trx } from '../common.ts';

/**
 * Fault reports (Admin or User): an operator reports a fault of a device or one of its doors; the report
 * moves forward only, open → in progress → resolved (a note is required to resolve), and is handed to one
 * of the area's operator staff (operator settings).
 */
type HistoryEntry = FailureHistoryEntry;
type CreateBody = z.output<typeof FailureDeclarationRecordApi.create.body>;

/** The area's enabled operator staff, who handle fault reports (managers first). */
export function faultHandlers(ctx: AreaContext): Promise<FailureHandlerItem[]> {
  return ctx.db.kysely
    .selectFrom('OperatorStaff')
    .select(['Id', 'Name', 'StaffType', 'Phone', 'Remark'])
    .where('AreaId', '=', ctx.areaId)
    .where('Disabled', '=', 0)
    .orderBy('StaffType', 'desc')
    .orderBy('Name')
    .execute();
}

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

/** Moves a report forward (or notes and hands it over), with a history entry and an audit entry. */
export async function progressFault(ctx: AreaContext, input: ProgressFaultInput): Promise<void> {
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

export const faultQuery = (db: Trx) =>
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
    ]);

const mapFault = rowMapper<FailureDeclarationRecordItem>({
  instants: ['ReportedAt', 'ResolvedAt', 'UpdatedAt'],
});

export function toFaultItem({ History, ...row }: Record<string, unknown>): FailureDeclarationRecordItem {
  return { ...mapFault(row), History: JSON.parse(History as string) as HistoryEntry[] };
}

/** A device of the area, and one of its channels when the report names one. */
async function faultTarget(ctx: AreaContext, trx: Trx, input: CreateBody) {
  const device = await areaDevice(trx, ctx.areaId, input.DeviceId);
  if (!device) throw fieldError('DeviceId', 'accessControl.error.deviceMissing');
  if (!input.ChannelId) return { device, channel: undefined };
  const channel = await areaChannels(trx, ctx.areaId)
    .where('AccessControlChannel.Id', '=', input.ChannelId)
    .where('AccessControlChannel.DeviceId', '=', device.Id)
    .executeTakeFirst();
  if (!channel) throw fieldError('ChannelId', 'accessControl.error.channelMissing');
  return { device, channel };
}

/** A new report is open; names are copied so the report reads the same after devices change. */
export async function newFault(input: CreateBody, ctx: AreaContext, trx: Trx) {
  const { device, channel } = await faultTarget(ctx, trx, input);
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
}
