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
import { callChargePoint, handle, type ChargePointClient, type Connection } from './connection.ts';
import { chargePointLink, type ChargePointLink, type HandlerDeps } from './handlers.ts';
import { meterHeat } from './heat.ts';
import type { InboundActions } from './messages.gen.ts';
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
  const link = chargePointLink(client, connection, deps);
  handle(client, 'Authorize', async ({ idTag }) => {
    link.seen();
    const card = await checkCard(link.ctx(), idTag, link.now());
    return { idTagInfo: { status: card.status } };
  });
  handle(client, 'StartTransaction', (start) => startTransaction(link, start));
  handle(client, 'MeterValues', (meter) => meterValues(link, meter));
  handle(client, 'StopTransaction', (stop) => stopTransaction(link, stop));
}

type Req<A extends keyof InboundActions> = InboundActions[A]['req'];
type Conf<A extends keyof InboundActions> = InboundActions[A]['conf'];

async function startTransaction(link: ChargePointLink, start: Req<'StartTransaction'>) {
  link.seen();
  const { connection, log } = link;
  const refuse = (status: 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'): Conf<'StartTransaction'> => ({
    idTagInfo: { status },
    transactionId: REFUSED_TRANSACTION_ID,
  });
  const where = { chargePoint: connection.serial, connectorId: start.connectorId };
  const socket = await socketOfConnector(link.ctx(), connection.hostId, start.connectorId);
  if (!socket) {
    log.warn(where, 'ocpp: start on an unknown connector');
    return refuse('Invalid');
  }
  // The operator disabled the socket: nothing starts there, whichever card.
  if (socket.Disabled) return refuse('Blocked');
  const opened = await openDeviceSession(link.ctx(), {
    socketId: socket.Id,
    cardNumber: start.idTag,
    startAt: deviceTime(start.timestamp, link.now()),
    meterStartWh: start.meterStart,
  });
  if (opened.status === 'NoRule') {
    // No rule prices charging in this zone: refused like an unusable card (OCPP has no closer answer).
    log.warn(where, 'ocpp: no charging rule for the zone');
    return refuse('Invalid');
  }
  if ('refusal' in opened)
    log.warn({ ...where, refusal: opened.refusal }, 'ocpp: start refused by a safety state');
  if (opened.status !== 'Accepted') return refuse(opened.status);
  connection.carried.add(opened.recordId);
  if (!opened.repeated) {
    const at = { socketId: socket.Id, portNumber: start.connectorId, recordId: opened.recordId };
    link.events.emit('sessionStarted', { ...link.ref(), ...at });
  }
  return { idTagInfo: { status: 'Accepted' }, transactionId: opened.recordId } as const;
}

async function meterValues(link: ChargePointLink, meter: Req<'MeterValues'>): Promise<Conf<'MeterValues'>> {
  link.seen();
  // Temperature, on connector 0 as in a transaction: above the zone's limit the host enters heat alarm.
  await meterHeat(link, meter);
  if (meter.connectorId === 0) return {};
  const { hostId } = link.connection;
  const readings = latestReadings(meter.meterValue);
  if (readings.powerW !== undefined) {
    // Float charge is read from the power: a Charging connector below the threshold changes state.
    // Stored with the reading's own time (bounded like every device time): a zone's live draw counts only
    // recent readings, and a MeterValues queued while offline must not pass for one (power budget).
    const at = deviceTime(readings.powerAt, link.now());
    const change = await connectorPower(link.ctx(), hostId, meter.connectorId, readings.powerW, at);
    if (change) {
      const report = { ocppStatus: 'Charging', errorCode: 'NoError', vendorErrorCode: null };
      link.events.emit('socketState', { ...link.ref(), ...change, portNumber: meter.connectorId, ...report });
    }
  }
  if (meter.transactionId === undefined || readings.registerWh === undefined) return {};
  const socket = await socketOfConnector(link.ctx(), hostId, meter.connectorId);
  if (!socket) return {};
  const recordId = meter.transactionId;
  link.connection.carried.add(recordId);
  const session = await meterDeviceSession(link.ctx(), {
    recordId,
    socketId: socket.Id,
    registerWh: readings.registerWh,
    powerW: readings.powerW,
    // The reading's own time: a queued reading sent after a reconnect is folded where it was taken.
    at: deviceTime(readings.registerAt, link.now()),
  });
  if (!session) return {};
  link.events.emit('meter', {
    ...link.ref(),
    socketId: socket.Id,
    portNumber: meter.connectorId,
    recordId,
    startAt: session.startAt,
    energyWh: session.energyWh,
    powerW: readings.powerW ?? null,
    estimatedCents: session.estimatedCents,
  });
  const crossed = session.safetyStop;
  // Answered first; the stop is a call of our own to the charge point, made after this reply.
  if (crossed) setImmediate(() => void stopForSafety(link, recordId, crossed));
  return {};
}

/**
 * Gatehouse stops the session itself (RemoteStopTransaction) and records why (docs/chargers.md, "Safety
 * rules"): the request is stored on the session first, so the charge point's StopTransaction ends it with
 * this stop reason; a refusal or no answer releases it (the next reading tries again) and is logged.
 */
async function stopForSafety(link: ChargePointLink, recordId: number, crossed: SafetyStop): Promise<void> {
  const { log, connection } = link;
  try {
    const safety = { ...link.ctx(), actor: systemActor('safety rule') };
    const why = { Rule: crossed.rule, Limit: crossed.limit, Value: crossed.value };
    if (!(await requestSessionStop(safety, recordId, crossed.stopReason, why))) return;
    log.info({ chargePoint: connection.serial, recordId, ...crossed }, 'ocpp: safety rule stops a session');
    const conf = await callChargePoint(link.client, 'RemoteStopTransaction', {
      transactionId: recordId,
    }).catch((error: unknown) => {
      log.warn({ err: error, chargePoint: connection.serial, recordId }, 'ocpp: safety stop not delivered');
      return undefined;
    });
    if (conf?.status !== 'Accepted')
      await releaseSessionStop(link.ctx().db.kysely, recordId, crossed.stopReason);
  } catch (error) {
    log.error({ err: error, recordId }, 'ocpp: safety stop failed');
  }
}

async function stopTransaction(link: ChargePointLink, stop: Req<'StopTransaction'>) {
  link.seen();
  const answer: Conf<'StopTransaction'> =
    stop.idTag !== undefined ? { idTagInfo: { status: 'Accepted' } } : {};
  // StopTransaction names no connector: the session's socket must be one of this host's.
  const record = await sessionOnHost(link.ctx(), stop.transactionId, link.connection.hostId);
  if (!record) return answer;
  link.connection.carried.add(record.Id);
  const finalReading = latestReadings(stop.transactionData ?? []).registerWh;
  const closed = await closeDeviceSession(link.ctx(), {
    recordId: record.Id,
    socketId: record.SocketId,
    endAt: deviceTime(stop.timestamp, link.now()),
    meterStopWh: Math.max(stop.meterStop, finalReading ?? 0),
    stopReason: stopReasonFromOcpp(stop.reason, record.OcppStatus),
  });
  if (closed.closed) {
    link.events.emit('sessionEnded', {
      ...link.ref(),
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
}
