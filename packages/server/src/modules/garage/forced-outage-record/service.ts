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
import { notFound } from '../../../platform/errors.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { socketWithHost } from '../charge-host/commands.ts';
import { claimPowerOffStop, releaseSessionStop } from '../charge-record/stop-requests.ts';
import { itemById, type ItemView } from '../common/index.ts';
import { chargerGateway, type PowerOffAnswer } from '../common/gateway.ts';
import { insertPowerOffRequest, powerOffAnswered, powerOffConfirmed } from './records.ts';

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

/**
 * Forced power-off of a socket (docs/garage.md, docs/chargers.md). Honest by construction: the operator's
 * request is recorded and audited, then sent to the charger through the ChargerGateway seam, and the answer
 * is the charger's answer to the command, at once:
 * - sent, not confirmed (3): the charger accepted the stop of a running session; the session runs until its
 *   own stop report (StopTransaction) ends it, which settles the order as a forced power-off and turns this
 *   record into "power cut" (settlement.ts, the one owner of a session's end; the browser sees it live);
 * - power cut (1): no session ran and the charger switched the port off;
 * - failed (2) with the reason (refused, no answer, an error);
 * - not sent (0) with the reason (the host is not connected, or has no device link).
 * Unless the charger confirmed, the session keeps running, its order is not settled and the socket's state is
 * untouched: nothing says the power is off until the charger does.
 * A running session is claimed first (settlement's claimPowerOffStop): of two concurrent power-offs naming the
 * same session one is sent, the other is 409. Without ChargeRecordId the power-off is recorded even when
 * nothing runs (a stuck relay still needs a cut; the charger switches the port off).
 */
export async function forcePowerOff(ctx: Ctx, input: PowerOffBody): Promise<ForcedOutageRecordItem> {
  const request = await recordPowerOffRequest(ctx, input);
  const { socket, sessionId } = request;
  const gateway = chargerGateway(ctx);
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
    const sessionId = await claimPowerOffStop(trx, socket.Id, input.ChargeRecordId, now);
    const order = sessionId
      ? await trx
          .selectFrom('ChargeOrder')
          .select('Id')
          .where('ChargeRecordId', '=', sessionId)
          .executeTakeFirst()
      : undefined;
    const recordId = await insertPowerOffRequest(trx, {
      AreaId: ctx.areaId,
      ChargeEquipmentId: socket.Id,
      ChargeRecordId: sessionId,
      ChargeOrderId: order?.Id ?? null,
      Reason: input.Reason,
      UserId: ctx.user.userId,
      UserName: ctx.user.userName,
      At: now,
    });
    await audit(
      ctx,
      {
        action: 'forcedPowerOff',
        entity: 'ChargeEquipment',
        entityId: socket.Id,
        before: { State: socket.State },
        after: {
          ForcedOutageRecordId: recordId,
          ChargeRecordId: sessionId,
          ChargeOrderId: order?.Id ?? null,
          Reason: input.Reason,
        },
      },
      trx,
    );
    return { recordId, socket, sessionId };
  });
}

const RESULT_OF = {
  notSent: POWER_OFF_RESULT.notSent,
  sent: POWER_OFF_RESULT.sent,
  cut: POWER_OFF_RESULT.cut,
  failed: POWER_OFF_RESULT.failed,
} as const;

/** Writes the charger's answer on the record (audited with the operator) and releases a claim it did not use. */
async function recordPowerOffAnswer(
  ctx: Ctx,
  recordId: number,
  socketId: number,
  sessionId: number | null,
  answer: PowerOffAnswer,
): Promise<void> {
  const result = RESULT_OF[answer.outcome];
  const reason =
    answer.outcome === 'cut' ? null : answer.outcome === 'sent' ? 'noConfirmation' : answer.reason;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await powerOffAnswered(trx, recordId, result, reason);
    // Not sent or refused: nobody is stopping the session any more. (Sent keeps the claim, so the charger's
    // StopTransaction, whenever it comes, ends it as a forced power-off.)
    if (sessionId !== null && (answer.outcome === 'failed' || answer.outcome === 'notSent')) {
      await releaseSessionStop(trx, sessionId, STOP_REASON.forcedPowerOff);
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
    await emitPowerOff(ctx, trx, recordId);
  });
}

/**
 * The charger's stop report ended a session a power-off was cutting (settlement.ts, in the session end's
 * transaction): every record still waiting on it becomes "power cut" (records.ts), and is told again as
 * `socket.power_off` with that outcome and the order's settled amount, so a receiver's last word on the power-off
 * is what the power-off list shows (the first event said "sent, not confirmed"). Returns those records.
 */
export async function confirmPowerOffs(
  ctx: AreaContext,
  trx: Kysely<Database>,
  sessionId: number,
): Promise<number[]> {
  const ids = await powerOffConfirmed(trx, sessionId);
  for (const id of ids) await emitPowerOff(ctx, trx, id);
  return ids;
}

/**
 * The outcome as a `socket.power_off` event (platform/outbox), in the transaction that stores it: the record as
 * the power-off list shows it (socket, host, zone, operator, reason, result), its text in English so every
 * receiver reads the same words, with the area.
 */
async function emitPowerOff(ctx: AreaContext, trx: Kysely<Database>, recordId: number): Promise<void> {
  const row = await forcedOutageView
    .query(trx)
    .where('ForcedOutageRecord.Id', '=', recordId)
    .executeTakeFirstOrThrow();
  const [item] = await forcedOutageView.enrich!({ ...ctx, lang: 'en' }, [forcedOutageView.toItem(row)]);
  const names = await areaNames(trx, [ctx.areaId]);
  await emitEvent(trx, {
    type: 'socket.power_off',
    at: ctx.clock.now(),
    data: { ...item!, AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' },
  });
}
