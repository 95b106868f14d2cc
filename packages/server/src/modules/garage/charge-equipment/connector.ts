import { portStateFromOcpp, type OcppChargePointStatus, type OcppErrorCode } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { chargeEquipmentItem, socketQuery } from './service.ts';

/**
 * A socket as its charger's connector reports it (docs/chargers.md, "Socket states"): the device-facing
 * services a charger gateway calls. The report's time, the last metered power and "low power since" are
 * stored on the socket (migration 0016), not in a gateway's memory, so the ordering of reports and the
 * "battery full" timer survive a restart and hold whichever instance the charge point connects to.
 */

/** A socket's state change, as the live hub tells it. */
export interface SocketChange {
  socketId: number;
  state: number;
  previousState: number;
}

/** The socket behind a host's connector, or undefined when the host has no such port. */
export async function socketOfConnector(ctx: AreaContext, hostId: number, connectorId: number) {
  return ctx.db.kysely
    .selectFrom('ChargeEquipment')
    .select(['Id', 'State', 'Disabled', 'OcppStatus', 'OcppErrorCode', 'OcppStatusAt', 'LastPowerW'])
    .where('ChargeHostId', '=', hostId)
    .where('PortNumber', '=', connectorId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
}

export interface ConnectorReport {
  hostId: number;
  connectorId: number;
  status: OcppChargePointStatus;
  errorCode: OcppErrorCode;
  vendorErrorCode: string | null;
  /** The charger's time of the report (already bounded by the gateway's belief in its clock). */
  reportedAt: number;
}

export type ConnectorReportResult =
  { outcome: 'applied'; change: SocketChange } | { outcome: 'stale' } | { outcome: 'unknownConnector' };

/**
 * A connector's status report. A report older than one already applied (a retry, or one sent late after a
 * reconnect) changes nothing. A socket the operator disabled stays disabled (12) whatever the hardware says;
 * the report is kept. "Since when" the state holds moves only on a change.
 */
export async function connectorReported(
  ctx: AreaContext,
  report: ConnectorReport,
): Promise<ConnectorReportResult> {
  const socket = await socketOfConnector(ctx, report.hostId, report.connectorId);
  if (!socket) return { outcome: 'unknownConnector' };
  if (socket.OcppStatusAt !== null && report.reportedAt < socket.OcppStatusAt) return { outcome: 'stale' };
  const state = socket.Disabled
    ? 12
    : portStateFromOcpp({
        status: report.status,
        errorCode: report.errorCode,
        ...(report.vendorErrorCode !== null ? { vendorErrorCode: report.vendorErrorCode } : {}),
        ...(socket.LastPowerW !== null ? { powerW: socket.LastPowerW } : {}),
        // Finishing right after SuspendedEV: the pack stopped drawing, the session ended full.
        endedFull: socket.OcppStatus === 'SuspendedEV',
      });
  const now = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const written = await trx
      .updateTable('ChargeEquipment')
      .set({
        OcppStatus: report.status,
        OcppErrorCode: report.errorCode,
        OcppVendorErrorCode: report.vendorErrorCode,
        OcppStatusAt: report.reportedAt,
        ...(state !== socket.State ? { State: state, StateChangedAt: now } : {}),
      })
      .where('Id', '=', socket.Id)
      // Two reports racing (two instances for a moment): the newer one wins, whichever writes last.
      .where((eb) => eb.or([eb('OcppStatusAt', 'is', null), eb('OcppStatusAt', '<=', report.reportedAt)]))
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) return { outcome: 'stale' as const };
    if (state !== socket.State) await emitSocketState(trx, ctx.areaId, socket.Id, socket.State, now);
    return {
      outcome: 'applied' as const,
      change: { socketId: socket.Id, state, previousState: socket.State },
    };
  });
}

/**
 * A socket's state change as a `socket.state` event of the outbox (platform/outbox), in the transaction that
 * stores it: the socket as the socket list shows it (host, zone, port, state and since when), and the state
 * it left. MQTT keeps the last one retained per socket.
 */
async function emitSocketState(
  trx: Kysely<Database>,
  areaId: number,
  socketId: number,
  previousState: number,
  at: number,
): Promise<void> {
  const row = await socketQuery(trx).where('ChargeEquipment.Id', '=', socketId).executeTakeFirstOrThrow();
  const {
    Session: _session,
    StateColor: _color,
    Remark: _remark,
    CreatedAt: _created,
    UpdatedAt: _updated,
    ...item
  } = chargeEquipmentItem(row);
  const names = await areaNames(trx, [areaId]);
  await emitEvent(trx, {
    type: 'socket.state',
    at,
    data: { ...item, PreviousState: previousState, AreaId: areaId, AreaName: names.get(areaId) ?? '' },
  });
}

/**
 * A metered power on a connector: kept on the socket with the reading's time `at` (a zone's live draw counts
 * only recent readings: docs/garage.md "Zone power budget"); a reading older than the one kept (a late, queued
 * MeterValues) changes nothing. Float charge is read from it, so a Charging connector whose power fell below the
 * threshold changes state here. Returns the change, if any.
 */
export async function connectorPower(
  ctx: AreaContext,
  hostId: number,
  connectorId: number,
  powerW: number,
  at: number,
): Promise<SocketChange | undefined> {
  const socket = await socketOfConnector(ctx, hostId, connectorId);
  if (!socket) return undefined;
  const k = ctx.db.kysely;
  const kept = await k
    .updateTable('ChargeEquipment')
    .set({ LastPowerW: powerW, LastPowerAt: at })
    .where('Id', '=', socket.Id)
    .where((eb) => eb.or([eb('LastPowerAt', 'is', null), eb('LastPowerAt', '<=', at)]))
    .executeTakeFirst();
  if (Number(kept.numUpdatedRows) !== 1) return undefined;
  if (socket.OcppStatus !== 'Charging' || socket.Disabled) return undefined;
  const state = portStateFromOcpp({
    status: socket.OcppStatus,
    errorCode: (socket.OcppErrorCode ?? 'NoError') as OcppErrorCode,
    powerW,
  });
  if (state === socket.State) return undefined;
  const now = ctx.clock.now();
  await k.transaction().execute(async (trx) => {
    await trx
      .updateTable('ChargeEquipment')
      .set({ State: state, StateChangedAt: now })
      .where('Id', '=', socket.Id)
      .execute();
    await emitSocketState(trx, ctx.areaId, socket.Id, socket.State, now);
  });
  return { socketId: socket.Id, state, previousState: socket.State };
}

/**
 * A session's end ends its socket's metering: the last power and "low power since" are cleared, in the
 * settlement's transaction (charge-record/settlement.ts), so the next session starts its "battery full" timer
 * afresh.
 */
export async function endSocketMetering(trx: Kysely<Database>, socketId: number): Promise<void> {
  await trx
    .updateTable('ChargeEquipment')
    .set({ LastPowerW: null, LastPowerAt: null, FullSince: null })
    .where('Id', '=', socketId)
    .execute();
}

/**
 * Since when a running session's socket has drawn too little ("battery full"), or null again once it draws:
 * stored on the socket by the session's meter values (charge-record/device-sessions.ts), so the timer holds
 * across a restart.
 */
export async function storeFullSince(
  db: Kysely<Database>,
  socketId: number,
  fullSince: number | null,
): Promise<void> {
  await db.updateTable('ChargeEquipment').set({ FullSince: fullSince }).where('Id', '=', socketId).execute();
}
