import { z } from 'zod';
import { id } from '../wire.ts';

/**
 * A charging host's heat alarm (docs/garage.md "Heat", docs/chargers.md "Heat"): raised when a Temperature
 * reading of its charger passes its parking zone's `MaxTemperatureC`, or when the charger reports the
 * `HighTemperature` error code (whatever the limit). While it is open every running session on the host has been
 * asked to stop ("over temperature") and no session starts there; an operator clears it with a note.
 *
 * `temperature`: a MeterValues Temperature sample above the limit. `fault`: a StatusNotification with errorCode
 * HighTemperature ("temperature inside the charge point is too high", OCPP 1.6).
 */
export const HEAT_ALARM_TRIGGERS = ['temperature', 'fault'] as const;
export type HeatAlarmTrigger = (typeof HEAT_ALARM_TRIGGERS)[number];

/**
 * The whole degrees a zone's `MaxTemperatureC` may be set to. Below 30 °C an ordinary summer day in a garage
 * would stop every charger; above 120 °C a lithium pack is long past thermal runaway (packs are rated to
 * charge up to about 45–60 °C, charger enclosures to 70–85 °C), so such a limit protects nothing.
 */
export const MAX_TEMPERATURE_C = { min: 30, max: 120 } as const;

/** The zone's limit in a body: whole °C within MAX_TEMPERATURE_C; null = no limit; absent on update keeps it. */
export const maxTemperatureField = z
  .number()
  .int()
  .min(MAX_TEMPERATURE_C.min)
  .max(MAX_TEMPERATURE_C.max)
  .nullable()
  .optional();

/** A session Gatehouse asked the charger to stop when the alarm was raised. */
export const heatAlarmSession = z.object({
  ChargeRecordId: z.number(),
  ChargeEquipmentId: z.number(),
  PortNumber: z.number(),
  CardNumber: z.string().nullable(),
  OrderNo: z.string().nullable(),
});
export type HeatAlarmSession = z.output<typeof heatAlarmSession>;

/** A heat alarm as the host screen, the socket grid, the live hub and the outward events show it. */
export const heatAlarmItem = z.object({
  Id: z.number(),
  ChargeHostId: z.number(),
  HostName: z.string(),
  SerialNumber: z.string(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  Trigger: z.enum(HEAT_ALARM_TRIGGERS),
  /** The reading that raised it (°C, one decimal); null for a HighTemperature fault that came without one. */
  TemperatureC: z.number().nullable(),
  /** The zone's MaxTemperatureC when it was raised; null when the zone has none (a fault raises it anyway). */
  LimitC: z.number().nullable(),
  /** Where the charger measured or reported it: 0 the charge point as a whole, else the connector (port). */
  ConnectorId: z.number(),
  /** OCPP's sample location (Body, EV, Outlet, Inlet, Cable) of a reading; null for a fault. */
  Location: z.string().nullable(),
  RaisedAt: z.string(),
  /** The latest temperature the charger reported while the alarm is open, and when: is it cooling down? */
  LastTemperatureC: z.number().nullable(),
  LastReadingAt: z.string().nullable(),
  /** The sessions that were running on the host when it was raised: each asked to stop, "over temperature". */
  Sessions: z.array(heatAlarmSession),
  /** Null while open. */
  ClearedAt: z.string().nullable(),
  ClearedBy: z.string().nullable(),
  /** The operator's note when clearing it. */
  Note: z.string().nullable(),
});
export type HeatAlarmItem = z.output<typeof heatAlarmItem>;

/** Clearing a host's heat alarm: the host, and why it is safe again (required). */
export const clearHeatAlarmBody = z.strictObject({
  Id: id,
  Note: z.string().trim().min(1).max(200),
});
