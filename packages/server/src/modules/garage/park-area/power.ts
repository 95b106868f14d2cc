import { POWER_READING_FRESH_MS, zonePowerState, type ZonePower } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { iso } from '../common/index.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../common/liveness.ts';
import type { AdmissionSocket } from '../charge-record/admission.ts';

/**
 * A zone's live draw (issue 30; docs/garage.md "Zone power budget"): the sum of its sockets' latest
 * Power.Active.Import, as their chargers metered it (ChargeEquipment.LastPowerW, with its time LastPowerAt).
 * Only what is known now counts: a reading of a host that is not connected, or older than
 * POWER_READING_FRESH_MS, says nothing about now, so it is left out of the draw and its running session is
 * counted as "draw unknown" instead of guessed at (a charger that stopped reporting may draw anything, or
 * nothing). Read by the zone list, the socket grid, the dashboard and the budget sweep (budget.ts) alike.
 */

/** A socket of a zone as the budget reads it, with its running session if any. */
export interface ZoneSocketReading {
  socketId: number;
  zoneId: number;
  hostId: number;
  portNumber: number;
  /** Its live power (W), or null when nothing recent is known. */
  powerW: number | null;
  /** When that reading was taken (null with it). */
  powerAt: number | null;
  /** The host's charge point is connected now. */
  hostConnected: boolean;
  session: {
    recordId: number;
    startAt: number;
    /** The stop Gatehouse asked its charger for, pending its StopTransaction (any reason), and when. */
    stopRequest: number | null;
    stopRequestedAt: number | null;
  } | null;
}

/** The live reading of a socket row at `now`, or null when it says nothing about now. */
export function livePower(
  row: {
    LastPowerW: number | null;
    LastPowerAt: number | null;
    ChargingSystemType: number;
    OcppOnline: number;
  },
  now: number,
): number | null {
  const connected = row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE && row.OcppOnline === 1;
  if (!connected || row.LastPowerW === null || row.LastPowerAt === null) return null;
  return now - row.LastPowerAt <= POWER_READING_FRESH_MS ? row.LastPowerW : null;
}

/** Every socket of these zones with its live reading and running session. */
export async function zoneSocketReadings(
  k: Kysely<Database>,
  zoneIds: readonly number[],
  now: number,
): Promise<ZoneSocketReading[]> {
  if (zoneIds.length === 0) return [];
  const rows = await k
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    // The socket's running session (at most one: a partial unique index).
    .leftJoin('ChargeRecord', (join) =>
      join
        .onRef('ChargeRecord.ChargeEquipmentId', '=', 'ChargeEquipment.Id')
        .on('ChargeRecord.EndAt', 'is', null),
    )
    .select([
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.LastPowerW',
      'ChargeEquipment.LastPowerAt',
      'ChargeHost.Id as HostId',
      'ChargeHost.ParkAreaId',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
      'ChargeRecord.Id as RecordId',
      'ChargeRecord.StartAt',
      'ChargeRecord.StopRequest',
      'ChargeRecord.StopRequestedAt',
    ])
    .where('ChargeHost.ParkAreaId', 'in', [...zoneIds])
    .execute();
  return rows.map((r) => {
    const powerW = livePower(r, now);
    return {
      socketId: r.SocketId,
      zoneId: r.ParkAreaId,
      hostId: r.HostId,
      portNumber: r.PortNumber,
      powerW,
      powerAt: powerW === null ? null : r.LastPowerAt,
      hostConnected: r.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE && r.OcppOnline === 1,
      session:
        r.RecordId === null
          ? null
          : {
              recordId: r.RecordId,
              startAt: r.StartAt!,
              stopRequest: r.StopRequest,
              stopRequestedAt: r.StopRequestedAt,
            },
    };
  });
}

/** The draw of a zone's sockets: what is known (sum, metered sockets) and what is not (sessions). */
export function drawOf(sockets: readonly ZoneSocketReading[]): {
  drawW: number;
  metered: number;
  unknownSessions: number;
} {
  let drawW = 0;
  let metered = 0;
  let unknownSessions = 0;
  for (const s of sockets) {
    if (s.powerW !== null) {
      drawW += s.powerW;
      metered += 1;
    } else if (s.session) unknownSessions += 1;
  }
  return { drawW: Math.round(drawW), metered, unknownSessions };
}

/** What the budget sweep keeps per zone, as far as the screens show it. */
interface StoredPower {
  OverSince: number | null;
  Limits: string;
}

/** The running sessions a zone's stored limits still name. */
export function limitedSessions(stored: StoredPower | undefined, sockets: readonly ZoneSocketReading[]) {
  if (!stored) return 0;
  const running = new Set(sockets.flatMap((s) => (s.session ? [s.session.recordId] : [])));
  const limits = JSON.parse(stored.Limits) as { ChargeRecordId: number }[];
  return limits.filter((l) => running.has(l.ChargeRecordId)).length;
}

/** Each zone's live draw against its budget, keyed by zone id (zones without sockets draw 0). */
export async function zonePowers(
  k: Kysely<Database>,
  zoneIds: readonly number[],
  now: number,
): Promise<Map<number, ZonePower>> {
  const out = new Map<number, ZonePower>();
  if (zoneIds.length === 0) return out;
  const [zones, sockets] = await Promise.all([
    k
      .selectFrom('ParkArea')
      .leftJoin('ParkAreaPower', 'ParkAreaPower.ParkAreaId', 'ParkArea.Id')
      .select(['ParkArea.Id', 'ParkArea.PowerBudgetW', 'ParkAreaPower.OverSince', 'ParkAreaPower.Limits'])
      .where('ParkArea.Id', 'in', [...zoneIds])
      .execute(),
    zoneSocketReadings(k, zoneIds, now),
  ]);
  for (const zone of zones) {
    const mine = sockets.filter((s) => s.zoneId === zone.Id);
    const draw = drawOf(mine);
    const stored = zone.Limits === null ? undefined : { OverSince: zone.OverSince, Limits: zone.Limits };
    out.set(zone.Id, {
      BudgetW: zone.PowerBudgetW,
      DrawW: draw.drawW,
      MeteredSockets: draw.metered,
      UnknownSessions: draw.unknownSessions,
      State: zonePowerState(draw.drawW, zone.PowerBudgetW),
      OverSince: zone.PowerBudgetW === null ? null : iso(stored?.OverSince ?? null),
      LimitedSessions: limitedSessions(stored, mine),
    });
  }
  return out;
}

/** The power of one zone (a zone that does not exist has none). */
export async function zonePowerOf(k: Kysely<Database>, zoneId: number, now: number): Promise<ZonePower> {
  return (
    (await zonePowers(k, [zoneId], now)).get(zoneId) ?? {
      BudgetW: null,
      DrawW: 0,
      MeteredSockets: 0,
      UnknownSessions: 0,
      State: 'none',
      OverSince: null,
      LimitedSessions: 0,
    }
  );
}

/** The zones of an area that have a budget, with their power, busiest (against its budget) first. */
export async function budgetZonesOfArea(k: Kysely<Database>, areaId: number, now: number) {
  const zones = await k
    .selectFrom('ParkArea')
    .select(['Id', 'Name'])
    .where('AreaId', '=', areaId)
    .where('PowerBudgetW', 'is not', null)
    .orderBy('Name')
    .execute();
  const powers = await zonePowers(
    k,
    zones.map((z) => z.Id),
    now,
  );
  return zones
    .map((z) => ({ ParkAreaId: z.Id, ZoneName: z.Name, ...powers.get(z.Id)! }))
    .sort((a, b) => b.DrawW / (b.BudgetW ?? 1) - a.DrawW / (a.BudgetW ?? 1));
}

/**
 * The start admission's zone budget check (charge-record/admission.ts): the zone has a budget and its draw, as
 * the budget sweep last evaluated it (budget.ts, every few seconds on one instance), has reached it. The sweep's
 * figure rather than a fresh sum: the gate reads stored facts only (it has no clock), and it is the same figure
 * the operation log shows for what the sweep did.
 */
export async function zoneAtBudget(k: Kysely<Database>, socket: AdmissionSocket): Promise<boolean> {
  const row = await k
    .selectFrom('ParkArea')
    .innerJoin('ParkAreaPower', 'ParkAreaPower.ParkAreaId', 'ParkArea.Id')
    .select(['ParkArea.PowerBudgetW', 'ParkAreaPower.DrawW'])
    .where('ParkArea.Id', '=', socket.parkAreaId)
    .executeTakeFirst();
  return row !== undefined && row.PowerBudgetW !== null && row.DrawW >= row.PowerBudgetW;
}
