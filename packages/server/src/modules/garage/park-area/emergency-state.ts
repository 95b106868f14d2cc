import type {
  EmergencyActorKind,
  EmergencyReleaseOutcome,
  EmergencyStopOutcome,
  ZoneEmergencyStopItem,
} from '@gatehouse/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { socketSessions } from '../charge-record/service.ts';
import { iso } from '../common/index.ts';
import type { ParkAreaEmergencyStopTable } from '../tables-emergency.ts';

/**
 * What a zone's emergency stop is now (docs/garage.md "Emergency stop"): read by the admission gate, the zone list,
 * the banner and a charge point that connects; the stop and the release themselves are emergency-stop.ts. The one
 * write here (a charger the release missed, reached on connecting) keeps the table's writers in this feature.
 */

export type Trx = Kysely<Database>;
type Row = Selectable<ParkAreaEmergencyStopTable>;

/** The stop in force of a zone, if any. */
export function inForce(k: Trx, zoneId: number) {
  return k
    .selectFrom('ParkAreaEmergencyStop')
    .selectAll()
    .where('ParkAreaId', '=', zoneId)
    .where('ReleasedAt', 'is', null)
    .executeTakeFirst();
}

/** Whether the zone is under emergency stop now: the admission gate's check (charge-record/admission.ts). */
export async function zoneUnderEmergencyStop(k: Trx, zoneId: number): Promise<boolean> {
  return (await inForce(k, zoneId)) !== undefined;
}

/** Whether the zone of this host is under emergency stop now (enabling a socket then sends no Operative). */
export async function hostUnderEmergencyStop(k: Trx, hostId: number): Promise<boolean> {
  const host = await k
    .selectFrom('ChargeHost')
    .select('ParkAreaId')
    .where('Id', '=', hostId)
    .executeTakeFirst();
  return host !== undefined && (await zoneUnderEmergencyStop(k, host.ParkAreaId));
}

export const parsed = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));
const kindOf = (kind: string | null) => kind as EmergencyActorKind | null;

function toItem(row: Row, zoneName: string): ZoneEmergencyStopItem {
  return {
    Id: row.Id,
    ParkAreaId: row.ParkAreaId,
    ZoneName: zoneName,
    Reason: row.Reason,
    StoppedAt: iso(row.StoppedAt)!,
    StoppedBy: row.StoppedBy,
    StoppedByKind: kindOf(row.StoppedByKind)!,
    Stop: parsed<EmergencyStopOutcome>(row.StopOutcome),
    ReleasedAt: iso(row.ReleasedAt),
    ReleasedBy: row.ReleasedBy,
    ReleasedByKind: kindOf(row.ReleasedByKind),
    Note: row.Note,
    Release: parsed<EmergencyReleaseOutcome>(row.ReleaseOutcome),
  };
}

export async function stopItem(k: Trx, stopId: number): Promise<ZoneEmergencyStopItem> {
  const row = await k
    .selectFrom('ParkAreaEmergencyStop')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ParkAreaEmergencyStop.ParkAreaId')
    .selectAll('ParkAreaEmergencyStop')
    .select('ParkArea.Name as ZoneName')
    .where('ParkAreaEmergencyStop.Id', '=', stopId)
    .executeTakeFirstOrThrow();
  return toItem(row, row.ZoneName);
}

/** The stops in force of these zones, by zone (the zone list's `EmergencyStop`). */
export async function zoneEmergencyStops(
  k: Trx,
  zoneIds: number[],
): Promise<Map<number, ZoneEmergencyStopItem>> {
  if (zoneIds.length === 0) return new Map();
  const rows = await k
    .selectFrom('ParkAreaEmergencyStop')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ParkAreaEmergencyStop.ParkAreaId')
    .selectAll('ParkAreaEmergencyStop')
    .select('ParkArea.Name as ZoneName')
    .where('ParkAreaEmergencyStop.ParkAreaId', 'in', zoneIds)
    .where('ParkAreaEmergencyStop.ReleasedAt', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.ParkAreaId, toItem(r, r.ZoneName)]));
}

/** The area's zones under emergency stop now, oldest first (the banner on the garage screens). */
export async function emergencyStopsInForce(ctx: AreaContext): Promise<{ Items: ZoneEmergencyStopItem[] }> {
  const rows = await ctx.db.kysely
    .selectFrom('ParkAreaEmergencyStop')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ParkAreaEmergencyStop.ParkAreaId')
    .selectAll('ParkAreaEmergencyStop')
    .select('ParkArea.Name as ZoneName')
    .where('ParkAreaEmergencyStop.AreaId', '=', ctx.areaId)
    .where('ParkAreaEmergencyStop.ReleasedAt', 'is', null)
    .orderBy('ParkAreaEmergencyStop.StoppedAt')
    .orderBy('ParkAreaEmergencyStop.Id')
    .execute();
  return { Items: rows.map((r) => toItem(r, r.ZoneName)) };
}

/** The zone's list items with the stop in force of each. */
export async function withEmergencyStops<
  I extends { Id: number; EmergencyStop: ZoneEmergencyStopItem | null },
>(ctx: AreaContext, items: I[]): Promise<I[]> {
  const stops = await zoneEmergencyStops(
    ctx.db.kysely,
    items.map((i) => i.Id),
  );
  return items.map((zone) => ({ ...zone, EmergencyStop: stops.get(zone.Id) ?? null }));
}

/**
 * What a charge point that has just connected (or booted) must be told about its zone's emergency stop, for the
 * gateway holding its connection: under a stop in force, its running sessions stopped and every connector made
 * Inoperative; after a release that did not reach it, its enabled connectors made Operative. Null: nothing.
 */
export type EmergencyOnConnect =
  | {
      kind: 'stop';
      stopId: number;
      parkAreaId: number;
      zoneName: string;
      reason: string;
      ports: number[];
      sessions: { recordId: number; portNumber: number }[];
    }
  | { kind: 'release'; stopId: number; parkAreaId: number; zoneName: string; ports: number[] };

export async function emergencyOnConnect(k: Trx, hostId: number): Promise<EmergencyOnConnect | null> {
  const host = await k
    .selectFrom('ChargeHost')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
    .select(['ChargeHost.ParkAreaId', 'ChargeHost.AreaId', 'ParkArea.Name as ZoneName'])
    .where('ChargeHost.Id', '=', hostId)
    .executeTakeFirst();
  if (!host) return null;
  // A zone's stop in force is its latest stop (none is made while one is in force): one read for both cases.
  const latest = await latestStop(k, host.ParkAreaId);
  if (!latest) return null;
  const stopping = latest.ReleasedAt === null;
  if (!stopping && !parsed<number[]>(latest.ReleasePending)?.includes(hostId)) return null;
  const sockets = await k
    .selectFrom('ChargeEquipment')
    .select(['PortNumber', 'Disabled'])
    .where('ChargeHostId', '=', hostId)
    .orderBy('PortNumber')
    .execute();
  const zone = { stopId: latest.Id, parkAreaId: host.ParkAreaId, zoneName: host.ZoneName };
  if (!stopping)
    return {
      kind: 'release',
      ...zone,
      ports: sockets.filter((s) => s.Disabled !== 1).map((s) => s.PortNumber),
    };
  const sessions = await socketSessions(k, { hostId, areaId: host.AreaId })
    .select(['ChargeRecord.Id', 'ChargeEquipment.PortNumber'])
    .execute();
  return {
    kind: 'stop',
    ...zone,
    reason: latest.Reason,
    ports: sockets.map((s) => s.PortNumber),
    sessions: sessions.map((s) => ({ recordId: s.Id, portNumber: s.PortNumber })),
  };
}

function latestStop(k: Trx, zoneId: number) {
  return k
    .selectFrom('ParkAreaEmergencyStop')
    .selectAll()
    .where('ParkAreaId', '=', zoneId)
    .orderBy('StoppedAt', 'desc')
    .orderBy('Id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A charger the release missed has been made Operative on connecting: it no longer waits. */
export async function emergencyReleaseReached(k: Trx, stopId: number, hostId: number): Promise<void> {
  await k.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('ParkAreaEmergencyStop')
      .select('ReleasePending')
      .where('Id', '=', stopId)
      .executeTakeFirst();
    const pending = parsed<number[]>(row?.ReleasePending ?? null);
    if (!pending?.includes(hostId)) return;
    await trx
      .updateTable('ParkAreaEmergencyStop')
      .set({ ReleasePending: JSON.stringify(pending.filter((id) => id !== hostId)) })
      .where('Id', '=', stopId)
      .execute();
  });
}
