import { durationMinutes, type ChargeRecordItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { iso } from '../common/index.ts';
import { orderPricing } from '../common/pricing.ts';
import { socketPlaces } from './places.ts';

/** Which sessions `socketSessions` reads: every filter given applies. */
export interface SessionScope {
  /** Sessions on these sockets. */
  socketIds?: readonly number[];
  /** Sessions on the sockets of this host. */
  hostId?: number;
  /** This session. */
  recordId?: number;
  /** Sessions of this area. */
  areaId?: number;
  /** Running sessions only (EndAt null): the default; false reads ended ones too. */
  open?: boolean;
}

/**
 * The sessions of sockets: ChargeRecord joined to its ChargeEquipment, by default the running ones (the
 * open session of a socket; the database holds at most one per socket). The one query every reader of a
 * socket's session starts from (the grid and the socket list, disabling a socket, a forced power-off, a new
 * session superseding a lost one, the sessions of a host gone offline, the dashboard); callers add the
 * columns they read.
 */
export function socketSessions(db: Kysely<Database>, scope: SessionScope = {}) {
  let query = db
    .selectFrom('ChargeRecord')
    .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId');
  if (scope.open !== false) query = query.where('ChargeRecord.EndAt', 'is', null);
  if (scope.socketIds) query = query.where('ChargeRecord.ChargeEquipmentId', 'in', [...scope.socketIds]);
  if (scope.hostId !== undefined) query = query.where('ChargeEquipment.ChargeHostId', '=', scope.hostId);
  if (scope.recordId !== undefined) query = query.where('ChargeRecord.Id', '=', scope.recordId);
  if (scope.areaId !== undefined) query = query.where('ChargeRecord.AreaId', '=', scope.areaId);
  return query;
}

/** The record list and detail page over ChargeRecord alone; places and orders come per page (places.ts). */
export const chargeRecordQuery = (db: Kysely<Database>) =>
  db
    .selectFrom('ChargeRecord')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.ChargeEquipmentId',
      'ChargeRecord.CardNumber',
      'ChargeRecord.StartAt',
      'ChargeRecord.EndAt',
      'ChargeRecord.EnergyWh',
      'ChargeRecord.StopReason',
    ]);

type Row = Record<string, number | string | null>;

export function chargeRecordItem(row: Row): ChargeRecordItem {
  return {
    Id: row.Id as number,
    ChargeEquipmentId: row.ChargeEquipmentId as number,
    PortNumber: 0,
    ChargeHostId: 0,
    HostName: '',
    ParkAreaId: 0,
    ZoneName: '',
    CardNumber: row.CardNumber as string | null,
    StartAt: iso(row.StartAt as number)!,
    EndAt: iso(row.EndAt as number | null),
    Open: row.EndAt === null,
    EnergyWh: row.EnergyWh as number,
    DurationMinutes: 0,
    StopReason: row.StopReason as number | null,
    ChargeOrderId: null,
    OrderNo: null,
    AmountCents: null,
    Estimated: false,
    PaymentState: null,
    Lines: null,
  };
}

/**
 * Per page: where each session happened, its order, and durations, amounts and itemised lines against the clock
 * (the order list's pricing: common/pricing.ts orderPricing).
 */
export async function withPlacesAndOrders(
  ctx: AreaContext,
  items: ChargeRecordItem[],
): Promise<ChargeRecordItem[]> {
  const k = ctx.db.kysely;
  const now = ctx.clock.now();
  const open = items.filter((i) => i.Open).map((i) => i.Id);
  const [places, orders, meters] = await Promise.all([
    socketPlaces(
      k,
      items.map((i) => i.ChargeEquipmentId),
    ),
    k
      .selectFrom('ChargeOrder')
      .selectAll()
      .where(
        'ChargeRecordId',
        'in',
        items.map((i) => i.Id),
      )
      .execute(),
    // The running sessions' meters: their estimates read them as the final price will (docs/garage.md).
    open.length
      ? k.selectFrom('ChargeRecord').select(['Id', 'MeterDigest', 'FullAt']).where('Id', 'in', open).execute()
      : [],
  ]);
  return items.map((item) => {
    const startAt = Date.parse(item.StartAt);
    const endAt = item.EndAt === null ? null : Date.parse(item.EndAt);
    const order = orders.find((o) => o.ChargeRecordId === item.Id);
    const meter = meters.find((m) => m.Id === item.Id);
    const usage = {
      StartAt: startAt,
      EndAt: endAt,
      EnergyWh: item.EnergyWh,
      MeterDigest: meter?.MeterDigest ?? null,
      FullAt: meter?.FullAt ?? null,
    };
    const priced = order
      ? orderPricing(order, usage, now)
      : {
          DurationMinutes: durationMinutes(startAt, Math.max(endAt ?? now, startAt)),
          AmountCents: null,
          Estimated: false,
          Lines: null,
        };
    return {
      ...item,
      ...places.get(item.ChargeEquipmentId)!,
      ...priced,
      ChargeOrderId: order?.Id ?? null,
      OrderNo: order?.OrderNo ?? null,
      PaymentState: order?.PaymentState ?? null,
    };
  });
}

/** How many charging sessions are running across the database: the metrics' gauge (platform/metrics.ts). */
export async function openSessionCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('ChargeRecord')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('EndAt', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
