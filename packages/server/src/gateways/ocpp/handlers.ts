import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { hostStatusFromOcpp } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import {
  chargePointBooted,
  chargePointSeen,
  chargePointStatus,
  connectorReported,
} from '../../modules/garage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { deviceContext, handle, type ChargePointClient, type Connection } from './connection.ts';
import type { OcppEvents } from './events.ts';
import { LAST_SEEN_WRITE_MS, deviceTime } from './protocol.ts';

export interface HandlerDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  heartbeatSeconds: number;
  events: EventEmitter<OcppEvents>;
}

/** The host a connection speaks for, as every event names it. */
export function hostRef(connection: Connection, clock: Clock) {
  return { hostId: connection.hostId, areaId: connection.areaId, serial: connection.serial, at: clock.now() };
}

/**
 * Registers the charge point's presence calls (BootNotification, Heartbeat, DataTransfer, StatusNotification;
 * the rest but the transaction calls get NotImplemented). What they change goes through the garage's
 * device-facing services; this file speaks OCPP only.
 */
export function registerHandlers(client: ChargePointClient, connection: Connection, deps: HandlerDeps): void {
  const { clock, events } = deps;
  const ctx = () => deviceContext(connection, deps.db, clock);
  const ref = () => hostRef(connection, clock);
  let lastSeenWritten = 0;

  /** Every message proves the charge point alive; the column follows at most every LAST_SEEN_WRITE_MS. */
  const touch = async () => {
    const now = clock.now();
    connection.lastSeenAt = now;
    if (now - lastSeenWritten < LAST_SEEN_WRITE_MS) return;
    lastSeenWritten = now;
    await chargePointSeen(ctx(), connection.hostId);
  };
  const currentTime = () => new Date(clock.now()).toISOString();

  handle(client, 'BootNotification', async (boot) => {
    // Rejected with an interval (host disabled or retyped since the handshake) makes the charge point ask
    // again later instead of hammering.
    if (!(await chargePointBooted(ctx(), connection.hostId, boot))) {
      return { status: 'Rejected', currentTime: currentTime(), interval: deps.heartbeatSeconds };
    }
    const now = clock.now();
    connection.bootedAt = now;
    connection.lastSeenAt = now;
    lastSeenWritten = now;
    events.emit('boot', {
      ...ref(),
      vendor: boot.chargePointVendor,
      model: boot.chargePointModel,
      firmwareVersion: boot.firmwareVersion ?? null,
    });
    return { status: 'Accepted', currentTime: currentTime(), interval: deps.heartbeatSeconds };
  });

  handle(client, 'Heartbeat', async () => {
    connection.lastHeartbeatAt = clock.now();
    await touch();
    events.emit('heartbeat', ref());
    return { currentTime: currentTime() };
  });

  // No vendor extensions are agreed with any charger: the answer OCPP defines for that.
  handle(client, 'DataTransfer', async () => {
    await touch();
    return { status: 'UnknownVendorId' };
  });

  handle(client, 'StatusNotification', async (report) => {
    await touch();
    if (report.connectorId === 0) {
      const status = hostStatusFromOcpp(report.status);
      await chargePointStatus(ctx(), connection.hostId, status);
      events.emit('hostStatus', { ...ref(), status, errorCode: report.errorCode });
      return {};
    }
    const applied = await connectorReported(ctx(), {
      hostId: connection.hostId,
      connectorId: report.connectorId,
      status: report.status,
      errorCode: report.errorCode,
      vendorErrorCode: report.vendorErrorCode ?? null,
      reportedAt: deviceTime(report.timestamp, clock.now()),
    });
    if (applied.outcome === 'unknownConnector') {
      // A connector Gatehouse has no socket for (PortCount set lower than the hardware has): answered, since
      // the message is valid, and logged for the operator to fix the host.
      deps.log.warn(
        { chargePoint: connection.serial, connectorId: report.connectorId },
        'ocpp: unknown connector',
      );
    }
    if (applied.outcome !== 'applied') return {};
    events.emit('socketState', {
      ...ref(),
      ...applied.change,
      portNumber: report.connectorId,
      ocppStatus: report.status,
      errorCode: report.errorCode,
      vendorErrorCode: report.vendorErrorCode ?? null,
    });
    return {};
  });
}
