import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { STOP_REASON, hostStatusFromOcpp, type OcppChargePointStatus } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import {
  closeDroppedSession,
  chargePointBooted,
  chargePointSeen,
  chargePointStatus,
  connectorReported,
} from '../../modules/garage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { AreaContext } from '../../platform/context.ts';
import { deviceContext, handle, type ChargePointClient, type Connection } from './connection.ts';
import type { InboundActions } from './messages.gen.ts';
import type { OcppEvents } from './events.ts';
import { statusHeat } from './heat.ts';
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

/** What every handler of one charge point's calls works with: its connection, context, events and log. */
export interface ChargePointLink {
  client: ChargePointClient;
  connection: Connection;
  events: HandlerDeps['events'];
  log: FastifyBaseLogger;
  heartbeatSeconds: number;
  now(): number;
  /** The context its messages act in: its host as the device actor, in its area. */
  ctx(): AreaContext;
  /** The host as events name it, at now. */
  ref(): ReturnType<typeof hostRef>;
  /** Any message proves the charge point alive (the in-memory time; the column follows at most every 30 s). */
  seen(): void;
}

export function chargePointLink(
  client: ChargePointClient,
  connection: Connection,
  deps: HandlerDeps,
): ChargePointLink {
  return {
    client,
    connection,
    events: deps.events,
    log: deps.log,
    heartbeatSeconds: deps.heartbeatSeconds,
    now: () => deps.clock.now(),
    ctx: () => deviceContext(connection, deps.db, deps.clock),
    ref: () => hostRef(connection, deps.clock),
    seen: () => {
      connection.lastSeenAt = deps.clock.now();
    },
  };
}

/**
 * Registers the charge point's presence calls (BootNotification, Heartbeat, DataTransfer, StatusNotification;
 * the rest but the transaction calls get NotImplemented). What they change goes through the garage's
 * device-facing services; this file speaks OCPP only.
 */
export function registerHandlers(client: ChargePointClient, connection: Connection, deps: HandlerDeps): void {
  const link = chargePointLink(client, connection, deps);
  let lastSeenWritten = 0;
  /** Every message proves the charge point alive; the column follows at most every LAST_SEEN_WRITE_MS. */
  const touch = async () => {
    link.seen();
    if (link.now() - lastSeenWritten < LAST_SEEN_WRITE_MS) return;
    lastSeenWritten = link.now();
    await chargePointSeen(link.ctx(), connection.hostId);
  };
  handle(client, 'BootNotification', async (boot) => {
    const conf = await bootNotification(link, boot);
    if (conf.status === 'Accepted') lastSeenWritten = link.now();
    return conf;
  });
  handle(client, 'Heartbeat', async () => {
    connection.lastHeartbeatAt = link.now();
    await touch();
    link.events.emit('heartbeat', link.ref());
    return { currentTime: new Date(link.now()).toISOString() };
  });
  // No vendor extensions are agreed with any charger: the answer OCPP defines for that.
  handle(client, 'DataTransfer', async () => {
    await touch();
    return { status: 'UnknownVendorId' };
  });
  handle(client, 'StatusNotification', async (report) => {
    await touch();
    return statusNotification(link, report);
  });
}

type Req<A extends keyof InboundActions> = InboundActions[A]['req'];
type Conf<A extends keyof InboundActions> = InboundActions[A]['conf'];

async function bootNotification(
  link: ChargePointLink,
  boot: Req<'BootNotification'>,
): Promise<Conf<'BootNotification'>> {
  const currentTime = new Date(link.now()).toISOString();
  const interval = link.heartbeatSeconds;
  // Rejected with an interval (host disabled or retyped since the handshake) makes the charge point ask
  // again later instead of hammering.
  if (!(await chargePointBooted(link.ctx(), link.connection.hostId, boot))) {
    return { status: 'Rejected', currentTime, interval };
  }
  link.connection.bootedAt = link.now();
  // A restarted charger starts over: the sessions it carries are the ones it names from now on.
  link.connection.carried.clear();
  link.seen();
  link.events.emit('boot', {
    ...link.ref(),
    vendor: boot.chargePointVendor,
    model: boot.chargePointModel,
    firmwareVersion: boot.firmwareVersion ?? null,
  });
  return { status: 'Accepted', currentTime, interval };
}

/**
 * Statuses a connector reports only without a transaction on it (OCPP 1.6, 4.9): after a restart they say the
 * charger no longer carries a session there. Faulted and Unavailable may hold one and say nothing about it.
 */
const NO_TRANSACTION: ReadonlySet<OcppChargePointStatus> = new Set([
  'Available',
  'Preparing',
  'Finishing',
  'Reserved',
]);

async function statusNotification(
  link: ChargePointLink,
  report: Req<'StatusNotification'>,
): Promise<Conf<'StatusNotification'>> {
  const { connection } = link;
  // HighTemperature puts the host in heat alarm, on connector 0 or any other; the report is applied as usual.
  await statusHeat(link, report);
  if (report.connectorId === 0) {
    const status = hostStatusFromOcpp(report.status);
    await chargePointStatus(link.ctx(), connection.hostId, status);
    link.events.emit('hostStatus', { ...link.ref(), status, errorCode: report.errorCode });
    return {};
  }
  const applied = await connectorReported(link.ctx(), {
    hostId: connection.hostId,
    connectorId: report.connectorId,
    status: report.status,
    errorCode: report.errorCode,
    vendorErrorCode: report.vendorErrorCode ?? null,
    reportedAt: deviceTime(report.timestamp, link.now()),
  });
  if (applied.outcome === 'unknownConnector') {
    // A connector Gatehouse has no socket for (PortCount set lower than the hardware has): answered, since
    // the message is valid, and logged for the operator to fix the host.
    link.log.warn(
      { chargePoint: connection.serial, connectorId: report.connectorId },
      'ocpp: unknown connector',
    );
  }
  if (applied.outcome !== 'applied') return {};
  link.events.emit('socketState', {
    ...link.ref(),
    ...applied.change,
    portNumber: report.connectorId,
    ocppStatus: report.status,
    errorCode: report.errorCode,
    vendorErrorCode: report.vendorErrorCode ?? null,
  });
  if (connection.bootedAt !== undefined && NO_TRANSACTION.has(report.status)) {
    // Restarted, and the socket is free of any transaction: a session Gatehouse holds there ended with the
    // restart, at the time the charger gives (its report's, else its boot's). Closed now, not after the
    // reconciliation's wait or the offline grace period (issue 27).
    const reportedAt =
      report.timestamp !== undefined ? deviceTime(report.timestamp, link.now()) : connection.bootedAt;
    const dropped = await closeDroppedSession(link.ctx(), {
      socketId: applied.change.socketId,
      reportedAt,
      carried: connection.carried,
    });
    if (dropped) {
      link.log.info(
        { chargePoint: connection.serial, recordId: dropped.recordId },
        'ocpp: the charger restarted without a session: ended by the charger',
      );
      link.events.emit('sessionEnded', {
        ...link.ref(),
        socketId: dropped.socketId,
        portNumber: dropped.portNumber,
        recordId: dropped.recordId,
        orderId: dropped.orderId,
        amountCents: dropped.amountCents,
        energyWh: dropped.energyWh,
        stopReason: STOP_REASON.byCharger,
        powerOffRecordIds: [],
      });
    }
  }
  return {};
}
