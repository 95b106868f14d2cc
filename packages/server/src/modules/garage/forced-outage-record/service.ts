import {
  POWER_OFF_RESULT,
  STOP_REASON,
  translate,
  type ForcedOutageRecordItem,
  type PowerOffBody,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { socketWithHost } from '../charge-host/commands.ts';
import { socketSessions } from '../charge-record/service.ts';
import { itemById, type ItemView } from '../common/index.ts';
import { chargerGateway, type PowerOffAnswer } from '../common/gateway.ts';

type Ctx = UserContext & AreaContext;

/** Power-off records as their list shows them: where, which session and order, and the device's answer. */
export const forcedOutageView: ItemView<ForcedOutageRecordItem> = {
  table: 'ForcedOutageRecord',
  query: (db: Kysely<Database>) =>
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
  toItem: rowMapper<ForcedOutageRecordItem>({ flags: [], instants: ['At'] }),
  // The reason in the caller's language ("recorded, not sent: the host is not connected").
  enrich: async (ctx, items) =>
    items.map((i) => ({
      ...i,
      ResultText: i.ResultReason ? translate(ctx.lang, `garage.powerOffResult.${i.ResultReason}`) : null,
    })),
};

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
export async function forcePowerOff(ctx: Ctx, input: PowerOffBody): Promise<ForcedOutageRecordItem> {
  const request = await recordPowerOffRequest(ctx, input);
  const { socket, sessionId } = request;
  const gateway = chargerGateway(ctx.db);
  const answer: PowerOffAnswer = gateway
    ? await gateway
        .powerOff({ ...socket.host, portNumber: socket.PortNumber, chargeRecordId: sessionId })
        .catch((): PowerOffAnswer => ({ outcome: 'failed', reason: 'error' }))
    : { outcome: 'notSent', reason: 'noDeviceLink' };
  await recordPowerOffAnswer(ctx, request.recordId, socket.Id, sessionId, answer);
  return itemById(forcedOutageView, ctx, request.recordId);
}

/** The socket, its session claimed for the stop, and the record "sending" with its audit entry: one transaction. */
async function recordPowerOffRequest(ctx: Ctx, input: PowerOffBody) {
  const now = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const socket = await socketWithHost(trx, ctx.areaId, input.ChargeEquipmentId);
    if (!socket) throw notFound();
    const sessionId = await claimSession(trx, socket.Id, input.ChargeRecordId, now);
    const order = sessionId
      ? await trx
          .selectFrom('ChargeOrder')
          .select('Id')
          .where('ChargeRecordId', '=', sessionId)
          .executeTakeFirst()
      : undefined;
    const record = await trx
      .insertInto('ForcedOutageRecord')
      .values({
        AreaId: ctx.areaId,
        ChargeEquipmentId: socket.Id,
        ChargeRecordId: sessionId,
        ChargeOrderId: order?.Id ?? null,
        Reason: input.Reason,
        // Until the device answers: not sent (true if the process stops here).
        Result: POWER_OFF_RESULT.notSent,
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
          ChargeRecordId: sessionId,
          ChargeOrderId: order?.Id ?? null,
          Reason: input.Reason,
        },
      },
      trx,
    );
    return { recordId: record.Id, socket, sessionId };
  });
}

/**
 * The session a power-off ends, claimed for it (ChargeRecord.StopRequest): the named one, which must still
 * run on this socket (404, 409), or the socket's running session if any. Someone else ending it or already
 * cutting it: a named session is a conflict; an unnamed one is recorded without it (null).
 */
async function claimSession(
  trx: Kysely<Database>,
  socketId: number,
  namedId: number | undefined,
  now: number,
): Promise<number | null> {
  const session = await socketSessions(trx, {
    socketIds: [socketId],
    ...(namedId === undefined ? {} : { recordId: namedId, open: false }),
  })
    .select(['ChargeRecord.Id', 'ChargeRecord.EndAt'])
    .executeTakeFirst();
  if (namedId !== undefined) {
    if (!session) throw notFound();
    if (session.EndAt !== null) throw new AppError(409, 'garage.error.sessionEnded');
  }
  if (!session) return null;
  const claimed = await trx
    .updateTable('ChargeRecord')
    .set({ StopRequest: STOP_REASON.forcedPowerOff, StopRequestedAt: now })
    .where('Id', '=', session.Id)
    .where('EndAt', 'is', null)
    .where((eb) =>
      eb.or([
        eb('StopRequest', 'is', null),
        eb('StopRequest', '!=', STOP_REASON.forcedPowerOff),
        eb('StopRequestedAt', '<', now - POWER_OFF_PENDING_MS),
      ]),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 1) return session.Id;
  if (namedId !== undefined) throw new AppError(409, 'garage.error.powerOffPending');
  return null;
}

const RESULT_OF = {
  notSent: POWER_OFF_RESULT.notSent,
  cut: POWER_OFF_RESULT.cut,
  failed: POWER_OFF_RESULT.failed,
} as const;

/** Writes the device's answer on the record (audited with the operator) and releases a claim it did not use. */
async function recordPowerOffAnswer(
  ctx: Ctx,
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
      .where('Result', '!=', POWER_OFF_RESULT.cut)
      .execute();
    // Not sent or refused: nobody is stopping the session any more. (Accepted without a stop yet keeps the
    // claim, so the device's late StopTransaction still ends it as a forced power-off.)
    if (sessionId !== null && answer.outcome !== 'cut' && reason !== 'noConfirmation') {
      await trx
        .updateTable('ChargeRecord')
        .set({ StopRequest: null, StopRequestedAt: null })
        .where('Id', '=', sessionId)
        .where('EndAt', 'is', null)
        .where('StopRequest', '=', STOP_REASON.forcedPowerOff)
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
