import { z } from 'zod';
import { chargingSystemType } from '../../enums/garage.ts';
import { MAX_HOST_PORTS } from '../../garage/hosts.ts';
import { zodRule } from '../../validators/adapters.ts';
import { upperAlnum } from '../../validators/rules.ts';
import { operation, resourceApi } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { GARAGE_TAG, hostLinkFields } from './common.ts';
import { hostMaxPowerField } from './power-budget.ts';
import { clearHeatAlarmBody, heatAlarmItem } from './heat-alarm.ts';

/**
 * What a configuration pass did with one key (docs/chargers.md, "Configured by Gatehouse"): `Unchanged` it
 * already held the wanted value (nothing sent); `Accepted`, `Rejected`, `RebootRequired`, `NotSupported` the
 * charger's answer to ChangeConfiguration; `ReadOnly` the charger lists the key as read-only with another value
 * (nothing sent); `NotAnswered` no answer (timeout, a CallError, the connection lost).
 */
export const CONFIGURATION_OUTCOMES = [
  'Unchanged',
  'Accepted',
  'Rejected',
  'RebootRequired',
  'NotSupported',
  'ReadOnly',
  'NotAnswered',
] as const;
export type ConfigurationOutcome = (typeof CONFIGURATION_OUTCOMES)[number];

/** One key of a charger's configuration pass: the value read, the value Gatehouse wanted, the outcome. */
export const configurationKeyReport = z.object({
  Key: z.string(),
  /** As GetConfiguration gave it; null when the charger did not list the key. */
  Read: z.string().nullable(),
  Wanted: z.string(),
  Outcome: z.enum(CONFIGURATION_OUTCOMES),
  /**
   * Why Wanted is not everything Gatehouse asks for: `noTemperature` (the charger refused the measurands with
   * Temperature, and took the one retry without it, or its MeterValuesSampledDataMaxLength left no room).
   */
  Note: z.string().nullable(),
});

/** The last configuration pass of a charging-API host (on its boot, or the operator's "configure"). */
export const chargerConfiguration = z.object({
  At: z.string(),
  Trigger: z.enum(['boot', 'operator']),
  /** SupportedFeatureProfiles as read (Core, SmartCharging, …); null when the charger did not list it. */
  Profiles: z.array(z.string()).nullable(),
  /** Why GetConfiguration gave nothing (`NotAnswered`, or the CallError's code); then Keys is empty. */
  ReadError: z.string().nullable(),
  Keys: z.array(configurationKeyReport),
});
export type ChargerConfiguration = z.output<typeof chargerConfiguration>;
export type ConfigurationKeyReport = z.output<typeof configurationKeyReport>;

/** A ChargeHost row, as GET /api/ChargeHost lists it and GET /api/ChargeHost/{Id} returns it. */
export const chargeHostItem = z.object({
  Id: z.number(),
  SerialNumber: z.string(),
  Name: z.string(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  PortCount: z.number(),
  ChargingSystemType: z.number(),
  Endpoint: z.string().nullable(),
  Account: z.string().nullable(),
  /** The password or secret itself never leaves the server. */
  HasPassword: z.boolean(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  LastSeenAt: z.string().nullable(),
  /**
   * A charging-API host: connected now (its charge point's WebSocket). Any other host: reported within
   * `HOST_ONLINE_WINDOW_MS`.
   */
  Online: z.boolean(),
  ...hostLinkFields,
  SocketCount: z.number(),
  SocketsOccupied: z.number(),
  SocketsFault: z.number(),
  /** Its charger's last configuration pass (charging-API hosts that have booted since issue 30), else null. */
  Configuration: chargerConfiguration.nullable(),
  /** What the host may draw in all (W): the zone budget's limits respect it; null: no limit of its own. */
  MaxPowerW: z.number().nullable(),
  /** Its open heat alarm (docs/garage.md "Heat"): no session starts on it until cleared; null when none. */
  HeatAlarm: heatAlarmItem.nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ChargeHostItem = z.output<typeof chargeHostItem>;

const fields = {
  SerialNumber: z.string().trim().min(4).max(32).superRefine(zodRule(upperAlnum)),
  Name: z.string().trim().min(1).max(50),
  ParkAreaId: id,
  PortCount: z.number().int().min(1).max(MAX_HOST_PORTS),
  ChargingSystemType: enumNumber(chargingSystemType),
  Endpoint: optionalText(200),
  Account: optionalText(100),
  /** Write-only; absent on update keeps the stored one. */
  Password: z.string().max(200).nullable().optional(),
  Remark: optionalText(200),
  /** The host's own power limit (W); null removes it; absent on update keeps it. */
  MaxPowerW: hostMaxPowerField,
};

export const chargeHostBody = z.strictObject(fields);
export type ChargeHostBody = z.output<typeof chargeHostBody>;

/** A command's answer: the charger's own status word (Accepted, Scheduled, …). */
export const commandReply = z.object({ Status: z.string() });
export type CommandReply = z.output<typeof commandReply>;

/** Charging hosts (spec screen chargeHost); creating one creates its sockets 1…PortCount. */
export const ChargeHostApi = {
  reset: operation({
    method: 'POST',
    path: '/api/ChargeHost/Reset',
    summary: 'Restart a charging host (OCPP Reset, Soft unless Hard); 409 when offline or refused',
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Hard: z.boolean().optional() }),
    reply: commandReply,
  }),
  configure: operation({
    method: 'POST',
    path: '/api/ChargeHost/Configure',
    summary:
      "Read and write a charging-API host's configuration (GetConfiguration, then ChangeConfiguration where it differs) once; 409 when not connected",
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    reply: chargerConfiguration,
  }),
  clearAlarm: operation({
    method: 'POST',
    path: '/api/ChargeHost/ClearAlarm',
    summary:
      "Clear a charging host's heat alarm with a note: sessions may start there again; 409 when it has none",
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: clearHeatAlarmBody,
    reply: heatAlarmItem,
  }),
  setOcppPassword: operation({
    method: 'POST',
    path: '/api/ChargeHost/SetOcppPassword',
    summary: "Generate a charging-API host's OCPP password, shown once in this reply and stored hashed",
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    reply: z.object({ Password: z.string() }),
  }),
  ...resourceApi({
    name: 'ChargeHost',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: BICYCLE_ADMIN,
    item: chargeHostItem,
    filters: {
      Keyword: filterSchema.text(),
      ParkAreaId: filterSchema.id(),
      ChargingSystemType: filterSchema.oneOf(chargingSystemType),
      Disabled: filterSchema.flag(),
    },
    sorts: ['Name', 'SerialNumber', 'ZoneName', 'LastSeenAt', 'CreatedAt'],
    create: chargeHostBody,
    update: z.strictObject({ Id: id, ...fields }),
    remove: true,
    status: true,
  }),
};
