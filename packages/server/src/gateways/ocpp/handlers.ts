import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  hostStatusFromOcpp,
  portStateFromOcpp,
  type OcppChargePointStatus,
  type OcppErrorCode,
} from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ChargePointClient, Connection } from './central-system.ts';
import type { OcppEvents } from './events.ts';

export interface HandlerDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  heartbeatSeconds: number;
  events: EventEmitter<OcppEvents>;
  /** Per host and connector: the newest StatusNotification timestamp applied (ms), across reconnections. */
  lastStatusAt: Map<string, number>;
  /** Per host and connector: the latest Power.Active.Import (W) of a running transaction, when metered. */
  lastPowerW: Map<string, number>;
  /** Per host and connector: since when the power is below the running rule's "full" threshold (ms). */
  fullSince: Map<string, number>;
}

/** LastSeenAt is written at most this often per host; the in-memory connection has the exact time. */
export const LAST_SEEN_WRITE_MS = 30_000;

// Request shapes from the official OCPP 1.6 schemas; strict mode has validated them before a handler runs.
interface BootNotificationReq {
  chargePointVendor: string;
  chargePointModel: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
  iccid?: string;
  imsi?: string;
  meterType?: string;
  meterSerialNumber?: string;
}

interface StatusNotificationReq {
  connectorId: number;
  errorCode: OcppErrorCode;
  status: OcppChargePointStatus;
  info?: string;
  timestamp?: string;
  vendorId?: string;
  vendorErrorCode?: string;
}

export const connectorKey = (hostId: number, connectorId: number) => `${hostId}:${connectorId}`;

/** How far back a charge point's timestamp is believed (an offline queue holds messages this long at most). */
export const MAX_DEVICE_CLOCK_LAG_MS = 7 * 24 * 3_600_000;

/**
 * A charge point's timestamp, as far as it can be believed: one in the future or older than
 * MAX_DEVICE_CLOCK_LAG_MS is a charger whose clock is not set (before its first sync), and reads as now.
 * Without this, one report from a clock set ahead would make every later, correct one look stale, and a clock
 * at 1970 would start a 56-year session.
 */
export function deviceTime(timestamp: string | undefined, now: number): number {
  const at = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isFinite(at) && at <= now && at >= now - MAX_DEVICE_CLOCK_LAG_MS ? at : now;
}

/** Registers the charge-point → central-system calls this gateway answers (the rest get NotImplemented). */
export function registerHandlers(client: ChargePointClient, connection: Connection, deps: HandlerDeps): void {
  const { db, clock, events } = deps;
  const k = db.kysely;
  const ref = () => ({
    hostId: connection.hostId,
    areaId: connection.areaId,
    serial: connection.serial,
    at: clock.now(),
  });
  let lastSeenWritten = 0;

  /** Every message proves the charge point alive; the column follows at most every LAST_SEEN_WRITE_MS. */
  const touch = async (force = false) => {
    const now = clock.now();
    connection.lastSeenAt = now;
    if (!force && now - lastSeenWritten < LAST_SEEN_WRITE_MS) return;
    lastSeenWritten = now;
    await k.updateTable('ChargeHost').set({ LastSeenAt: now }).where('Id', '=', connection.hostId).execute();
  };
  const currentTime = () => new Date(clock.now()).toISOString();

  client.handle('BootNotification', async ({ params }) => {
    const boot = params as unknown as BootNotificationReq;
    // The handshake checked the host; it may have been disabled or retyped since. Rejected with an interval
    // makes the charge point ask again later instead of hammering.
    const host = await k
      .selectFrom('ChargeHost')
      .select(['Disabled', 'ChargingSystemType'])
      .where('Id', '=', connection.hostId)
      .executeTakeFirst();
    if (!host || host.Disabled || host.ChargingSystemType !== 2) {
      return { status: 'Rejected', currentTime: currentTime(), interval: deps.heartbeatSeconds };
    }
    const now = clock.now();
    connection.bootedAt = now;
    lastSeenWritten = now;
    connection.lastSeenAt = now;
    await k
      .updateTable('ChargeHost')
      .set({ OcppBootInfo: JSON.stringify({ ...boot, bootedAt: now }), LastSeenAt: now })
      .where('Id', '=', connection.hostId)
      .execute();
    events.emit('boot', {
      ...ref(),
      vendor: boot.chargePointVendor,
      model: boot.chargePointModel,
      firmwareVersion: boot.firmwareVersion ?? null,
    });
    return { status: 'Accepted', currentTime: currentTime(), interval: deps.heartbeatSeconds };
  });

  client.handle('Heartbeat', async () => {
    connection.lastHeartbeatAt = clock.now();
    await touch();
    events.emit('heartbeat', ref());
    return { currentTime: currentTime() };
  });

  // No vendor extensions are agreed with any charger: the answer OCPP defines for that.
  client.handle('DataTransfer', async () => {
    await touch();
    return { status: 'UnknownVendorId' };
  });

  client.handle('StatusNotification', async ({ params }) => {
    const report = params as unknown as StatusNotificationReq;
    await touch();
    // A report older than one already applied (a retry, or sent late after a reconnect) changes nothing.
    const key = connectorKey(connection.hostId, report.connectorId);
    const reportedAt = deviceTime(report.timestamp, clock.now());
    const newest = deps.lastStatusAt.get(key);
    if (newest !== undefined && reportedAt < newest) return {};
    deps.lastStatusAt.set(key, reportedAt);

    if (report.connectorId === 0) {
      const status = hostStatusFromOcpp(report.status);
      await k
        .updateTable('ChargeHost')
        .set({ OcppStatus: status })
        .where('Id', '=', connection.hostId)
        .execute();
      events.emit('hostStatus', { ...ref(), status, errorCode: report.errorCode });
      return {};
    }

    const socket = await k
      .selectFrom('ChargeEquipment')
      .select(['Id', 'State', 'Disabled', 'OcppStatus'])
      .where('ChargeHostId', '=', connection.hostId)
      .where('PortNumber', '=', report.connectorId)
      .executeTakeFirst();
    if (!socket) {
      // A connector Gatehouse has no socket for (PortCount set lower than the hardware has): answered, since
      // the message is valid, and logged for the operator to fix the host.
      deps.log.warn(
        { chargePoint: connection.serial, connectorId: report.connectorId },
        'ocpp: unknown connector',
      );
      return {};
    }
    const powerW = deps.lastPowerW.get(key);
    // A socket the operator disabled stays disabled (12) whatever the hardware says; the report is kept.
    const state = socket.Disabled
      ? 12
      : portStateFromOcpp({
          status: report.status,
          errorCode: report.errorCode,
          ...(report.vendorErrorCode !== undefined ? { vendorErrorCode: report.vendorErrorCode } : {}),
          ...(powerW !== undefined ? { powerW } : {}),
          // Finishing right after SuspendedEV: the pack stopped drawing, the session ended full.
          endedFull: socket.OcppStatus === 'SuspendedEV',
        });
    const now = clock.now();
    await k
      .updateTable('ChargeEquipment')
      .set({
        OcppStatus: report.status,
        OcppErrorCode: report.errorCode,
        OcppVendorErrorCode: report.vendorErrorCode ?? null,
        // "Since when" the state holds: only a change moves it.
        ...(state !== socket.State ? { State: state, StateChangedAt: now } : {}),
      })
      .where('Id', '=', socket.Id)
      .execute();
    events.emit('socketState', {
      ...ref(),
      socketId: socket.Id,
      portNumber: report.connectorId,
      state,
      previousState: socket.State,
      ocppStatus: report.status,
      errorCode: report.errorCode,
      vendorErrorCode: report.vendorErrorCode ?? null,
    });
    return {};
  });
}
