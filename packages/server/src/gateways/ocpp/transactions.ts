import {
  closeDeviceSession,
  connectorPower,
  meterDeviceSession,
  openDeviceSession,
  requestSessionStop,
  releaseSessionStop,
  checkCard,
  sessionOnHost,
  socketOfConnector,
  type SafetyStop,
} from '../../modules/garage/index.ts';
import { systemActor } from '../../platform/context.ts';
import {
  callChargePoint,
  deviceContext,
  handle,
  type ChargePointClient,
  type Connection,
} from './connection.ts';
import { hostRef, type HandlerDeps } from './handlers.ts';
import { REFUSED_TRANSACTION_ID, deviceTime, latestReadings, stopReasonFromOcpp } from './protocol.ts';

/**
 * Authorize, StartTransaction, MeterValues and StopTransaction (docs/chargers.md, "Sessions"). The OCPP
 * transactionId is the ChargeRecord's Id. What they change goes through the garage's protocol-free session
 * services (charge-record/device-sessions.ts, settlement.ts), which are safe under the retries charge points
 * make: the same StartTransaction returns the same id, a repeated StopTransaction changes nothing, a late
 * meter reading never lowers the energy.
 */
export function registerTransactionHandlers(
  client: ChargePointClient,
  connection: Connection,
  deps: HandlerDeps,
): void {
  const { clock, events, log } = deps;
  const ctx = () => deviceContext(connection, deps.db, clock);
  const ref = () => hostRef(connection, clock);
  const seen = () => {
    connection.lastSeenAt = clock.now();
  };

  handle(client, 'Authorize', async ({ idTag }) => {
    seen();
    const card = await checkCard(ctx(), idTag, clock.now());
    return { idTagInfo: { status: card.status } };
  });

  handle(client, 'StartTransaction', async (start) => {
    seen();
    const refuse = (status: 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx') => ({
      idTagInfo: { status },
      transactionId: REFUSED_TRANSACTION_ID,
    });
    const socket = await socketOfConnector(ctx(), connection.hostId, start.connectorId);
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
    if (opened.status === 'NoRule') {
      // No rule prices charging in this zone: refused like an unusable card (OCPP has no closer answer).
      log.warn(
        { chargePoint: connection.serial, connectorId: start.connectorId },
        'ocpp: no charging rule for the zone',
      );
      return refuse('Invalid');
    }
    if (opened.status !== 'Accepted') return refuse(opened.status);
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

  handle(client, 'MeterValues', async (meter) => {
    seen();
    if (meter.connectorId === 0) return {};
    const readings = latestReadings(meter.meterValue);
    if (readings.powerW !== undefined) {
      const change = await connectorPower(ctx(), connection.hostId, meter.connectorId, readings.powerW);
      if (change) {
        events.emit('socketState', {
          ...ref(),
          ...change,
          portNumber: meter.connectorId,
          ocppStatus: 'Charging',
          errorCode: 'NoError',
          vendorErrorCode: null,
        });
      }
    }
    if (meter.transactionId === undefined || readings.registerWh === undefined) return {};
    const socket = await socketOfConnector(ctx(), connection.hostId, meter.connectorId);
    if (!socket) return {};
    const session = await meterDeviceSession(ctx(), {
      recordId: meter.transactionId,
      socketId: socket.Id,
      registerWh: readings.registerWh,
      powerW: readings.powerW,
    });
    if (!session) return {};
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
    const crossed = session.safetyStop;
    // Answered first; the stop is a call of our own to the charge point, made after this reply.
    if (crossed) setImmediate(() => void stopForSafety(meter.transactionId!, crossed));
    return {};
  });

  /**
   * Gatehouse stops the session itself (RemoteStopTransaction) and records why (docs/chargers.md, "Safety
   * rules"): the request is stored on the session first, so the charge point's StopTransaction ends it with
   * this stop reason; a refusal or no answer releases it (the next reading tries again) and is logged.
   */
  const stopForSafety = async (recordId: number, crossed: SafetyStop) => {
    try {
      const safety = { ...ctx(), actor: systemActor('safety rule') };
      const why = { Rule: crossed.rule, Limit: crossed.limit, Value: crossed.value };
      if (!(await requestSessionStop(safety, recordId, crossed.stopReason, why))) return;
      log.info({ chargePoint: connection.serial, recordId, ...crossed }, 'ocpp: safety rule stops a session');
      const conf = await callChargePoint(client, 'RemoteStopTransaction', { transactionId: recordId }).catch(
        (error: unknown) => {
          log.warn(
            { err: error, chargePoint: connection.serial, recordId },
            'ocpp: safety stop not delivered',
          );
          return undefined;
        },
      );
      if (conf?.status !== 'Accepted') await releaseSessionStop(deps.db.kysely, recordId, crossed.stopReason);
    } catch (error) {
      log.error({ err: error, recordId }, 'ocpp: safety stop failed');
    }
  };

  handle(client, 'StopTransaction', async (stop) => {
    seen();
    const answer = stop.idTag !== undefined ? { idTagInfo: { status: 'Accepted' as const } } : {};
    const record = await sessionOnHost(ctx(), stop.transactionId, connection.hostId);
    if (!record) return answer;
    const finalReading = latestReadings(stop.transactionData ?? []).registerWh;
    const closed = await closeDeviceSession(ctx(), {
      recordId: record.Id,
      socketId: record.SocketId,
      endAt: deviceTime(stop.timestamp, clock.now()),
      meterStopWh: Math.max(stop.meterStop, finalReading ?? 0),
      stopReason: stopReasonFromOcpp(stop.reason, record.OcppStatus),
    });
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
        powerOffRecordIds: closed.powerOffRecordIds,
      });
    }
    return answer;
  });
}
