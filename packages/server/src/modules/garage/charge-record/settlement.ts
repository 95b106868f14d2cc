import {
  DEFAULT_SITE_TIME_ZONE,
  STOP_REASON,
  digestEnergyWh,
  foldReading,
  placeReading,
  priceSession,
  startDigest,
  type MeterDigest,
  type Price,
  type Usage,
} from '@gatehouse/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import type { Db } from '../../../db/database.ts';
import { systemActor } from '../../../platform/context.ts';
import { endSocketMetering } from '../charge-equipment/connector.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../common/liveness.ts';
import { confirmPowerOffs } from '../forced-outage-record/service.ts';
import { areaTimeZone } from '../common/index.ts';
import { transition } from '../common/payments.ts';
import { tariffOf } from '../common/pricing.ts';
import type { ChargeOrderTable } from '../tables.ts';
import { emitOrderSettled, emitSession } from './events.ts';
import { socketSessions } from './service.ts';

/**
 * The one owner of how a charging session ends (docs/chargers.md, "Sessions"): the stop Gatehouse asks a
 * charger for (a forced power-off, a safety rule: ChargeRecord.StopRequest, claimed and released only here),
 * the charger's own stop, a host gone offline past its grace period, a session superseded by a new one on
 * its socket. Each ends the session once (a conditional UPDATE), prices its order once with the terms it
 * copied, and confirms the power-off record that was waiting for it.
 */

type Trx = Kysely<Database>;
type OrderRow = Selectable<ChargeOrderTable>;

export interface CloseSessionInput {
  recordId: number;
  socketId: number;
  endAt: number;
  meterStopWh: number;
  /** chargeStopReason. */
  stopReason: number;
}

export type CloseSessionResult =
  | {
      closed: true;
      /** True when this stop corrected a session Gatehouse had ended itself (power failure, offline host). */
      corrected: boolean;
      orderId: number | null;
      amountCents: number | null;
      energyWh: number;
      /** The stop reason recorded: the one Gatehouse asked for (power-off, safety rule) or the device's. */
      stopReason: number;
      /** Power-off records this stop confirmed ("power cut" now). */
      powerOffRecordIds: number[];
    }
  | { closed: false; reason: 'unknown' | 'alreadyEnded' };

/**
 * Ends a session the device stopped and prices its order once. A session already ended (a repeated stop,
 * or one Gatehouse ended itself) is left as it is, except once: a session Gatehouse closed as a power
 * failure while its host was offline (EndProvisional) takes the device's real end and energy from this stop,
 * and its order is repriced if still unpaid. When Gatehouse asked for the stop (ChargeRecord.StopRequest:
 * a forced power-off or a safety rule), that is the stop reason, and a forced power-off's record becomes
 * "power cut".
 */
export async function closeDeviceSession(
  ctx: AreaContext,
  input: CloseSessionInput,
): Promise<CloseSessionResult> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const record = await socketSessions(trx, {
      recordId: input.recordId,
      socketIds: [input.socketId],
      open: false,
    })
      .select([
        'ChargeRecord.Id',
        ...meteredColumns,
        'ChargeRecord.EndAt',
        'ChargeRecord.EnergyWh',
        'ChargeRecord.StopRequest',
        'ChargeRecord.EndProvisional',
      ])
      .executeTakeFirst();
    if (!record) return { closed: false, reason: 'unknown' } as const;
    const energyWh = Math.max(record.EnergyWh, input.meterStopWh - (record.MeterStartWh ?? 0));
    // A device clock behind the start must not make a negative session.
    const endAt = Math.max(record.StartAt, input.endAt);
    if (record.EndAt !== null) {
      if (record.EndProvisional !== 1) return { closed: false, reason: 'alreadyEnded' } as const;
      return correctProvisionalEnd(ctx, trx, record, endAt, energyWh, input.stopReason);
    }
    const stopReason = record.StopRequest ?? input.stopReason;
    const settled = await endSession(ctx, trx, record.Id, endAt, energyWh, stopReason);
    if (!settled) return { closed: false, reason: 'alreadyEnded' } as const;
    // The power-off waiting for this stop (sent, not confirmed) is now true: power cut, and told so.
    const powerOffRecordIds =
      record.StopRequest === STOP_REASON.forcedPowerOff ? await confirmPowerOffs(ctx, trx, record.Id) : [];
    // The socket's metering of this session ends with it.
    await endSocketMetering(trx, input.socketId);
    return { closed: true, corrected: false, ...settled, energyWh, stopReason, powerOffRecordIds };
  });
}

export interface LostSession {
  recordId: number;
  socketId: number;
  portNumber: number;
  orderId: number | null;
  amountCents: number | null;
  energyWh: number;
}

/**
 * Closes the sessions still running on a host whose charge point went offline and stayed away past the grace
 * period (docs/chargers.md, "Liveness"): stop reason 5, power failure, at `endAt` (its last sign of life) with
 * the energy last reported, order settled; marked provisional so the device's own StopTransaction, if it
 * reconnects and sends one, corrects energy and order once.
 */
export async function endSessionsOfLostHost(
  ctx: AreaContext,
  hostId: number,
  endAt: number,
): Promise<LostSession[]> {
  const k = ctx.db.kysely;
  const open = await socketSessions(k, { hostId, areaId: ctx.areaId })
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
    ])
    .execute();
  const closed: LostSession[] = [];
  for (const session of open) {
    const settled = await k.transaction().execute(async (trx) => {
      const end = Math.max(session.StartAt, endAt);
      const done = await endSession(ctx, trx, session.Id, end, session.EnergyWh, STOP_REASON.powerFailure);
      if (done) {
        await trx
          .updateTable('ChargeRecord')
          .set({ EndProvisional: 1 })
          .where('Id', '=', session.Id)
          .execute();
      }
      return done;
    });
    if (settled) {
      closed.push({
        recordId: session.Id,
        socketId: session.SocketId,
        portNumber: session.PortNumber,
        ...settled,
        energyWh: session.EnergyWh,
      });
    }
  }
  return closed;
}

/** A session closed unconfirmed, with its host (for the live event). */
export interface UnconfirmedSession extends LostSession {
  areaId: number;
  hostId: number;
  serial: string;
}

/** How long a connected charger's "free" report may stand beside a running session before it is closed. */
export const UNCONFIRMED_WAIT_MS = 2 * 60_000;

/**
 * Sessions the charger says are not running (docs/chargers.md, "Reconciliation"): a connected charge point
 * reported the socket Available after the session started, and no StopTransaction for it came within
 * `waitMs` (OCPP 1.6 chargers send their queued stops right after reconnecting, so one that was coming has
 * come). Each is closed as "ended, not confirmed by the charger" (stop reason 6) at the time of that report,
 * with the energy last reported, its order priced by its tariff, and an audit entry that says why; marked
 * provisional, so a StopTransaction that still arrives corrects it once. Only charge points this instance
 * holds (`instanceId`), so two instances never race over one.
 */
export async function closeUnconfirmedSessions(
  db: Db,
  instanceId: string,
  now: number,
  waitMs = UNCONFIRMED_WAIT_MS,
): Promise<UnconfirmedSession[]> {
  const stale = await socketSessions(db.kysely)
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.AreaId',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.OcppStatusAt',
      'ChargeHost.Id as HostId',
      'ChargeHost.SerialNumber',
    ])
    .where('ChargeHost.ChargingSystemType', '=', LIVE_LINK_SYSTEM_TYPE)
    .where('ChargeHost.OcppOnline', '=', 1)
    .where('ChargeHost.OcppInstance', '=', instanceId)
    .where('ChargeEquipment.OcppStatus', '=', 'Available')
    .where('ChargeEquipment.OcppStatusAt', '<=', now - waitMs)
    .whereRef('ChargeEquipment.OcppStatusAt', '>=', 'ChargeRecord.StartAt')
    .execute();
  const closed: UnconfirmedSession[] = [];
  for (const session of stale) {
    const ctx: AreaContext = {
      db,
      clock: { now: () => now },
      lang: 'en',
      actor: systemActor('charger reconciliation'),
      areaId: session.AreaId,
    };
    const endAt = Math.max(session.StartAt, session.OcppStatusAt!);
    const settled = await db.kysely.transaction().execute(async (trx) => {
      const done = await endSession(ctx, trx, session.Id, endAt, session.EnergyWh, STOP_REASON.unconfirmed);
      if (!done) return undefined;
      await trx.updateTable('ChargeRecord').set({ EndProvisional: 1 }).where('Id', '=', session.Id).execute();
      const after = { StopReason: STOP_REASON.unconfirmed, EndAt: endAt, EnergyWh: session.EnergyWh };
      await audit(
        ctx,
        { action: 'endUnconfirmed', entity: 'ChargeRecord', entityId: session.Id, before: null, after },
        trx,
      );
      return done;
    });
    if (settled) {
      closed.push({
        recordId: session.Id,
        areaId: session.AreaId,
        hostId: session.HostId,
        serial: session.SerialNumber,
        socketId: session.SocketId,
        portNumber: session.PortNumber,
        ...settled,
        energyWh: session.EnergyWh,
      });
    }
  }
  return closed;
}

export interface DroppedSessionReport {
  socketId: number;
  /** The time the charger gave for the socket's state (its StatusNotification's timestamp, or its boot). */
  reportedAt: number;
  /** Sessions the charger has named since it booted (started, metered, stopped): it still carries them. */
  carried: ReadonlySet<number>;
}

/**
 * A charger that restarted and then reports a socket without a transaction (Available, Preparing,
 * Finishing) has said, by its boot and that report, that the session Gatehouse holds there is over
 * (docs/chargers.md, "Reconciliation"): no wait, no "charging" meanwhile. The socket's running session,
 * started before the report and not one the charger named since its boot, ends now as "ended by the charger"
 * (stop reason 7) at the charger's time, with the energy last reported; its order is priced by its tariff
 * and the audit says why (the device actor). Marked provisional: the charger's own StopTransaction, if it
 * still comes from its queue, corrects end, energy and price once.
 */
export async function closeDroppedSession(
  ctx: AreaContext,
  report: DroppedSessionReport,
): Promise<LostSession | undefined> {
  const session = await socketSessions(ctx.db.kysely, { socketIds: [report.socketId], areaId: ctx.areaId })
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
    ])
    .executeTakeFirst();
  if (!session || report.carried.has(session.Id) || session.StartAt > report.reportedAt) return undefined;
  const endAt = report.reportedAt;
  const settled = await ctx.db.kysely.transaction().execute(async (trx) => {
    const done = await endSession(ctx, trx, session.Id, endAt, session.EnergyWh, STOP_REASON.byCharger);
    if (!done) return undefined;
    await trx.updateTable('ChargeRecord').set({ EndProvisional: 1 }).where('Id', '=', session.Id).execute();
    await endSocketMetering(trx, session.SocketId);
    const after = { StopReason: STOP_REASON.byCharger, EndAt: endAt, EnergyWh: session.EnergyWh };
    await audit(
      ctx,
      { action: 'endByCharger', entity: 'ChargeRecord', entityId: session.Id, before: null, after },
      trx,
    );
    return done;
  });
  if (!settled) return undefined;
  return {
    recordId: session.Id,
    socketId: session.SocketId,
    portNumber: session.PortNumber,
    ...settled,
    energyWh: session.EnergyWh,
  };
}

const orderOfSession = (trx: Trx, recordId: number) =>
  trx.selectFrom('ChargeOrder').selectAll().where('ChargeRecordId', '=', recordId).executeTakeFirst();

/** The audit entry of an order priced at its session's end: what it was and what it became. */
function auditPricing(
  ctx: AreaContext,
  trx: Trx,
  action: 'settle' | 'settle.correct',
  order: OrderRow,
  after: Record<string, unknown>,
) {
  const before = { AmountCents: order.AmountCents, SettledAt: order.SettledAt };
  return audit(ctx, { action, entity: 'ChargeOrder', entityId: order.Id, before, after }, trx);
}

/**
 * Prices an order (its amount, itemised lines and settlement time) in one conditional UPDATE: true when it
 * was in the expected state (not settled yet, or still unpaid) and so changed.
 */
async function priceOrder(
  ctx: AreaContext,
  trx: Trx,
  orderId: number,
  price: Price,
  endAt: number,
  unless: 'settled' | 'paid',
): Promise<boolean> {
  const priced = await trx
    .updateTable('ChargeOrder')
    .set({
      AmountCents: price.AmountCents,
      PriceLines: JSON.stringify(price.Lines),
      SettledAt: endAt,
      UpdatedAt: ctx.clock.now(),
    })
    .where('Id', '=', orderId)
    .where((eb) => (unless === 'settled' ? eb('SettledAt', 'is', null) : eb('PaymentState', '=', 0)))
    .executeTakeFirst();
  return Number(priced.numUpdatedRows) === 1;
}

/** An order settled at ¥0 has nothing to collect: the system closes it (0 → 1). */
async function closeIfFree(ctx: AreaContext, trx: Trx, order: OrderRow, amountCents: number) {
  if (amountCents !== 0) return;
  await transition(
    ctx,
    trx,
    'ChargeOrder',
    { Id: order.Id, PaymentState: order.PaymentState, AmountCents: 0, Settled: true },
    { to: 1, actor: 'system' },
  );
}

/** A session's columns its final price reads. */
interface MeteredRecord {
  StartAt: number;
  MeterStartWh: number | null;
  MeterDigest: string | null;
  FullAt: number | null;
}

/** What a session ends with: its end, its energy and the usage the engine prices. */
interface FinalMeter {
  endAt: number;
  energyWh: number;
  usage: Usage;
}

/**
 * The end of a session as it is priced (docs/garage.md, "The stored meter"). A session a device metered has
 * its readings folded in ChargeRecord.MeterDigest (device-sessions.ts; from its meterStart when no reading
 * came); the device's final register at the end is folded in last, here, against the order's periods in the
 * area's zone, and never stored (a late StopTransaction correcting a provisional end folds its own). A session
 * ends no earlier than its last reading, and its energy is the register's. Since when the battery was full is
 * taken inside the session. A session no device metered is priced by its energy alone.
 */
async function finalMeter(
  ctx: AreaContext,
  trx: Trx,
  order: OrderRow | undefined,
  record: MeteredRecord,
  endAt: number,
  energyWh: number,
): Promise<FinalMeter> {
  const fullAt = (end: number) =>
    record.FullAt === null ? null : Math.min(Math.max(record.FullAt, record.StartAt), end);
  if (record.MeterStartWh === null) {
    const usage = { StartAt: record.StartAt, EndAt: endAt, EnergyWh: energyWh, FullAt: fullAt(endAt) };
    return { endAt, energyWh, usage };
  }
  const periods = order ? (tariffOf(order).TimeOfDay ?? null) : null;
  const terms = {
    TimeOfDay: periods,
    TimeZone: periods ? await areaTimeZone(trx, ctx.areaId) : DEFAULT_SITE_TIME_ZONE,
  };
  let digest: MeterDigest = record.MeterDigest
    ? (JSON.parse(record.MeterDigest) as MeterDigest)
    : startDigest({ At: record.StartAt, EnergyWh: record.MeterStartWh });
  const last = placeReading(digest, endAt, record.MeterStartWh + energyWh);
  if (last) digest = foldReading(digest, last, terms);
  const end = Math.max(endAt, digest.Last.At);
  return {
    endAt: end,
    energyWh: digestEnergyWh(digest),
    usage: { StartAt: record.StartAt, EndAt: end, Meter: digest, FullAt: fullAt(end) },
  };
}

const meteredColumns = [
  'ChargeRecord.StartAt',
  'ChargeRecord.MeterStartWh',
  'ChargeRecord.MeterDigest',
  'ChargeRecord.FullAt',
] as const;

/**
 * The device's stop for a session Gatehouse ended as a power failure: its end and energy are the truth.
 * Once (EndProvisional goes back to 0 in a conditional UPDATE). The order is repriced while unpaid (0) with
 * the terms it copied; an order already in another state keeps its amount (money may have moved), and the
 * audit entry says so.
 */
async function correctProvisionalEnd(
  ctx: AreaContext,
  trx: Trx,
  record: MeteredRecord & { Id: number },
  deviceEndAt: number,
  deviceEnergyWh: number,
  deviceStopReason: number,
): Promise<CloseSessionResult> {
  const order = await orderOfSession(trx, record.Id);
  const final = await finalMeter(ctx, trx, order, record, deviceEndAt, deviceEnergyWh);
  const { endAt, energyWh } = final;
  const corrected = await trx
    .updateTable('ChargeRecord')
    .set({ EndAt: endAt, EnergyWh: energyWh, StopReason: deviceStopReason, EndProvisional: 0 })
    .where('Id', '=', record.Id)
    .where('EndProvisional', '=', 1)
    .executeTakeFirst();
  if (Number(corrected.numUpdatedRows) !== 1) return { closed: false, reason: 'alreadyEnded' };
  const result = {
    closed: true as const,
    corrected: true,
    energyWh,
    stopReason: deviceStopReason,
    powerOffRecordIds: [] as number[],
  };
  if (!order) return { ...result, orderId: null, amountCents: null };
  const price = priceSession(tariffOf(order), final.usage);
  const repriced = order.PaymentState === 0;
  if (repriced) await priceOrder(ctx, trx, order.Id, price, endAt, 'paid');
  const amountCents = repriced ? price.AmountCents : order.AmountCents;
  await auditPricing(ctx, trx, 'settle.correct', order, {
    AmountCents: amountCents,
    SettledAt: repriced ? endAt : order.SettledAt,
    EnergyWh: energyWh,
    StopReason: deviceStopReason,
    ...(repriced ? {} : { Repriced: false, Computed: price.AmountCents }),
  });
  if (repriced) {
    await closeIfFree(ctx, trx, { ...order, PaymentState: 0 }, price.AmountCents);
    // Its amount changed: receivers hear the final one (the same order again, priced with the real end).
    await emitOrderSettled(ctx, trx, order.Id, endAt);
  }
  return { ...result, orderId: order.Id, amountCents };
}

/**
 * Ends one open session (conditional UPDATE: exactly once) and settles its order with the terms it copied:
 * the same priceSession call the live estimate makes, with the real end and the meter as it ends
 * (`finalMeter`), its itemised lines stored with the amount. A ¥0 order is closed by the system.
 */
export async function endSession(
  ctx: AreaContext,
  trx: Trx,
  recordId: number,
  deviceEndAt: number,
  deviceEnergyWh: number,
  stopReason: number,
): Promise<{ orderId: number | null; amountCents: number | null } | undefined> {
  const record = await trx
    .selectFrom('ChargeRecord')
    .select(meteredColumns)
    .where('Id', '=', recordId)
    .where('EndAt', 'is', null)
    .executeTakeFirst();
  if (!record) return undefined;
  const order = await orderOfSession(trx, recordId);
  const final = await finalMeter(ctx, trx, order, record, deviceEndAt, deviceEnergyWh);
  const { endAt, energyWh } = final;
  const ended = await trx
    .updateTable('ChargeRecord')
    .set({ EndAt: endAt, EnergyWh: energyWh, StopReason: stopReason })
    .where('Id', '=', recordId)
    .where('EndAt', 'is', null)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) !== 1) return undefined;
  if (!order) {
    await emitSession(ctx, trx, recordId, 'charging.session.ended', endAt);
    return { orderId: null, amountCents: null };
  }
  const price = priceSession(tariffOf(order), final.usage);
  if (!(await priceOrder(ctx, trx, order.Id, price, endAt, 'settled'))) {
    await emitSession(ctx, trx, recordId, 'charging.session.ended', endAt);
    return { orderId: order.Id, amountCents: order.AmountCents };
  }
  await auditPricing(ctx, trx, 'settle', order, {
    AmountCents: price.AmountCents,
    SettledAt: endAt,
    EnergyWh: energyWh,
    StopReason: stopReason,
  });
  await closeIfFree(ctx, trx, order, price.AmountCents);
  // After the pricing: the events carry the settled amount, as the charging-record list then shows it.
  await emitSession(ctx, trx, recordId, 'charging.session.ended', endAt);
  await emitOrderSettled(ctx, trx, order.Id, endAt);
  return { orderId: order.Id, amountCents: price.AmountCents };
}
