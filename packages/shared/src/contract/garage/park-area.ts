import { z } from 'zod';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { filterSchema, id, optionalText } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';
import { powerBudgetField, zonePower } from './power-budget.ts';
import { zoneEmergencyStopItem } from './emergency-stop.ts';
import { maxTemperatureField } from './heat-alarm.ts';

/** A charge rule as a park area names it. */
export const chargeRuleRef = z.object({
  Id: z.number(),
  Name: z.string(),
  ChargeType: z.number(),
  Disabled: z.boolean(),
});
export type ChargeRuleRef = z.output<typeof chargeRuleRef>;

/** A ParkArea row, as GET /api/ParkArea lists it and GET /api/ParkArea/{Id} returns it. */
export const parkAreaItem = z.object({
  Id: z.number(),
  Name: z.string(),
  Capacity: z.number(),
  Location: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ChargeRuleIds: z.array(z.number()),
  ChargeRules: z.array(chargeRuleRef),
  HostCount: z.number(),
  SocketsTotal: z.number(),
  SocketsOccupied: z.number(),
  SocketsIdle: z.number(),
  SocketsFault: z.number(),
  SocketsDisabled: z.number(),
  /** Sockets whose state nothing connected reports now: "unknown / not connected" (liveness). */
  SocketsOffline: z.number(),
  /** Vehicles inside on temporary parking (open parking orders). */
  ParkedCount: z.number(),
  /** What the zone's feeder may carry (W); null: no budget (docs/garage.md "Zone power budget"). */
  PowerBudgetW: z.number().nullable(),
  /** Its live draw against the budget. */
  Power: zonePower,
  /** The zone's emergency stop in force (no session starts in it until released); null when none. */
  EmergencyStop: zoneEmergencyStopItem.nullable(),
  /** Above this (°C) a charger's temperature puts its host in heat alarm (docs/garage.md "Heat"); null: none. */
  MaxTemperatureC: z.number().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ParkAreaItem = z.output<typeof parkAreaItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  Capacity: z.number().int().min(0).max(100_000),
  Location: optionalText(100),
  Remark: optionalText(200),
  /** Present: replaces the zone's rules; absent on update: leaves them. */
  ChargeRuleIds: z.array(id).max(50).optional(),
  /** The zone's power budget (W); null removes it; absent on update keeps it. */
  PowerBudgetW: powerBudgetField,
  /** The zone's heat limit (whole °C, MAX_TEMPERATURE_C); null removes it; absent on update keeps it. */
  MaxTemperatureC: maxTemperatureField,
};

/** Parking zones (spec screen parkArea), with live socket occupancy and the rules that apply. */
export const ParkAreaApi = resourceApi({
  name: 'ParkArea',
  tag: GARAGE_TAG,
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  item: parkAreaItem,
  filters: { Name: filterSchema.text(), Disabled: filterSchema.flag(), ChargeRuleId: filterSchema.id() },
  sorts: ['Name', 'Capacity', 'CreatedAt'],
  create: z.strictObject(fields),
  update: z.strictObject({ Id: id, ...fields }),
  remove: true,
  status: true,
});
