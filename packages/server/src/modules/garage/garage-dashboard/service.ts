import {
  COLLECTED_STATES,
  addLocalDays,
  chargePortState,
  localDateKey,
  startOfLocalDay,
  type GarageDaily,
  type GarageFigures,
  type GarageSummary,
} from '@gatehouse/shared';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { groupCounts, shownStateCounts, socketTotal } from '../charge-equipment/service.ts';
import { socketSessions } from '../charge-record/service.ts';
import { areaTimeZone } from '../common/index.ts';
import { offlineSocketWhere, onlineHostWhere } from '../common/liveness.ts';
import { budgetZonesOfArea } from '../park-area/power.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- aggregate rows are shaped by the SQL below */

type Figures = GarageFigures;

const n = (v: unknown) => Number(v ?? 0);

/** `case when col < b1 then 0 when col < b2 then 1 … end`: the local day of each row, exact in any zone. */
function dayIndex(column: string, bounds: number[]): RawBuilder<number> {
  const whens = bounds.slice(1).map((b, i) => sql`when ${sql.ref(column)} < ${b} then ${sql.lit(i)}`);
  return sql<number>`case ${sql.join(whens, sql` `)} end`;
}

const collected = (column: string, amount: string) =>
  sql<number>`sum(case when ${sql.ref(column)} in (${sql.join(COLLECTED_STATES.map((s) => sql.lit(s)))}) then ${sql.ref(amount)} else 0 end)`;

type Sums = Record<string, RawBuilder<number>>;

/** Rows of an area's table whose `column` falls between the bounds, summed per local day: day → sums. */
async function sumsPerDay(
  db: Kysely<Database>,
  areaId: number,
  bounds: number[],
  table: 'ChargeRecord' | 'ChargeOrder' | 'ParkOrder',
  column: 'StartAt' | 'CreatedAt' | 'EntryAt',
  sums: Sums,
): Promise<Map<number, Record<string, unknown>>> {
  const rows = await (db as Kysely<any>)
    .selectFrom(table)
    .select([dayIndex(column, bounds).as('d'), ...Object.entries(sums).map(([name, sum]) => sum.as(name))])
    .where('AreaId', '=', areaId)
    .where(column, '>=', bounds[0]!)
    .where(column, '<', bounds[bounds.length - 1]!)
    .groupBy('d')
    .execute();
  return new Map(rows.map((r: Record<string, unknown>) => [n(r.d), r]));
}

const count = sql<number>`count(*)`;

/** Sessions, energy and revenue per local day between bounds[0] and bounds[last] (charging by session start, parking by entry). */
async function perDay(db: Kysely<Database>, areaId: number, bounds: number[]): Promise<Figures[]> {
  const [sessions, charging, parking] = await Promise.all([
    sumsPerDay(db, areaId, bounds, 'ChargeRecord', 'StartAt', {
      n: count,
      wh: sql<number>`sum(${sql.ref('EnergyWh')})`,
    }),
    sumsPerDay(db, areaId, bounds, 'ChargeOrder', 'CreatedAt', {
      cents: collected('PaymentState', 'AmountCents'),
    }),
    sumsPerDay(db, areaId, bounds, 'ParkOrder', 'EntryAt', {
      n: count,
      cents: collected('PaymentState', 'AmountCents'),
    }),
  ]);
  return bounds.slice(1).map((_, d) => ({
    Sessions: n(sessions.get(d)?.n),
    EnergyWh: n(sessions.get(d)?.wh),
    ChargingRevenueCents: n(charging.get(d)?.cents),
    ParkOrders: n(parking.get(d)?.n),
    ParkingRevenueCents: n(parking.get(d)?.cents),
  }));
}

/** The garage's key figures for the current area: sockets by state, hosts online, occupancy and today. */
export async function dashboardSummary(ctx: AreaContext): Promise<GarageSummary> {
  const k = ctx.db.kysely;
  const areaId = ctx.areaId;
  const now = ctx.clock.now();
  const zone = await areaTimeZone(k, areaId);
  const today = startOfLocalDay(now, zone);
  const [states, hosts, zones, parked, open, [todayFigures]] = await Promise.all([
    shownStateCounts(k, 'area', [areaId]),
    k
      .selectFrom('ChargeHost')
      .select((eb) => [
        eb.fn.countAll().as('total'),
        // A charging-API host is online while connected, any other by its last report (liveness.ts).
        eb.fn.sum(eb.case().when(onlineHostWhere(eb, now)).then(1).else(0).end()).as('online'),
      ])
      .where('AreaId', '=', areaId)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('ParkArea')
      .select((eb) => [eb.fn.countAll().as('total'), eb.fn.sum('Capacity').as('capacity')])
      .where('AreaId', '=', areaId)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('ParkOrder')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('AreaId', '=', areaId)
      .where('ExitAt', 'is', null)
      .executeTakeFirstOrThrow(),
    // Sessions running, apart from those on a charge point that is offline: whether they still charge is
    // unknown until it reports again (liveness.ts), so they are counted on their own.
    socketSessions(k, { areaId })
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.sum(eb.case().when(offlineSocketWhere(eb)).then(1).else(0).end()).as('offline'),
      ])
      .executeTakeFirstOrThrow(),
    perDay(k, areaId, [today, addLocalDays(today, 1, zone)]),
  ]);
  // Sockets of an offline charge point count as 255 (unknown), in no idle or charging total (liveness.ts).
  const counts = states.get(areaId) ?? new Map<number, number>();
  const groups = groupCounts(counts);
  const known = new Set<number>(chargePortState.items.map((i) => i.value));
  return {
    TimeZone: zone,
    Sockets: {
      Total: socketTotal(groups),
      Idle: groups.idle,
      Occupied: groups.occupied,
      Fault: groups.fault,
      Disabled: groups.disabled,
      Offline: groups.offline,
      ByState: [
        ...chargePortState.items.map((i) => ({
          State: i.value,
          Color: i.color ?? null,
          Count: counts.get(i.value) ?? 0,
        })),
        // A state a newer device reports that the enumeration does not know yet still counts.
        ...[...counts]
          .filter(([s]) => !known.has(s))
          .map(([State, Count]) => ({ State, Color: null, Count })),
      ],
    },
    Hosts: { Total: n(hosts.total), Online: n(hosts.online) },
    Zones: { Total: n(zones.total), Capacity: n(zones.capacity), Parked: n(parked.n) },
    OpenSessions: n(open.n) - n(open.offline),
    OpenSessionsOffline: n(open.offline),
    Today: todayFigures!,
    ZonePower: await budgetZonesOfArea(k, areaId, now),
  };
}

/** Per local day over the last `days` days (today included): the dashboard's charts. */
export async function dashboardDaily(ctx: AreaContext, days: number): Promise<GarageDaily> {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const today = startOfLocalDay(ctx.clock.now(), zone);
  const bounds = Array.from({ length: days + 1 }, (_, i) => addLocalDays(today, i - days + 1, zone));
  const figuresPerDay = await perDay(ctx.db.kysely, ctx.areaId, bounds);
  return {
    TimeZone: zone,
    Days: figuresPerDay.map((f, i) => ({ Date: localDateKey(bounds[i]!, zone), ...f })),
  };
}
