import {
  COLLECTED_STATES,
  HOST_ONLINE_WINDOW_MS,
  addLocalDays,
  chargePortState,
  localDateKey,
  portStateGroup,
  startOfLocalDay,
} from '@gatehouse/shared';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineRoute, type AuthedContext } from '../../platform/route.ts';
import { READ, areaTimeZone } from './common.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- aggregate rows are shaped by the SQL below */

const figures = z.object({
  Sessions: z.number(),
  EnergyWh: z.number(),
  ChargingRevenueCents: z.number(),
  ParkOrders: z.number(),
  ParkingRevenueCents: z.number(),
});
type Figures = z.infer<typeof figures>;

const summary = z.object({
  /** The area's zone: where "today" starts. */
  TimeZone: z.string(),
  Sockets: z.object({
    Total: z.number(),
    Idle: z.number(),
    Occupied: z.number(),
    Fault: z.number(),
    Disabled: z.number(),
    /** Every state in enumeration order, with its colour (zero counts included, so a chart legend is stable). */
    ByState: z.array(z.object({ State: z.number(), Color: z.string().nullable(), Count: z.number() })),
  }),
  Hosts: z.object({ Total: z.number(), Online: z.number() }),
  Zones: z.object({ Total: z.number(), Capacity: z.number(), Parked: z.number() }),
  OpenSessions: z.number(),
  Today: figures,
});

const daily = z.object({
  TimeZone: z.string(),
  /** Oldest first, one entry per local day including today (empty days are zeros). */
  Days: z.array(figures.extend({ Date: z.string() })),
});

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
export async function dashboardSummary(ctx: AuthedContext): Promise<z.infer<typeof summary>> {
  const k = ctx.db.kysely;
  const areaId = ctx.areaId!;
  const now = ctx.clock.now();
  const zone = await areaTimeZone(k, areaId);
  const today = startOfLocalDay(now, zone);
  const [states, hosts, zones, parked, open, [todayFigures]] = await Promise.all([
    k
      .selectFrom('ChargeEquipment')
      .select((eb) => ['State', eb.fn.countAll().as('n')])
      .where('AreaId', '=', areaId)
      .groupBy('State')
      .execute(),
    k
      .selectFrom('ChargeHost')
      .select((eb) => [
        eb.fn.countAll().as('total'),
        eb.fn
          .sum(
            eb
              .case()
              .when('LastSeenAt', '>=', now - HOST_ONLINE_WINDOW_MS)
              .then(1)
              .else(0)
              .end(),
          )
          .as('online'),
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
    k
      .selectFrom('ChargeRecord')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('AreaId', '=', areaId)
      .where('EndAt', 'is', null)
      .executeTakeFirstOrThrow(),
    perDay(k, areaId, [today, addLocalDays(today, 1, zone)]),
  ]);
  const counts = new Map(states.map((s) => [s.State, n(s.n)]));
  const groups = { idle: 0, occupied: 0, fault: 0, disabled: 0 };
  for (const [state, count] of counts) groups[portStateGroup(state)] += count;
  const known = new Set<number>(chargePortState.items.map((i) => i.value));
  return {
    TimeZone: zone,
    Sockets: {
      Total: groups.idle + groups.occupied + groups.fault + groups.disabled,
      Idle: groups.idle,
      Occupied: groups.occupied,
      Fault: groups.fault,
      Disabled: groups.disabled,
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
    OpenSessions: n(open.n),
    Today: todayFigures!,
  };
}

/** Per local day over the last `days` days (today included): the dashboard's charts. */
export async function dashboardDaily(ctx: AuthedContext, days: number): Promise<z.infer<typeof daily>> {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId!);
  const today = startOfLocalDay(ctx.clock.now(), zone);
  const bounds = Array.from({ length: days + 1 }, (_, i) => addLocalDays(today, i - days + 1, zone));
  const figuresPerDay = await perDay(ctx.db.kysely, ctx.areaId!, bounds);
  return {
    TimeZone: zone,
    Days: figuresPerDay.map((f, i) => ({ Date: localDateKey(bounds[i]!, zone), ...f })),
  };
}

export const dashboardRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/GarageDashboard',
    summary: "The garage's key figures for the current area (sockets by state, hosts online, today)",
    tag: 'Garage',
    access: READ,
    area: true,
    response: summary,
    handler: (_input, ctx) => dashboardSummary(ctx),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/GarageDashboard/Daily',
    summary: 'Sessions, energy and revenue per local day (charts; loaded on demand)',
    tag: 'Garage',
    access: READ,
    area: true,
    query: z.object({ Days: z.coerce.number().int().min(1).max(90).default(30) }),
    response: daily,
    handler: ({ query }, ctx) => dashboardDaily(ctx, query.Days),
  }),
];
