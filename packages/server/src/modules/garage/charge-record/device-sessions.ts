import { STOP_REASON, localDateKey } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { emitSession } from './events.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { storeFullSince } from '../charge-equipment/connector.ts';
import { RULE_TERMS } from '../charge-rule/service.ts';
import { areaTimeZone } from '../common/index.ts';
import { orderAmount } from '../common/pricing.ts';
import type { TariffColumns } from '../tables.ts';
import { startRefusal, type StartRefusal } from './admission.ts';
import { safetyLimitCrossed, type SafetyStop } from './safety.ts';
import { socketSessions } from './service.ts';
import { storeSessionReading, type SessionReading } from './meter.ts';
import { endSession } from './settlement.ts';

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

/** A rule's terms, as an order copies them. */
type RuleRow = TariffColumns & { Id: number };

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
  const columns = ['ChargeRule.Id', ...RULE_TERMS] as const;
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
  | { status: Exclude<CardStatus, 'Accepted'> | 'NoRule' | 'ConcurrentTx' }
  /** A safety state of the socket's host or zone refuses every start there now. */
  | { status: 'Blocked'; refusal: StartRefusal };

/**
 * Opens a session and its order (terms copied from the rule). A repeat of the same start (socket, start time,
 * card) returns the session opened the first time. A card already charging on another socket is refused. A session still open on the socket ended unreported
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
  const refusal = await startRefusal(k, input.socketId);
  if (refusal) return { status: 'Blocked', refusal };

  const card = await checkCard(ctx, input.cardNumber, input.startAt);
  if (card.status !== 'Accepted') return { status: card.status };
  // One card charges one bike at a time: a card already charging on another socket is refused (ConcurrentTx).
  const elsewhere = await socketSessions(k, { areaId: ctx.areaId })
    .select('ChargeRecord.Id')
    .where('ChargeRecord.CardNumber', '=', input.cardNumber)
    .where('ChargeRecord.ChargeEquipmentId', '!=', input.socketId)
    .executeTakeFirst();
  if (elsewhere) return { status: 'ConcurrentTx' };
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
    const recordId = await k.transaction().execute((trx) => startSession(ctx, trx, input, rule, zone));
    return { status: 'Accepted', recordId, repeated: false };
  } catch (error) {
    // The same start racing itself (a retry while the first was being written): the unique open-session
    // index refused the second; the first is the answer.
    const raced = await repeat();
    if (raced) return { status: 'Accepted', recordId: raced.Id, repeated: true };
    throw error;
  }
}

/**
 * In one transaction: the session a lost stop left open on the socket ended (as a power failure, at the new
 * start), then the new session and its order with the terms copied from its rule.
 */
async function startSession(
  ctx: AreaContext,
  trx: Kysely<Database>,
  input: OpenSessionInput,
  rule: RuleRow,
  zone: string,
): Promise<number> {
  const open = await socketSessions(trx, { socketIds: [input.socketId] })
    .select(['ChargeRecord.Id', 'ChargeRecord.StartAt', 'ChargeRecord.EnergyWh'])
    .executeTakeFirst();
  if (open) {
    const endAt = Math.max(open.StartAt, input.startAt);
    await endSession(ctx, trx, open.Id, endAt, open.EnergyWh, STOP_REASON.powerFailure);
  }
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
  const { Id: ChargeRuleId, ...terms } = rule;
  await trx
    .insertInto('ChargeOrder')
    .values({
      AreaId: ctx.areaId,
      ChargeRecordId: record.Id,
      ChargeEquipmentId: input.socketId,
      // Longer than the seeded numbers (7-digit sequence), so a live order never takes a demo one's number.
      OrderNo: `CD${localDateKey(input.startAt, zone).replaceAll('-', '')}${String(record.Id).padStart(9, '0')}`,
      ChargeRuleId,
      ...terms,
      AmountCents: null,
      PaymentState: 0,
      PaidAt: null,
      RefundReason: null,
      CloseReason: null,
      CreatedAt: input.startAt,
      SettledAt: null,
      UpdatedAt: ctx.clock.now(),
    })
    .execute();
  await emitSession(ctx, trx, record.Id, 'charging.session.started', input.startAt);
  return record.Id;
}

export interface MeteredSession {
  energyWh: number;
  startAt: number;
  /** The running estimate with the order's copied terms (the final price's function at now). */
  estimatedCents: number | null;
  /** A safety limit of the session's rule this reading crossed: Gatehouse should stop the session. */
  safetyStop: SafetyStop | undefined;
}

/**
 * A meter reading of a running session: EnergyWh becomes register − start, never lower than before (a late
 * reading changes nothing). Returns the session's energy and estimate, or undefined when it is not open on
 * this socket.
 */
export async function meterDeviceSession(
  ctx: AreaContext,
  input: { recordId: number; socketId: number } & SessionReading,
): Promise<MeteredSession | undefined> {
  const k = ctx.db.kysely;
  const record = await socketSessions(k, { recordId: input.recordId, socketIds: [input.socketId] })
    .select(['ChargeRecord.StartAt', 'ChargeRecord.StopRequest'])
    .executeTakeFirst();
  if (!record) return undefined;
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
  // Energy, meter digest and "full since" (meter.ts): what the estimate here and the final price read.
  const meter = await storeSessionReading(ctx, input.recordId, order, input);
  if (!meter) return undefined;
  const now = ctx.clock.now();
  const limits = order
    ? {
        MaxDurationMinutes: order.MaxDurationMinutes ?? null,
        MaxPowerW: order.MaxPowerW ?? null,
        FullPowerW: order.FullPowerW ?? null,
        FullMinutes: order.FullMinutes ?? null,
      }
    : null;
  const socket = await k
    .selectFrom('ChargeEquipment')
    .select('FullSince')
    .where('Id', '=', input.socketId)
    .executeTakeFirstOrThrow();
  const safety = safetyLimitCrossed(
    { startAt: record.StartAt, limits, stopRequest: record.StopRequest },
    input.powerW,
    now,
    socket.FullSince,
  );
  if (safety.fullSince !== socket.FullSince) {
    await storeFullSince(k, input.socketId, safety.fullSince);
  }
  return {
    energyWh: meter.EnergyWh,
    startAt: record.StartAt,
    estimatedCents: order ? orderAmount(order, { ...meter, EndAt: null }, now).AmountCents : null,
    safetyStop: safety.crossed,
  };
}

/**
 * The session a charger's stop names, when it runs (or ran) on one of this host's sockets: a stop names no
 * connector, so a transaction id of another host's session finds nothing.
 */
export async function sessionOnHost(ctx: AreaContext, recordId: number, hostId: number) {
  return socketSessions(ctx.db.kysely, { recordId, hostId, areaId: ctx.areaId, open: false })
    .select([
      'ChargeRecord.Id',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.OcppStatus',
    ])
    .executeTakeFirst();
}
