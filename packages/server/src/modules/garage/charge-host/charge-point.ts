import type { Db } from '../../../db/database.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../common/liveness.ts';

/**
 * A charging host as its charge point's protocol sees it (docs/chargers.md): the device-facing services a
 * charger gateway calls with a device or system actor. Protocol-free: the gateway speaks OCPP, these keep
 * the host's columns (presence, boot identity, status of connector 0, credentials), so no gateway queries a
 * garage table itself.
 *
 * Presence carries the instance that holds the connection (ChargeHost.OcppInstance): when a charge point
 * reconnects to another instance, a late close of its old socket elsewhere does not take it offline, and an
 * instance starting up only clears the presence it held itself before a restart.
 */

/** What the handshake checks: the host behind a charge point id, with its stored key hash. */
export interface ChargePointCredentials {
  hostId: number;
  areaId: number;
  serial: string;
  chargingSystemType: number;
  disabled: boolean;
  keyHash: string | null;
}

export async function chargePointCredentials(
  db: Db,
  serial: string,
): Promise<ChargePointCredentials | undefined> {
  const host = await db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'AreaId', 'SerialNumber', 'ChargingSystemType', 'Disabled', 'OcppPasswordHash'])
    .where('SerialNumber', '=', serial)
    .executeTakeFirst();
  if (!host) return undefined;
  return {
    hostId: host.Id,
    areaId: host.AreaId,
    serial: host.SerialNumber,
    chargingSystemType: host.ChargingSystemType,
    disabled: host.Disabled === 1,
    keyHash: host.OcppPasswordHash,
  };
}

/** Stores (or with null removes) the hash of a host's device-link key; the gateway hashes, never stores clear. */
export async function storeChargePointKey(db: Db, hostId: number, hash: string | null): Promise<void> {
  await db.kysely
    .updateTable('ChargeHost')
    .set({ OcppPasswordHash: hash })
    .where('Id', '=', hostId)
    .execute();
}

/**
 * An instance starting: the hosts it held before it stopped (or that nobody holds) are offline from their
 * last sign of life until their charge points connect again. Hosts another instance holds are left alone.
 */
export async function releaseChargePoints(db: Db, instanceId: string, now: number): Promise<number> {
  const stale = await db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'LastSeenAt'])
    .where('OcppOnline', '=', 1)
    .where((eb) => eb.or([eb('OcppInstance', '=', instanceId), eb('OcppInstance', 'is', null)]))
    .execute();
  for (const host of stale) {
    await db.kysely
      .updateTable('ChargeHost')
      .set({ OcppOnline: 0, OcppOfflineAt: host.LastSeenAt ?? now, OcppInstance: null })
      .where('Id', '=', host.Id)
      .where('OcppOnline', '=', 1)
      .where((eb) => eb.or([eb('OcppInstance', '=', instanceId), eb('OcppInstance', 'is', null)]))
      .execute();
  }
  return stale.length;
}

/**
 * The instance holding a host's charge point connection now (ChargeHost.OcppInstance), null when none does:
 * where a command issued on another instance is carried (docs/deployment.md, "Commands reach the owner").
 */
export async function chargePointHolder(db: Db, hostId: number): Promise<string | null> {
  const host = await db.kysely
    .selectFrom('ChargeHost')
    .select(['OcppOnline', 'OcppInstance'])
    .where('Id', '=', hostId)
    .executeTakeFirst();
  return host?.OcppOnline === 1 ? host.OcppInstance : null;
}

/**
 * Charge points held by instances that are no longer live (killed before they could mark them offline): offline
 * from their last sign of life, so the offline grace runs for them, unless they have connected again meanwhile
 * (the row names another holder by then). Run once across the cluster; answers the hosts it took offline.
 */
export async function releaseChargePointsOfGone(
  db: Db,
  liveInstances: string[],
  now: number,
): Promise<{ hostId: number; areaId: number; serial: string; holder: string }[]> {
  let query = db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'AreaId', 'SerialNumber', 'LastSeenAt', 'OcppInstance'])
    .where('OcppOnline', '=', 1)
    .where('OcppInstance', 'is not', null);
  if (liveInstances.length > 0) query = query.where('OcppInstance', 'not in', liveInstances);
  const released: { hostId: number; areaId: number; serial: string; holder: string }[] = [];
  for (const host of await query.execute()) {
    const result = await db.kysely
      .updateTable('ChargeHost')
      .set({ OcppOnline: 0, OcppOfflineAt: host.LastSeenAt ?? now, OcppInstance: null })
      .where('Id', '=', host.Id)
      .where('OcppOnline', '=', 1)
      .where('OcppInstance', '=', host.OcppInstance!)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1)
      released.push({
        hostId: host.Id,
        areaId: host.AreaId,
        serial: host.SerialNumber,
        holder: host.OcppInstance!,
      });
  }
  return released;
}

/** Its charge point connected to this instance: its sockets show their reported states again. */
export async function chargePointConnected(
  ctx: AreaContext,
  hostId: number,
  instanceId: string,
): Promise<void> {
  await ctx.db.kysely
    .updateTable('ChargeHost')
    .set({ OcppOnline: 1, OcppOfflineAt: null, LastSeenAt: ctx.clock.now(), OcppInstance: instanceId })
    .where('Id', '=', hostId)
    .execute();
}

/**
 * Its connection on this instance ended, last heard at `lastSeenAt`: offline from then (the grace period
 * before its sessions close counts from there), unless it has connected again, here or to another instance.
 */
export async function chargePointDisconnected(
  ctx: AreaContext,
  hostId: number,
  lastSeenAt: number,
  instanceId: string,
): Promise<boolean> {
  const result = await ctx.db.kysely
    .updateTable('ChargeHost')
    .set({ OcppOnline: 0, OcppOfflineAt: lastSeenAt, LastSeenAt: lastSeenAt, OcppInstance: null })
    .where('Id', '=', hostId)
    .where((eb) => eb.or([eb('OcppInstance', '=', instanceId), eb('OcppInstance', 'is', null)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A sign of life (the caller writes it at most every so often; the connection keeps the exact time). */
export async function chargePointSeen(ctx: AreaContext, hostId: number): Promise<void> {
  await ctx.db.kysely
    .updateTable('ChargeHost')
    .set({ LastSeenAt: ctx.clock.now() })
    .where('Id', '=', hostId)
    .execute();
}

/**
 * A boot of the charge point: accepted (its identity stored) only while the host is enabled and still of the
 * charging-API type; the handshake checked that once, the operator may have changed it since.
 */
export async function chargePointBooted(
  ctx: AreaContext,
  hostId: number,
  identity: Record<string, unknown>,
): Promise<boolean> {
  const k = ctx.db.kysely;
  const host = await k
    .selectFrom('ChargeHost')
    .select(['Disabled', 'ChargingSystemType'])
    .where('Id', '=', hostId)
    .executeTakeFirst();
  if (!host || host.Disabled || host.ChargingSystemType !== LIVE_LINK_SYSTEM_TYPE) return false;
  const now = ctx.clock.now();
  await k
    .updateTable('ChargeHost')
    .set({ OcppBootInfo: JSON.stringify({ ...identity, bootedAt: now }), LastSeenAt: now })
    .where('Id', '=', hostId)
    .execute();
  return true;
}

/** What the whole charge point (connector 0) reports: Available, Unavailable or Faulted. */
export async function chargePointStatus(ctx: AreaContext, hostId: number, status: string): Promise<void> {
  await ctx.db.kysely
    .updateTable('ChargeHost')
    .set({ OcppStatus: status })
    .where('Id', '=', hostId)
    .execute();
}

/** A host offline past the grace period with sessions still running (the liveness sweep closes them). */
export interface LostHost {
  hostId: number;
  areaId: number;
  serial: string;
  offlineAt: number;
}

export async function hostsLostPastGrace(db: Db, now: number, graceMs: number): Promise<LostHost[]> {
  const rows = await db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'AreaId', 'SerialNumber', 'OcppOfflineAt'])
    .where('ChargingSystemType', '=', LIVE_LINK_SYSTEM_TYPE)
    .where('OcppOnline', '=', 0)
    .where('OcppOfflineAt', 'is not', null)
    .where('OcppOfflineAt', '<=', now - graceMs)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('ChargeRecord')
          .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
          .select('ChargeRecord.Id')
          .whereRef('ChargeEquipment.ChargeHostId', '=', 'ChargeHost.Id')
          .where('ChargeRecord.EndAt', 'is', null),
      ),
    )
    .execute();
  return rows.map((r) => ({
    hostId: r.Id,
    areaId: r.AreaId,
    serial: r.SerialNumber,
    offlineAt: r.OcppOfflineAt!,
  }));
}
