import type { socketPlaceFields } from '@gatehouse/shared';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { contains, type Filters } from '../../platform/filters.ts';
import { id, queryBool } from '../../platform/schemas.ts';

/**
 * The session lists (records, orders) page over one table and look up names per page: the count of a
 * 100,000-row list then reads one index instead of joining five tables for every row (measured in
 * bench/garage-volume.ts). Filters on the socket, host, zone or card become subqueries for the same reason.
 */

export type SocketPlace = Omit<z.infer<z.ZodObject<typeof socketPlaceFields>>, 'ChargeEquipmentId'>;

export async function socketPlaces(
  db: Kysely<Database>,
  socketIds: number[],
): Promise<Map<number, SocketPlace>> {
  const unique = [...new Set(socketIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
    .select([
      'ChargeEquipment.Id',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.ChargeHostId',
      'ChargeHost.Name as HostName',
      'ChargeHost.ParkAreaId',
      'ParkArea.Name as ZoneName',
    ])
    .where('ChargeEquipment.Id', 'in', unique)
    .execute();
  return new Map(rows.map(({ Id, ...place }) => [Id, place]));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- filters serve queries of either table
type Eb = ExpressionBuilder<any, any>;

/** Sockets of a host, or of a zone's hosts, as a subquery of socket ids. */
const socketsOfHost = (eb: Eb, hostId: number) =>
  eb
    .selectFrom('ChargeEquipment')
    .select('ChargeEquipment.Id')
    .where('ChargeEquipment.ChargeHostId', '=', hostId);
const socketsOfZone = (eb: Eb, zoneId: number) =>
  eb
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select('ChargeEquipment.Id')
    .where('ChargeHost.ParkAreaId', '=', zoneId);

/** Filters on where a session happened, given the column holding its socket id. */
export function placeFilters(socketColumn: string): Filters {
  return {
    ChargeEquipmentId: { schema: id, where: (eb, v: number) => eb(socketColumn, '=', v) },
    ChargeHostId: { schema: id, where: (eb, v: number) => eb(socketColumn, 'in', socketsOfHost(eb, v)) },
    ParkAreaId: { schema: id, where: (eb, v: number) => eb(socketColumn, 'in', socketsOfZone(eb, v)) },
  };
}

/** Filters of the order list that look at its session (place, card, forced), given the column of its id. */
export function sessionFilters(recordColumn: string): Filters {
  const sessions = (eb: Eb, where: (e: Eb) => Expression<SqlBool>) =>
    eb(recordColumn, 'in', eb.selectFrom('ChargeRecord').select('ChargeRecord.Id').where(where));
  const forced = (eb: Eb) => sessions(eb, (e) => e('ChargeRecord.StopReason', '=', 3));
  return {
    ChargeEquipmentId: {
      schema: id,
      where: (eb, v: number) => sessions(eb, (e) => e('ChargeRecord.ChargeEquipmentId', '=', v)),
    },
    ChargeHostId: {
      schema: id,
      where: (eb, v: number) =>
        sessions(eb, (e) => e('ChargeRecord.ChargeEquipmentId', 'in', socketsOfHost(e, v))),
    },
    ParkAreaId: {
      schema: id,
      where: (eb, v: number) =>
        sessions(eb, (e) => e('ChargeRecord.ChargeEquipmentId', 'in', socketsOfZone(e, v))),
    },
    CardNumber: {
      schema: z.string().trim().min(1).max(100),
      where: (eb, v: string) => sessions(eb, (e) => contains(e, 'ChargeRecord.CardNumber', v)),
    },
    Forced: { schema: queryBool, where: (eb, v: boolean) => (v ? forced(eb) : eb.not(forced(eb))) },
  };
}
