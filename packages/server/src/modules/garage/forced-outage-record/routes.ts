import {
  enumLabel,
  forcedOutageResult,
  translate,
  BICYCLE_ANY,
  forcedOutageRecordItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, getResource, rowMapper, type ResourceDef } from '../../../platform/resource.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import { moneyCell } from '../common.ts';
import { chargerGateway, type PowerOffAnswer } from '../gateway.ts';

type Item = z.infer<typeof forcedOutageRecordItem>;

const def: ResourceDef<Item, z.ZodType, z.ZodType> = {
  name: 'ForcedOutageRecord',
  table: 'ForcedOutageRecord',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: [],
  item: forcedOutageRecordItem,
  query: (db) =>
    db
      .selectFrom('ForcedOutageRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ForcedOutageRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
      .leftJoin('ChargeRecord', 'ChargeRecord.Id', 'ForcedOutageRecord.ChargeRecordId')
      .leftJoin('ChargeOrder', 'ChargeOrder.Id', 'ForcedOutageRecord.ChargeOrderId')
      .select([
        'ForcedOutageRecord.Id',
        'ForcedOutageRecord.At',
        'ForcedOutageRecord.ChargeEquipmentId',
        'ChargeEquipment.PortNumber',
        'ChargeEquipment.ChargeHostId',
        'ChargeHost.Name as HostName',
        'ChargeHost.ParkAreaId',
        'ParkArea.Name as ZoneName',
        'ForcedOutageRecord.ChargeRecordId',
        'ForcedOutageRecord.ChargeOrderId',
        'ChargeOrder.OrderNo',
        'ChargeRecord.CardNumber',
        'ChargeOrder.AmountCents',
        'ForcedOutageRecord.Reason',
        'ForcedOutageRecord.Result',
        'ForcedOutageRecord.ResultReason',
        'ForcedOutageRecord.UserName',
      ]),
  toItem: rowMapper<Item>({ flags: [], instants: ['At'] }),
  // The reason in the caller's language ("recorded, not sent: the host is not connected").
  enrich: async (ctx, items) =>
    items.map((i) => ({
      ...i,
      ResultText: i.ResultReason ? translate(ctx.lang, `garage.powerOffResult.${i.ResultReason}`) : null,
    })),
  filters: {
    ChargeEquipmentId: filter.id('ForcedOutageRecord.ChargeEquipmentId'),
    ChargeHostId: filter.id('ChargeEquipment.ChargeHostId'),
    ParkAreaId: filter.id('ChargeHost.ParkAreaId'),
    Result: filter.oneOf('ForcedOutageRecord.Result', forcedOutageResult),
    UserName: filter.like('ForcedOutageRecord.UserName'),
    Keyword: filter.keyword(['ForcedOutageRecord.Reason', 'ChargeOrder.OrderNo', 'ChargeRecord.CardNumber']),
  },
  sorts: { At: 'ForcedOutageRecord.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'ForcedOutageRecord.At', requiredForExport: true },
  export: {
    titleKey: 'garage.title.forcedOutageRecords',
    columns: [
      { key: 'At', labelKey: 'garage.field.At', kind: 'instant' },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
      { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      { key: 'AmountCents', labelKey: 'garage.field.Amount', label: moneyCell },
      { key: 'Reason', labelKey: 'garage.field.Reason', width: 36 },
      {
        key: 'Result',
        labelKey: 'garage.field.Result',
        width: 24,
        label: (v, lang) => enumLabel(lang, forcedOutageResult, v),
      },
      // Why it was not sent or failed, in the exporter's language (enrich).
      { key: 'ResultText', labelKey: 'garage.field.ResultReason', width: 36 },
      { key: 'UserName', labelKey: 'garage.field.Operator' },
    ],
  },
};

export interface PowerOffInput {
  ChargeEquipmentId: number;
  /** The session the operator saw running; if it has ended since (a second click), 409 and nothing changes. */
  ChargeRecordId?: number | undefined;
  Reason: string;
}

/** chargeStopReason 3: the stop a forced power-off asks the device for. */
const STOP_FORCED = 3;
/** A power-off still waiting for its device this long may be sent again (a lost answer, a restart). */
export const POWER_OFF_PENDING_MS = 2 * 60_000;

/**
 * Forced power-off of a socket (docs/garage.md, docs/chargers.md). Honest by construction (issue 15): the
 * operator's request is recorded and audited, then sent to the device through the ChargerGateway seam, and
 * the record says what happened:
 * - power cut (1): the device accepted and its own stop report ended the session; the session and its order
 *   were closed by the device-session close path (stop reason 3), exactly as a normal stop, once;
 * - failed (2) with the reason (refused, no answer; or accepted without a stop report yet: that report,
 *   when it comes, still ends the session as forced and turns the record into "power cut");
 * - not sent (0) with the reason (the host is not connected, or has no device link).
 * Unless the power was cut, the session keeps running, its order is not settled and the socket's state is
 * untouched: nothing says the power is off until the device does.
 * A running session is claimed first (ChargeRecord.StopRequest, a conditional UPDATE): of two concurrent
 * power-offs naming the same session one is sent, the other is 409. Without ChargeRecordId the power-off is
 * recorded even when nothing runs (a stuck relay still needs a cut; the device switches the port off).
 */
export async function forcePowerOff(ctx: UserContext & AreaContext, input: PowerOffInput): Promise<Item> {
  const now = ctx.clock.now();
  const gateway = chargerGateway(ctx.db);
  const outcome = await ctx.db.kysely.transaction().execute(async (trx) => {
    const socket = await trx
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select([
        'ChargeEquipment.Id',
        'ChargeEquipment.State',
        'ChargeEquipment.PortNumber',
        'ChargeHost.Id as HostId',
        'ChargeHost.SerialNumber',
        'ChargeHost.ChargingSystemType',
      ])
      .where('ChargeEquipment.Id', '=', input.ChargeEquipmentId)
      .where('ChargeEquipment.AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!socket) throw notFound();

    const sessions = trx.selectFrom('ChargeRecord').selectAll().where('ChargeEquipmentId', '=', socket.Id);
    let session = await (
      input.ChargeRecordId === undefined
        ? sessions.where('EndAt', 'is', null)
        : sessions.where('Id', '=', input.ChargeRecordId)
    ).executeTakeFirst();
    if (input.ChargeRecordId !== undefined) {
      if (!session) throw notFound();
      if (session.EndAt !== null) throw new AppError(409, 'garage.error.sessionEnded');
    }
    if (session) {
      const claimed = await trx
        .updateTable('ChargeRecord')
        .set({ StopRequest: STOP_FORCED, StopRequestedAt: now })
        .where('Id', '=', session.Id)
        .where('EndAt', 'is', null)
        .where((eb) =>
          eb.or([
            eb('StopRequest', 'is', null),
            eb('StopRequest', '!=', STOP_FORCED),
            eb('StopRequestedAt', '<', now - POWER_OFF_PENDING_MS),
          ]),
        )
        .executeTakeFirst();
      // Someone else ended it or is already cutting it: the named session is a conflict; an unnamed one is
      // recorded without it.
      if (Number(claimed.numUpdatedRows) !== 1) {
        if (input.ChargeRecordId !== undefined) throw new AppError(409, 'garage.error.powerOffPending');
        session = undefined;
      }
    }
    const order = session
      ? await trx
          .selectFrom('ChargeOrder')
          .select('Id')
          .where('ChargeRecordId', '=', session.Id)
          .executeTakeFirst()
      : undefined;

    const record = await trx
      .insertInto('ForcedOutageRecord')
      .values({
        AreaId: ctx.areaId,
        ChargeEquipmentId: socket.Id,
        ChargeRecordId: session?.Id ?? null,
        ChargeOrderId: order?.Id ?? null,
        Reason: input.Reason,
        // Until the device answers: not sent (true if the process stops here).
        Result: 0,
        ResultReason: 'sending',
        UserId: ctx.user.userId,
        UserName: ctx.user.userName,
        At: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await audit(
      ctx,
      {
        action: 'forcedPowerOff',
        entity: 'ChargeEquipment',
        entityId: socket.Id,
        before: { State: socket.State },
        after: {
          ForcedOutageRecordId: record.Id,
          ChargeRecordId: session?.Id ?? null,
          ChargeOrderId: order?.Id ?? null,
          Reason: input.Reason,
        },
      },
      trx,
    );
    return { recordId: record.Id, socket, sessionId: session?.Id ?? null };
  });

  const answer: PowerOffAnswer = gateway
    ? await gateway
        .powerOff({
          hostId: outcome.socket.HostId,
          serialNumber: outcome.socket.SerialNumber,
          chargingSystemType: outcome.socket.ChargingSystemType,
          portNumber: outcome.socket.PortNumber,
          chargeRecordId: outcome.sessionId,
        })
        .catch((): PowerOffAnswer => ({ outcome: 'failed', reason: 'error' }))
    : { outcome: 'notSent', reason: 'noDeviceLink' };
  await recordPowerOffAnswer(ctx, outcome.recordId, outcome.socket.Id, outcome.sessionId, answer);
  return getResource(def, ctx, outcome.recordId);
}

const RESULT_OF = { notSent: 0, cut: 1, failed: 2 } as const;

/** Writes the device's answer on the record (audited with the operator) and releases a claim it did not use. */
async function recordPowerOffAnswer(
  ctx: UserContext & AreaContext,
  recordId: number,
  socketId: number,
  sessionId: number | null,
  answer: PowerOffAnswer,
): Promise<void> {
  const result = RESULT_OF[answer.outcome];
  const reason = answer.outcome === 'cut' ? null : answer.reason;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    // A stop report that arrived meanwhile already made it "power cut": that stays.
    await trx
      .updateTable('ForcedOutageRecord')
      .set({ Result: result, ResultReason: reason })
      .where('Id', '=', recordId)
      .where('Result', '!=', 1)
      .execute();
    // Not sent or refused: nobody is stopping the session any more. (Accepted without a stop yet keeps the
    // claim, so the device's late StopTransaction still ends it as a forced power-off.)
    if (sessionId !== null && answer.outcome !== 'cut' && reason !== 'noConfirmation') {
      await trx
        .updateTable('ChargeRecord')
        .set({ StopRequest: null, StopRequestedAt: null })
        .where('Id', '=', sessionId)
        .where('EndAt', 'is', null)
        .where('StopRequest', '=', STOP_FORCED)
        .execute();
    }
    await audit(
      ctx,
      {
        action: 'forcedPowerOff.result',
        entity: 'ChargeEquipment',
        entityId: socketId,
        before: null,
        after: {
          ForcedOutageRecordId: recordId,
          Result: result,
          ResultReason: reason,
          ...(answer.outcome === 'failed' && answer.detail ? { Detail: answer.detail } : {}),
        },
      },
      trx,
    );
  });
}

export const forcedOutageRecordRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/ChargeEquipment/ForcedPowerOff',
    summary:
      'Forced power-off of a socket with a reason: ends its running session and settles the order once (409 if that session already ended)',
    tag: 'Garage',
    access: BICYCLE_ANY,
    area: true,
    body: z.strictObject({
      ChargeEquipmentId: id,
      ChargeRecordId: id.optional(),
      Reason: z.string().trim().min(1).max(200),
    }),
    response: forcedOutageRecordItem,
    handler: ({ body }, ctx) => forcePowerOff(ctx, body),
  }),
  ...defineResource(def),
];
