import { STOP_REASON, type socketPlaceFields } from '@gatehouse/shared';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { contains, type Where } from '../../../platform/filters.ts';

/**
 * The session lists (records, orders, power-off records) page over one table and look up names per page: the
 * count of a 100,000-row list then reads one index instead of joining five tables for every row (measured in
 * bench/garage-volume.ts). Filters on the socket, host, zone or card become subqueries for the same reason.
 */

export type SocketPlace = Omit<z.infer<z.ZodObject<typeof socketPlaceFields>>, 'ChargeEquipmentId'>;

/** Where each socket is: its port, host and zone, by socket id. */
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- conditions serve queries of several tables
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

/** The conditions of the contract's `placeFilters`, given the column holding the socket id. */
export function placeConditions(socketColumn: string): {
  ChargeEquipmentId: Where<number>;
  ChargeHostId: Where<number>;
  ParkAreaId: Where<number>;
} {
  return {
    ChargeEquipmentId: (eb, v) => eb(socketColumn, '=', v),
    ChargeHostId: (eb, v) => eb(socketColumn, 'in', socketsOfHost(eb, v)),
    ParkAreaId: (eb, v) => eb(socketColumn, 'in', socketsOfZone(eb, v)),
  };
}

/** An open or ended condition on a nullable end column (Open, Inside). */
export const isOpen =
  (endColumn: string): Where<boolean> =>
  (eb, open) =>
    eb(endColumn, open ? 'is' : 'is not', null);

/** Conditions of the order list that look at its session (place, card, forced), given the column of its id. */
export function sessionConditions(recordColumn: string) {
  const sessions = (eb: Eb, where: (e: Eb) => Expression<SqlBool>) =>
    eb(recordColumn, 'in', eb.selectFrom('ChargeRecord').select('ChargeRecord.Id').where(where));
  const forced = (eb: Eb) =>
    sessions(eb, (e) => e('ChargeRecord.StopReason', '=', STOP_REASON.forcedPowerOff));
  const place = placeConditions('ChargeRecord.ChargeEquipmentId');
  return {
    ChargeEquipmentId: ((eb, v) => sessions(eb, (e) => place.ChargeEquipmentId(e, v))) as Where<number>,
    ChargeHostId: ((eb, v) => sessions(eb, (e) => place.ChargeHostId(e, v))) as Where<number>,
    ParkAreaId: ((eb, v) => sessions(eb, (e) => place.ParkAreaId(e, v))) as Where<number>,
    CardNumber: ((eb, v) => sessions(eb, (e) => contains(e, 'ChargeRecord.CardNumber', v))) as Where<string>,
    Forced: ((eb, v) => (v ? forced(eb) : eb.not(forced(eb)))) as Where<boolean>,
  };
}

/** The export columns of when and where a session ran, and for which card (records and orders). */
export function sessionExportColumns<I extends Record<string, unknown>>(): ExportColumn<I>[] {
  return [
    { key: 'StartAt', labelKey: 'garage.field.StartAt', kind: 'instant' },
    { key: 'EndAt', labelKey: 'garage.field.EndAt', kind: 'instant' },
    { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
    { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
    { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
    { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
  ] as ExportColumn<I>[];
}
