import { portStateFromOcpp, type OcppChargePointStatus, type OcppErrorCode } from '@gatehouse/shared';
import { deviceActor, systemActor, type AreaContext } from '../../platform/context.ts';
import {
  checkCard,
  closeDeviceSession,
  meterDeviceSession,
  openDeviceSession,
  releaseSessionStop,
  requestSessionStop,
  type SafetyLimits,
} from '../../modules/garage/index.ts';
import type { ChargePointClient, Connection } from './central-system.ts';
import { connectorKey, deviceTime, type HandlerDeps } from './handlers.ts';

/**
 * Authorize, StartTransaction, MeterValues and StopTransaction (docs/chargers.md, "Sessions"). The OCPP
 * transactionId is the ChargeRecord's Id. Every handler is safe under the retries charge points make: the
 * same StartTransaction returns the same id, a repeated StopTransaction changes nothing, a late meter
 * reading never lowers the energy.
 */

// Shapes from the official OCPP 1.6 schemas, validated by strict mode before a handler runs.
interface SampledValue {
  value: string;
  context?: string;
  format?: 'Raw' | 'SignedData';
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}
interface MeterValue {
  timestamp: string;
  sampledValue: SampledValue[];
}
interface StartTransactionReq {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
}
interface MeterValuesReq {
  connectorId: number;
  transactionId?: number;
  meterValue: MeterValue[];
}
interface StopTransactionReq {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: string;
  transactionData?: MeterValue[];
}

/** transactionId answered to a refused StartTransaction: no session exists, its StopTransaction finds none. */
export const REFUSED_TRANSACTION_ID = 0;

/**
 * chargeStopReason from StopTransaction.reason (absent means Local) and what the connector showed before:
 * SuspendedEV (the pack stopped drawing) means the battery was full.
 */
export function stopReasonFromOcpp(reason: string | undefined, lastStatus: string | null): number {
  if (lastStatus === 'SuspendedEV') return 0;
  switch (reason) {
    case 'EmergencyStop':
    case 'Other':
      return 4;
    case 'PowerLoss':
    case 'HardReset':
    case 'SoftReset':
    case 'Reboot':
      return 5;
    default:
      // Local, EVDisconnected, UnlockCommand, Remote (the user's app; an operator's power-off ends the session
      // in Gatehouse before the stop arrives), DeAuthorized.
      return 1;
  }
}

/**
 * A sampled value as Wh or W. OCPP defaults: measurand Energy.Active.Import.Register, unit Wh. Signed data and
 * per-phase values (the total comes without a phase) are skipped.
 */
export function readSample(sample: SampledValue): { measurand: string; value: number } | undefined {
  if (sample.format === 'SignedData' || sample.phase !== undefined) return undefined;
  const measurand = sample.measurand ?? 'Energy.Active.Import.Register';
  const raw = Number(sample.value);
  if (!Number.isFinite(raw)) return undefined;
  const unit = sample.unit ?? (measurand.startsWith('Energy') ? 'Wh' : 'W');
  const value = unit === 'kWh' || unit === 'kW' ? raw * 1000 : raw;
  return { measurand, value };
}

/** The newest energy register (Wh) and power (W) in a MeterValues or a StopTransaction's transactionData. */
export function latestReadings(values: MeterValue[]): { registerWh?: number; powerW?: number } {
  const sorted = [...values].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const out: { registerWh?: number; powerW?: number } = {};
  for (const mv of sorted) {
    for (const sample of mv.sampledValue) {
      const read = readSample(sample);
      if (!read) continue;
      if (read.measurand === 'Energy.Active.Import.Register') out.registerWh = Math.round(read.value);
      if (read.measurand === 'Power.Active.Import') out.powerW = read.value;
    }
  }
  return out;
}

/** A safety limit a running session crossed, and the stop reason Gatehouse records for it. */
export interface SafetyStop {
  rule: 'MaxDurationMinutes' | 'MaxPowerW' | 'StopWhenFull';
  limit: number;
  value: number;
  stopReason: number;
}

/** chargeStopReason: 0 fully charged, 2 paid time used up, 4 device fault. */
const STOP_FULL = 0;
const STOP_TIME_UP = 2;
const STOP_FAULT = 4;

/**
 * Which safety limit of the session's rule a reading crosses, if any: power above the maximum (the pack or
 * charger misbehaves: stop reason 4, a fault), duration beyond the maximum (2, time used up), or power below
 * the "full" threshold for the set minutes (0, fully charged; `fullSince` keeps when the low power began, per
 * connector). Nothing when a stop was already asked for.
 */
export function safetyLimitCrossed(
  session: { startAt: number; limits: SafetyLimits | null; stopRequest: number | null },
  powerW: number | undefined,
  key: string,
  now: number,
  fullSince: Map<string, number>,
): SafetyStop | undefined {
  const limits = session.limits;
  if (!limits || session.stopRequest !== null) return undefined;
  if (limits.MaxPowerW !== null && powerW !== undefined && powerW > limits.MaxPowerW) {
    return { rule: 'MaxPowerW', limit: limits.MaxPowerW, value: powerW, stopReason: STOP_FAULT };
  }
  const minutes = Math.floor((now - session.startAt) / 60_000);
  if (limits.MaxDurationMinutes !== null && minutes >= limits.MaxDurationMinutes) {
    return {
      rule: 'MaxDurationMinutes',
      limit: limits.MaxDurationMinutes,
      value: minutes,
      stopReason: STOP_TIME_UP,
    };
  }
  if (limits.FullPowerW !== null && limits.FullMinutes !== null && powerW !== undefined) {
    if (powerW >= limits.FullPowerW) {
      fullSince.delete(key);
      return undefined;
    }
    const since = fullSince.get(key) ?? now;
    fullSince.set(key, since);
    const low = Math.floor((now - since) / 60_000);
    if (low >= limits.FullMinutes) {
      fullSince.delete(key);
      return { rule: 'StopWhenFull', limit: limits.FullPowerW, value: powerW, stopReason: STOP_FULL };
    }
  }
  return undefined;
}

export function registerTransactionHandlers(
  client: ChargePointClient,
  connection: Connection,
  deps: HandlerDeps,
): void {
  const { db, clock, events, log } = deps;
  const k = db.kysely;
  const ctx = (): AreaContext => ({
    db,
    clock,
    lang: 'en',
    actor: deviceActor(connection.hostId, connection.serial),
    areaId: connection.areaId,
  });
  const ref = () => ({
    hostId: connection.hostId,
    areaId: connection.areaId,
    serial: connection.serial,
    at: clock.now(),
  });
  const socketOf = (connectorId: number) =>
    k
      .selectFrom('ChargeEquipment')
      .select(['Id', 'State', 'Disabled', 'OcppStatus', 'OcppErrorCode', 'OcppVendorErrorCode'])
      .where('ChargeHostId', '=', connection.hostId)
      .where('PortNumber', '=', connectorId)
      .executeTakeFirst();

  client.handle('Authorize', async ({ params }) => {
    const { idTag } = params as { idTag: string };
    connection.lastSeenAt = clock.now();
    const card = await checkCard(ctx(), idTag, clock.now());
    return { idTagInfo: { status: card.status } };
  });

  client.handle('StartTransaction', async ({ params }) => {
    const start = params as unknown as StartTransactionReq;
    connection.lastSeenAt = clock.now();
    const refuse = (status: string) => ({ idTagInfo: { status }, transactionId: REFUSED_TRANSACTION_ID });
    const socket = await socketOf(start.connectorId);
    if (!socket) {
      log.warn(
        { chargePoint: connection.serial, connectorId: start.connectorId },
        'ocpp: start on an unknown connector',
      );
      return refuse('Invalid');
    }
    // The operator disabled the socket: nothing starts there, whichever card.
    if (socket.Disabled) return refuse('Blocked');
    const opened = await openDeviceSession(ctx(), {
      socketId: socket.Id,
      cardNumber: start.idTag,
      startAt: deviceTime(start.timestamp, clock.now()),
      meterStartWh: start.meterStart,
    });
    if (opened.status !== 'Accepted') {
      // No rule prices charging in this zone: refused like an unusable card (OCPP has no closer answer).
      if (opened.status === 'NoRule') {
        log.warn(
          { chargePoint: connection.serial, connectorId: start.connectorId },
          'ocpp: no charging rule for the zone',
        );
      }
      return refuse(opened.status === 'NoRule' ? 'Invalid' : opened.status);
    }
    if (!opened.repeated) {
      events.emit('sessionStarted', {
        ...ref(),
        socketId: socket.Id,
        portNumber: start.connectorId,
        recordId: opened.recordId,
      });
    }
    return { idTagInfo: { status: 'Accepted' }, transactionId: opened.recordId };
  });

  client.handle('MeterValues', async ({ params }) => {
    const meter = params as unknown as MeterValuesReq;
    connection.lastSeenAt = clock.now();
    const readings = latestReadings(meter.meterValue);
    const key = connectorKey(connection.hostId, meter.connectorId);
    if (readings.powerW !== undefined) deps.lastPowerW.set(key, readings.powerW);
    if (meter.connectorId === 0) return {};
    const socket = await socketOf(meter.connectorId);
    if (!socket) return {};
    // Float charge is read from the power: a Charging connector below the threshold changes state here.
    if (readings.powerW !== undefined && socket.OcppStatus === 'Charging' && !socket.Disabled) {
      const state = portStateFromOcpp({
        status: socket.OcppStatus as OcppChargePointStatus,
        errorCode: (socket.OcppErrorCode ?? 'NoError') as OcppErrorCode,
        powerW: readings.powerW,
      });
      if (state !== socket.State) {
        await k
          .updateTable('ChargeEquipment')
          .set({ State: state, StateChangedAt: clock.now() })
          .where('Id', '=', socket.Id)
          .execute();
        events.emit('socketState', {
          ...ref(),
          socketId: socket.Id,
          portNumber: meter.connectorId,
          state,
          previousState: socket.State,
          ocppStatus: socket.OcppStatus,
          errorCode: socket.OcppErrorCode ?? 'NoError',
          vendorErrorCode: socket.OcppVendorErrorCode,
        });
      }
    }
    if (meter.transactionId === undefined || readings.registerWh === undefined) return {};
    const session = await meterDeviceSession(ctx(), {
      recordId: meter.transactionId,
      socketId: socket.Id,
      registerWh: readings.registerWh,
    });
    if (session) {
      events.emit('meter', {
        ...ref(),
        socketId: socket.Id,
        portNumber: meter.connectorId,
        recordId: meter.transactionId,
        startAt: session.startAt,
        energyWh: session.energyWh,
        powerW: readings.powerW ?? null,
        estimatedCents: session.estimatedCents,
      });
      const crossed = safetyLimitCrossed(session, readings.powerW, key, clock.now(), deps.fullSince);
      // Answered first; the stop is a call of our own to the charge point, made after this reply.
      if (crossed) setImmediate(() => void stopForSafety(meter.transactionId!, crossed));
    } else {
      deps.fullSince.delete(key);
    }
    return {};
  });

  /**
   * Gatehouse stops the session itself (RemoteStopTransaction) and records why (docs/chargers.md, "Safety
   * rules"): the request is stored on the session first, so the charge point's StopTransaction ends it with
   * this stop reason; a refusal or no answer releases it (the next reading tries again) and is logged.
   */
  const stopForSafety = async (recordId: number, crossed: SafetyStop) => {
    try {
      const requested = await requestSessionStop(
        { ...ctx(), actor: systemActor('safety rule') },
        recordId,
        crossed.stopReason,
        { Rule: crossed.rule, Limit: crossed.limit, Value: crossed.value },
      );
      if (!requested) return;
      log.info({ chargePoint: connection.serial, recordId, ...crossed }, 'ocpp: safety rule stops a session');
      let accepted = false;
      try {
        const conf = (await client.call('RemoteStopTransaction', { transactionId: recordId })) as {
          status: string;
        };
        accepted = conf.status === 'Accepted';
      } catch (error) {
        log.warn({ err: error, chargePoint: connection.serial, recordId }, 'ocpp: safety stop not delivered');
      }
      if (!accepted) await releaseSessionStop(ctx(), recordId);
    } catch (error) {
      log.error({ err: error, recordId }, 'ocpp: safety stop failed');
    }
  };

  client.handle('StopTransaction', async ({ params }) => {
    const stop = params as unknown as StopTransactionReq;
    connection.lastSeenAt = clock.now();
    const answer = stop.idTag !== undefined ? { idTagInfo: { status: 'Accepted' } } : {};
    // StopTransaction names no connector: the session's socket must be one of this host's.
    const record = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .select([
        'ChargeRecord.Id',
        'ChargeEquipment.Id as SocketId',
        'ChargeEquipment.PortNumber',
        'ChargeEquipment.OcppStatus',
      ])
      .where('ChargeRecord.Id', '=', stop.transactionId)
      .where('ChargeEquipment.ChargeHostId', '=', connection.hostId)
      .executeTakeFirst();
    if (!record) return answer;
    const finalReading = latestReadings(stop.transactionData ?? []).registerWh;
    const stopReason = stopReasonFromOcpp(stop.reason, record.OcppStatus);
    const closed = await closeDeviceSession(ctx(), {
      recordId: record.Id,
      socketId: record.SocketId,
      endAt: deviceTime(stop.timestamp, clock.now()),
      meterStopWh: Math.max(stop.meterStop, finalReading ?? 0),
      stopReason,
    });
    deps.lastPowerW.delete(connectorKey(connection.hostId, record.PortNumber));
    if (closed.closed) {
      events.emit('sessionEnded', {
        ...ref(),
        socketId: record.SocketId,
        portNumber: record.PortNumber,
        recordId: record.Id,
        orderId: closed.orderId,
        amountCents: closed.amountCents,
        energyWh: closed.energyWh,
        stopReason: closed.stopReason,
        corrected: closed.corrected,
      });
    }
    return answer;
  });
}
