import { estimateSession, localDateKey, priceSession } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { transition } from '../payments.ts';
import { tariffOf } from '../pricing.ts';

/**
 * Charging sessions as a device reports them (docs/chargers.md): a card starts one on a socket, the meter
 * updates its energy, the device ends it and the order is priced once with the shared tariff engine.
 * Protocol-free: the OCPP gateway calls these with a device actor; a vendor-API gateway could too.
 *
 * Every call is idempotent under device retries: the same start returns the same session, an end of a
 * session already ended changes nothing, and a meter reading never lowers the energy.
 */

export type CardStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';

export interface CardCheck {
  status: CardStatus;
  /** The vehicle the card belongs to, when it is a vehicle's card (its pass may decide the tariff). */
  vehicleId: number | null;
}

/**
 * Is this card one the area knows, and may it charge now? A vehicle's card (the vehicle enabled) or a card
 * holder's card (the holder enabled and within validity). Unknown cards are Invalid, disabled ones Blocked,
 * a holder outside the validity window Expired.
 */
export async function checkCard(ctx: AreaContext, cardNumber: string, at: number): Promise<CardCheck> {
  const k = ctx.db.kysely;
  const vehicle = await k
    .selectFrom('Vehicle')
    .select(['Id', 'Disabled'])
    .where('AreaId', '=', ctx.areaId)
    .where('CardNumber', '=', cardNumber)
    .orderBy('Disabled')
    .orderBy('Id')
    .executeTakeFirst();
  if (vehicle)
    return {
      status: vehicle.Disabled ? 'Blocked' : 'Accepted',
      vehicleId: vehicle.Disabled ? null : vehicle.Id,
    };
  const card = await k
    .selectFrom('Card')
    .leftJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
    .select([
      'Card.Id',
      'CardUser.Id as HolderId',
      'CardUser.Disabled',
      'CardUser.ValidFrom',
      'CardUser.ValidTo',
    ])
    .where('Card.AreaId', '=', ctx.areaId)
    .where('Card.CardNumber', '=', cardNumber)
    .executeTakeFirst();
  // A stock card not given to anyone opens nothing.
  if (!card || card.HolderId === null) return { status: 'Invalid', vehicleId: null };
  if (card.Disabled) return { status: 'Blocked', vehicleId: null };
  if (card.ValidFrom !== null && at < card.ValidFrom) return { status: 'Expired', vehicleId: null };
  if (card.ValidTo !== null && at > card.ValidTo) return { status: 'Expired', vehicleId: null };
  return { status: 'Accepted', vehicleId: null };
}

type RuleRow = {
  Id: number;
  ChargeType: number;
  TemporaryChargeType: number;
  UnitPriceCents: number;
  TimeUnit: number | null;
  FreeMinutes: number;
  CapCents: number | null;
};

/**
 * The rule that prices a session on a socket of this zone: the vehicle's pass valid at the start under a
 * "monthly with charging" rule (2) linked to the zone, else the zone's enabled temporary charging rule (3;
 * at most one per zone, the rule screens hold that). None: the zone does not sell charging.
 */
export async function sessionRule(
  k: Kysely<Database>,
  zoneId: number,
  vehicleId: number | null,
  at: number,
): Promise<RuleRow | undefined> {
  const columns = [
    'ChargeRule.Id',
    'ChargeRule.ChargeType',
    'ChargeRule.TemporaryChargeType',
    'ChargeRule.UnitPriceCents',
    'ChargeRule.TimeUnit',
    'ChargeRule.FreeMinutes',
    'ChargeRule.CapCents',
  ] as const;
  if (vehicleId !== null) {
    const pass = await k
      .selectFrom('MonthlyPass')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'MonthlyPass.ChargeRuleId')
      .innerJoin('ParkAreaChargeRule', 'ParkAreaChargeRule.ChargeRuleId', 'ChargeRule.Id')
      .select(columns)
      .where('MonthlyPass.VehicleId', '=', vehicleId)
      .where('MonthlyPass.StartAt', '<=', at)
      .where('MonthlyPass.EndAt', '>', at)
      .where('ChargeRule.ChargeType', '=', 2)
      .where('ParkAreaChargeRule.ParkAreaId', '=', zoneId)
      .executeTakeFirst();
    if (pass) return pass;
  }
  return k
    .selectFrom('ChargeRule')
    .innerJoin('ParkAreaChargeRule', 'ParkAreaChargeRule.ChargeRuleId', 'ChargeRule.Id')
    .select(columns)
    .where('ParkAreaChargeRule.ParkAreaId', '=', zoneId)
    .where('ChargeRule.ChargeType', '=', 3)
    .where('ChargeRule.Disabled', '=', 0)
    .orderBy('ChargeRule.Id')
    .executeTakeFirst();
}

export interface OpenSessionInput {
  socketId: number;
  cardNumber: string;
  /** When the device says the session started (it may arrive late, from its offline queue). */
  startAt: number;
  /** The device's energy register at the start (Wh). */
  meterStartWh: number;
}

export type OpenSessionResult =
  | { status: 'Accepted'; recordId: number; repeated: boolean }
  | { status: Exclude<CardStatus, 'Accepted'> | 'NoRule' };

/** chargeStopReason of a session that was still open when the same socket started another. */
const STOP_SUPERSEDED = 5;

/**
 * Opens a session and its order (terms copied from the rule). A repeat of the same start (socket, start time,
 * card) returns the session opened the first time. A session still open on the socket ended unreported
 * (its stop was lost): it is closed at the new start with stop reason 5 and its energy so far, then priced.
 */
export async function openDeviceSession(
  ctx: AreaContext,
  input: OpenSessionInput,
): Promise<OpenSessionResult> {
  const k = ctx.db.kysely;
  const repeat = () =>
    k
      .selectFrom('ChargeRecord')
      .select('Id')
      .where('ChargeEquipmentId', '=', input.socketId)
      .where('StartAt', '=', input.startAt)
      .where('CardNumber', '=', input.cardNumber)
      .executeTakeFirst();
  const earlier = await repeat();
  if (earlier) return { status: 'Accepted', recordId: earlier.Id, repeated: true };

  const card = await checkCard(ctx, input.cardNumber, input.startAt);
  if (card.status !== 'Accepted') return { status: card.status };
  const socket = await k
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select(['ChargeHost.ParkAreaId'])
    .where('ChargeEquipment.Id', '=', input.socketId)
    .where('ChargeEquipment.AreaId', '=', ctx.areaId)
    .executeTakeFirstOrThrow();
  const rule = await sessionRule(k, socket.ParkAreaId, card.vehicleId, input.startAt);
  if (!rule) return { status: 'NoRule' };
  const zone = await areaTimeZone(k, ctx.areaId);

  try {
    const recordId = await k.transaction().execute(async (trx) => {
      const open = await trx
        .selectFrom('ChargeRecord')
        .select(['Id', 'StartAt', 'EnergyWh'])
        .where('ChargeEquipmentId', '=', input.socketId)
        .where('EndAt', 'is', null)
        .executeTakeFirst();
      if (open) {
        await endSession(
          ctx,
          trx,
          open.Id,
          Math.max(open.StartAt, input.startAt),
          open.EnergyWh,
          STOP_SUPERSEDED,
        );
      }
      const now = ctx.clock.now();
      const record = await trx
        .insertInto('ChargeRecord')
        .values({
          AreaId: ctx.areaId,
          ChargeEquipmentId: input.socketId,
          CardNumber: input.cardNumber,
          StartAt: input.startAt,
          EndAt: null,
          EnergyWh: 0,
          StopReason: null,
          MeterStartWh: input.meterStartWh,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('ChargeOrder')
        .values({
          AreaId: ctx.areaId,
          ChargeRecordId: record.Id,
          // Longer than the seeded numbers (7-digit sequence), so a live order never takes a demo one's number.
          OrderNo: `CD${localDateKey(input.startAt, zone).replaceAll('-', '')}${String(record.Id).padStart(9, '0')}`,
          ChargeRuleId: rule.Id,
          ChargeType: rule.ChargeType,
          TemporaryChargeType: rule.TemporaryChargeType,
          UnitPriceCents: rule.UnitPriceCents,
          TimeUnit: rule.TimeUnit,
          FreeMinutes: rule.FreeMinutes,
          CapCents: rule.CapCents,
          AmountCents: null,
          PaymentState: 0,
          PaidAt: null,
          RefundReason: null,
          CloseReason: null,
          CreatedAt: input.startAt,
          SettledAt: null,
          UpdatedAt: now,
        })
        .execute();
      return record.Id;
    });
    return { status: 'Accepted', recordId, repeated: false };
  } catch (error) {
    // The same start racing itself (a retry while the first was being written): the unique open-session
    // index refused the second; the first is the answer.
    const raced = await repeat();
    if (raced) return { status: 'Accepted', recordId: raced.Id, repeated: true };
    throw error;
  }
}

/** A rule's safety limits (migration 0008), each null when not set. */
export interface SafetyLimits {
  MaxDurationMinutes: number | null;
  MaxPowerW: number | null;
  FullPowerW: number | null;
  FullMinutes: number | null;
}

export interface MeteredSession {
  energyWh: number;
  startAt: number;
  /** The running estimate with the order's copied terms (the final price's function at now). */
  estimatedCents: number | null;
  /** The limits of the rule that priced the session (safety rules), and a stop Gatehouse already asked for. */
  limits: SafetyLimits | null;
  stopRequest: number | null;
}

/**
 * A meter reading of a running session: EnergyWh becomes register − start, never lower than before (a late
 * reading changes nothing). Returns the session's energy and estimate, or undefined when it is not open on
 * this socket.
 */
export async function meterDeviceSession(
  ctx: AreaContext,
  input: { recordId: number; socketId: number; registerWh: number },
): Promise<MeteredSession | undefined> {
  const k = ctx.db.kysely;
  const record = await k
    .selectFrom('ChargeRecord')
    .select(['EnergyWh', 'MeterStartWh', 'StartAt', 'StopRequest'])
    .where('Id', '=', input.recordId)
    .where('ChargeEquipmentId', '=', input.socketId)
    .where('EndAt', 'is', null)
    .executeTakeFirst();
  if (!record) return undefined;
  const energyWh = Math.max(record.EnergyWh, input.registerWh - (record.MeterStartWh ?? 0));
  if (energyWh !== record.EnergyWh) {
    await k
      .updateTable('ChargeRecord')
      .set({ EnergyWh: energyWh })
      .where('Id', '=', input.recordId)
      .where('EndAt', 'is', null)
      .execute();
  }
  const order = await k
    .selectFrom('ChargeOrder')
    .leftJoin('ChargeRule', 'ChargeRule.Id', 'ChargeOrder.ChargeRuleId')
    .selectAll('ChargeOrder')
    .select([
      'ChargeRule.MaxDurationMinutes',
      'ChargeRule.MaxPowerW',
      'ChargeRule.FullPowerW',
      'ChargeRule.FullMinutes',
    ])
    .where('ChargeOrder.ChargeRecordId', '=', input.recordId)
    .executeTakeFirst();
  const now = ctx.clock.now();
  return {
    energyWh,
    startAt: record.StartAt,
    estimatedCents: order
      ? estimateSession(
          tariffOf(order),
          { StartAt: record.StartAt, EnergyWh: energyWh },
          Math.max(now, record.StartAt),
        ).AmountCents
      : null,
    limits: order
      ? {
          MaxDurationMinutes: order.MaxDurationMinutes ?? null,
          MaxPowerW: order.MaxPowerW ?? null,
          FullPowerW: order.FullPowerW ?? null,
          FullMinutes: order.FullMinutes ?? null,
        }
      : null,
    stopRequest: record.StopRequest,
  };
}

/**
 * Gatehouse asks the device to stop a session for a reason of its own (a safety rule): recorded on the
 * session (its StopTransaction then ends it with this reason) and audited with the caller. False when the
 * session is not running or a stop is already asked for.
 */
export async function requestSessionStop(
  ctx: AreaContext,
  recordId: number,
  stopReason: number,
  why: Record<string, unknown>,
): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const claimed = await trx
      .updateTable('ChargeRecord')
      .set({ StopRequest: stopReason, StopRequestedAt: now })
      .where('Id', '=', recordId)
      .where('EndAt', 'is', null)
      .where('StopRequest', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    await audit(
      ctx,
      {
        action: 'safetyStop',
        entity: 'ChargeRecord',
        entityId: recordId,
        before: null,
        after: { StopReason: stopReason, ...why },
      },
      trx,
    );
    return true;
  });
}

/** Drops a stop request the device refused or never received, so a later one can be made. */
export async function releaseSessionStop(ctx: AreaContext, recordId: number): Promise<void> {
  await ctx.db.kysely
    .updateTable('ChargeRecord')
    .set({ StopRequest: null, StopRequestedAt: null })
    .where('Id', '=', recordId)
    .where('EndAt', 'is', null)
    .execute();
}

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
    }
  | { closed: false; reason: 'unknown' | 'alreadyEnded' };

/** chargeStopReason 3: a forced power-off, whose record turns "power cut" (1) when the device's stop comes. */
const STOP_FORCED = 3;

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
    const record = await trx
      .selectFrom('ChargeRecord')
      .select(['Id', 'StartAt', 'EndAt', 'EnergyWh', 'MeterStartWh', 'StopRequest', 'EndProvisional'])
      .where('Id', '=', input.recordId)
      .where('ChargeEquipmentId', '=', input.socketId)
      .executeTakeFirst();
    if (!record) return { closed: false, reason: 'unknown' } as const;
    const energyWh = Math.max(record.EnergyWh, input.meterStopWh - (record.MeterStartWh ?? 0));
    // A device clock behind the start must not make a negative session.
    const endAt = Math.max(record.StartAt, input.endAt);
    if (record.EndAt !== null) {
      if (record.EndProvisional !== 1) return { closed: false, reason: 'alreadyEnded' } as const;
      return correctProvisionalEnd(ctx, trx, record.Id, record.StartAt, endAt, energyWh, input.stopReason);
    }
    const stopReason = record.StopRequest ?? input.stopReason;
    const settled = await endSession(ctx, trx, record.Id, endAt, energyWh, stopReason);
    if (!settled) return { closed: false, reason: 'alreadyEnded' } as const;
    if (record.StopRequest === STOP_FORCED) {
      // The power-off waiting for this stop (or that gave up waiting) is now true: power cut.
      await trx
        .updateTable('ForcedOutageRecord')
        .set({ Result: 1, ResultReason: null })
        .where('ChargeRecordId', '=', record.Id)
        .where('ResultReason', 'in', ['sending', 'noConfirmation'])
        .execute();
    }
    return {
      closed: true,
      corrected: false,
      orderId: settled.orderId,
      amountCents: settled.amountCents,
      energyWh,
      stopReason,
    };
  });
}

/** chargeStopReason 5: power failure. */
const STOP_POWER_FAILURE = 5;

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
): Promise<
  {
    recordId: number;
    socketId: number;
    portNumber: number;
    orderId: number | null;
    amountCents: number | null;
    energyWh: number;
  }[]
> {
  const k = ctx.db.kysely;
  const open = await k
    .selectFrom('ChargeRecord')
    .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
    ])
    .where('ChargeEquipment.ChargeHostId', '=', hostId)
    .where('ChargeRecord.AreaId', '=', ctx.areaId)
    .where('ChargeRecord.EndAt', 'is', null)
    .execute();
  const closed = [];
  for (const session of open) {
    const settled = await k.transaction().execute(async (trx) => {
      const done = await endSession(
        ctx,
        trx,
        session.Id,
        Math.max(session.StartAt, endAt),
        session.EnergyWh,
        STOP_POWER_FAILURE,
      );
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
        orderId: settled.orderId,
        amountCents: settled.amountCents,
        energyWh: session.EnergyWh,
      });
    }
  }
  return closed;
}

/**
 * The device's stop for a session Gatehouse ended as a power failure: its end and energy are the truth.
 * Once (EndProvisional goes back to 0 in a conditional UPDATE). The order is repriced while unpaid (0) with
 * the terms it copied; an order already in another state keeps its amount (money may have moved), and the
 * audit entry says so.
 */
async function correctProvisionalEnd(
  ctx: AreaContext,
  trx: Kysely<Database>,
  recordId: number,
  startAt: number,
  endAt: number,
  energyWh: number,
  deviceStopReason: number,
): Promise<CloseSessionResult> {
  const corrected = await trx
    .updateTable('ChargeRecord')
    .set({ EndAt: endAt, EnergyWh: energyWh, StopReason: deviceStopReason, EndProvisional: 0 })
    .where('Id', '=', recordId)
    .where('EndProvisional', '=', 1)
    .executeTakeFirst();
  if (Number(corrected.numUpdatedRows) !== 1) return { closed: false, reason: 'alreadyEnded' };
  const order = await trx
    .selectFrom('ChargeOrder')
    .selectAll()
    .where('ChargeRecordId', '=', recordId)
    .executeTakeFirst();
  if (!order) {
    return {
      closed: true,
      corrected: true,
      orderId: null,
      amountCents: null,
      energyWh,
      stopReason: deviceStopReason,
    };
  }
  const price = priceSession(tariffOf(order), { StartAt: startAt, EndAt: endAt, EnergyWh: energyWh });
  const repriced = order.PaymentState === 0;
  if (repriced) {
    await trx
      .updateTable('ChargeOrder')
      .set({ AmountCents: price.AmountCents, SettledAt: endAt, UpdatedAt: ctx.clock.now() })
      .where('Id', '=', order.Id)
      .where('PaymentState', '=', 0)
      .execute();
  }
  await audit(
    ctx,
    {
      action: 'settle.correct',
      entity: 'ChargeOrder',
      entityId: order.Id,
      before: { AmountCents: order.AmountCents, SettledAt: order.SettledAt },
      after: {
        AmountCents: repriced ? price.AmountCents : order.AmountCents,
        SettledAt: repriced ? endAt : order.SettledAt,
        EnergyWh: energyWh,
        StopReason: deviceStopReason,
        ...(repriced ? {} : { Repriced: false, Computed: price.AmountCents }),
      },
    },
    trx,
  );
  if (repriced && price.AmountCents === 0) {
    await transition(
      ctx,
      trx,
      'ChargeOrder',
      { Id: order.Id, PaymentState: 0, AmountCents: 0, Settled: true },
      { to: 1, actor: 'system' },
    );
  }
  return {
    closed: true,
    corrected: true,
    orderId: order.Id,
    amountCents: repriced ? price.AmountCents : order.AmountCents,
    energyWh,
    stopReason: deviceStopReason,
  };
}

/**
 * Ends one open session (conditional UPDATE: exactly once) and settles its order with the terms it copied:
 * the same priceSession call the live estimate makes, with the real end. A ¥0 order is closed by the system.
 */
async function endSession(
  ctx: AreaContext,
  trx: Kysely<Database>,
  recordId: number,
  endAt: number,
  energyWh: number,
  stopReason: number,
): Promise<{ orderId: number | null; amountCents: number | null } | undefined> {
  const ended = await trx
    .updateTable('ChargeRecord')
    .set({ EndAt: endAt, EnergyWh: energyWh, StopReason: stopReason })
    .where('Id', '=', recordId)
    .where('EndAt', 'is', null)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) !== 1) return undefined;
  const record = await trx
    .selectFrom('ChargeRecord')
    .select('StartAt')
    .where('Id', '=', recordId)
    .executeTakeFirstOrThrow();
  const order = await trx
    .selectFrom('ChargeOrder')
    .selectAll()
    .where('ChargeRecordId', '=', recordId)
    .executeTakeFirst();
  if (!order) return { orderId: null, amountCents: null };
  const price = priceSession(tariffOf(order), { StartAt: record.StartAt, EndAt: endAt, EnergyWh: energyWh });
  const now = ctx.clock.now();
  const settled = await trx
    .updateTable('ChargeOrder')
    .set({ AmountCents: price.AmountCents, SettledAt: endAt, UpdatedAt: now })
    .where('Id', '=', order.Id)
    .where('SettledAt', 'is', null)
    .executeTakeFirst();
  if (Number(settled.numUpdatedRows) !== 1) return { orderId: order.Id, amountCents: order.AmountCents };
  await audit(
    ctx,
    {
      action: 'settle',
      entity: 'ChargeOrder',
      entityId: order.Id,
      before: { AmountCents: order.AmountCents, SettledAt: order.SettledAt },
      after: { AmountCents: price.AmountCents, SettledAt: endAt, EnergyWh: energyWh, StopReason: stopReason },
    },
    trx,
  );
  if (price.AmountCents === 0) {
    await transition(
      ctx,
      trx,
      'ChargeOrder',
      { Id: order.Id, PaymentState: order.PaymentState, AmountCents: 0, Settled: true },
      { to: 1, actor: 'system' },
    );
  }
  return { orderId: order.Id, amountCents: price.AmountCents };
}
