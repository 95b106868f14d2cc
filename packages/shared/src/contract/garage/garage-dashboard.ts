import { z } from 'zod';
import { operation } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { wholeNumber } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';
import { zonePower } from './power-budget.ts';

export const garageFigures = z.object({
  Sessions: z.number(),
  EnergyWh: z.number(),
  ChargingRevenueCents: z.number(),
  ParkOrders: z.number(),
  ParkingRevenueCents: z.number(),
});
export type GarageFigures = z.output<typeof garageFigures>;

export const garageSummary = z.object({
  /** The area's zone: where "today" starts. */
  TimeZone: z.string(),
  Sockets: z.object({
    Total: z.number(),
    Idle: z.number(),
    Occupied: z.number(),
    Fault: z.number(),
    Disabled: z.number(),
    /** Sockets of a charge point that is offline or never connected (shown as 255, unknown). */
    Offline: z.number().optional(),
    /** Every state in enumeration order, with its colour (zero counts included, so a chart legend is stable). */
    ByState: z.array(z.object({ State: z.number(), Color: z.string().nullable(), Count: z.number() })),
  }),
  Hosts: z.object({ Total: z.number(), Online: z.number() }),
  Zones: z.object({ Total: z.number(), Capacity: z.number(), Parked: z.number() }),
  /** Sessions running on sockets whose charge point is connected (or that have no live link). */
  OpenSessions: z.number(),
  /** Sessions still open on sockets of an offline charge point: whether they charge is unknown. */
  OpenSessionsOffline: z.number().optional(),
  Today: garageFigures,
  /** The area's zones with a power budget, their live draw against it (busiest first). */
  ZonePower: z.array(zonePower.extend({ ParkAreaId: z.number(), ZoneName: z.string() })),
});
export type GarageSummary = z.output<typeof garageSummary>;

export const garageDaily = z.object({
  TimeZone: z.string(),
  /** Oldest first, one entry per local day including today (empty days are zeros). */
  Days: z.array(garageFigures.extend({ Date: z.string() })),
});
export type GarageDaily = z.output<typeof garageDaily>;

/** The garage's figures on the dashboard (docs/garage.md, "Dashboard panel"). */
export const GarageDashboardApi = {
  summary: operation({
    method: 'GET',
    path: '/api/GarageDashboard',
    summary: "The garage's key figures for the current area (sockets by state, hosts online, today)",
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    reply: garageSummary,
  }),
  daily: operation({
    method: 'GET',
    path: '/api/GarageDashboard/Daily',
    summary: 'Sessions, energy and revenue per local day (charts; loaded on demand)',
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    query: z.object({ Days: wholeNumber(z.number().int().min(1).max(90)).default(30) }),
    reply: garageDaily,
  }),
};
