import type { garageFigures } from '@gatehouse/shared';
import {
  COLLECTED_STATES,
  addLocalDays,
  chargePortState,
  localDateKey,
  portStateGroup,
  startOfLocalDay,
  BICYCLE_ANY,
  garageSummary,
  garageDaily,
} from '@gatehouse/shared';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { wholeNumber } from '../../../platform/schemas.ts';
import { areaTimeZone } from '../common.ts';
import { offlineSocketWhere, onlineHostWhere, shownState } from '../liveness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- aggregate rows are shaped by the SQL below */

type Figures = z.infer<typeof garageFigures>;

const n = (v: unknown) => Number(v ?? 0);

/** `case when col < b1 then 0 when col < b2 then 1 … end`: the local day of each row, exact in any zone. */
function dayIndex(column: string, bounds: number[]): RawBuilder<number> {
  const whens = bounds.slice(1).map((b, i) => sql`when ${sql.ref(column)} < ${b} then ${sql.lit(i)}`);
  return sql<number>`case ${sql.join(whens, sql` `)} end`;
}

const collected = (column: string, amount: string) =>
  sql<number>`sum(case when ${sql.ref(column)} in (${sql.join(COLLECTED_STATES.map((s) => sql.lit(s)))}) then ${sql.ref(amount)} else 0 end)`;

/** Sessions, energy and revenue per local day between bounds[0] and bounds[last] (charging by session start, parking by entry). */
async function perDay(db: Kysely<Database>, areaId: number, bounds: number[]): Promise<Figures[]> {
  const k = db as Kysely<any>;
  const from = bounds[0]!;
  const to = bounds[bounds.length - 1]!;
  const [sessions, charging, parking] = await Promise.all([
    k
      .selectFrom('ChargeRecord')
      .select([
        dayIndex('StartAt', bounds).as('d'),
        (eb: any) => eb.fn.countAll().as('n'),
        (eb: any) => eb.fn.sum('EnergyWh').as('wh'),
      ])
      .where('AreaId', '=', areaId)
      .where('StartAt', '>=', from)
      .where('StartAt', '<', to)
      .groupBy('d')
      .execute(),
    k
      .selectFrom('ChargeOrder')
      .select([dayIndex('CreatedAt', bounds).as('d'), collected('PaymentState', 'AmountCents').as('cents')])
      .where('AreaId', '=', areaId)
      .where('CreatedAt', '>=', from)
      .where('CreatedAt', '<', to)
      .groupBy('d')
      .execute(),
    k
      .selectFrom('ParkOrder')
      .select([
        dayIndex('EntryAt', bounds).as('d'),
        (eb: any) => eb.fn.countAll().as('n'),
        collected('PaymentState', 'AmountCents').as('cents'),
      ])
      .where('AreaId', '=', areaId)
      .where('EntryAt', '>=', from)
      .where('EntryAt', '<', to)
      .groupBy('d')
      .execute(),
  ]);
  const days: Figures[] = bounds.slice(1).map(() => ({
    Sessions: 0,
    EnergyWh: 0,
    ChargingRevenueCents: 0,
    ParkOrders: 0,
    ParkingRevenueCents: 0,
  }));
  for (const r of sessions) {
    const day = days[n(r.d)];
    if (day) {
      day.Sessions = n(r.n);
      day.EnergyWh = n(r.wh);
    }
  }
  for (const r of charging) {
    const day = days[n(r.d)];
    if (day) day.ChargingRevenueCents = n(r.cents);
  }
  for (const r of parking) {
    const day = days[n(r.d)];
    if (day) {
      day.ParkOrders = n(r.n);
      day.ParkingRevenueCents = n(r.cents);
    }
  }
  return days;
}

/** The garage's key figures for the current area: sockets by state, hosts online, occupancy and today. */
export async function dashboardSummary(ctx: AreaContext): Promise<z.infer<typeof garageSummary>> {
  const k = ctx.db.kysely;
  const areaId = ctx.areaId;
  const now = ctx.clock.now();
  const zone = await areaTimeZone(k, areaId);
  const today = startOfLocalDay(now, zone);
  const [states, hosts, zones, parked, open, [todayFigures]] = await Promise.all([
    k
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select((eb) => [
        'ChargeEquipment.State',
        'ChargeEquipment.Disabled',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.OcppOnline',
        eb.fn.countAll().as('n'),
      ])
      .where('ChargeEquipment.AreaId', '=', areaId)
      .groupBy([
        'ChargeEquipment.State',
        'ChargeEquipment.Disabled',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.OcppOnline',
      ])
      .execute(),
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
    k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.sum(eb.case().when(offlineSocketWhere(eb)).then(1).else(0).end()).as('offline'),
      ])
      .where('ChargeRecord.AreaId', '=', areaId)
      .where('ChargeRecord.EndAt', 'is', null)
      .executeTakeFirstOrThrow(),
    perDay(k, areaId, [today, addLocalDays(today, 1, zone)]),
  ]);
  // Sockets of an offline charge point count as 255 (unknown), in no idle or charging total (liveness.ts).
  const counts = new Map<number, number>();
  for (const s of states) {
    const state = shownState(s);
    counts.set(state, (counts.get(state) ?? 0) + n(s.n));
  }
  const groups = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
  for (const [state, count] of counts) groups[portStateGroup(state)] += count;
  const known = new Set<number>(chargePortState.items.map((i) => i.value));
  return {
    TimeZone: zone,
    Sockets: {
      Total: groups.idle + groups.occupied + groups.fault + groups.disabled + groups.offline,
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
  };
}

/** Per local day over the last `days` days (today included): the dashboard's charts. */
export async function dashboardDaily(ctx: AreaContext, days: number): Promise<z.infer<typeof garageDaily>> {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const today = startOfLocalDay(ctx.clock.now(), zone);
  const bounds = Array.from({ length: days + 1 }, (_, i) => addLocalDays(today, i - days + 1, zone));
  const figuresPerDay = await perDay(ctx.db.kysely, ctx.areaId, bounds);
  return {
    TimeZone: zone,
    Days: figuresPerDay.map((f, i) => ({ Date: localDateKey(bounds[i]!, zone), ...f })),
  };
}

export const garageDashboardRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/GarageDashboard',
    summary: "The garage's key figures for the current area (sockets by state, hosts online, today)",
    tag: 'Garage',
    access: BICYCLE_ANY,
    area: true,
    response: garageSummary,
    handler: (_input, ctx) => dashboardSummary(ctx),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/GarageDashboard/Daily',
    summary: 'Sessions, energy and revenue per local day (charts; loaded on demand)',
    tag: 'Garage',
    access: BICYCLE_ANY,
    area: true,
    query: z.object({ Days: wholeNumber(z.number().int().min(1).max(90)).default(30) }),
    response: garageDaily,
    handler: ({ query }, ctx) => dashboardDaily(ctx, query.Days),
  }),
];
