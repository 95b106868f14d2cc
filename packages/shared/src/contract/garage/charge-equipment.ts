import { z } from 'zod';
import { chargePortState } from '../../enums/garage.ts';
import { operation, resourceApi } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { filterSchema, id, idText, optionalText, queryBool } from '../wire.ts';
import { commandReply } from './charge-host.ts';
import { GARAGE_TAG, PORT_STATE_GROUPS, hostLinkFields, portGroupCounts } from './common.ts';
import { zonePower } from './power-budget.ts';
import { heatAlarmItem } from './heat-alarm.ts';

/** The running session at a socket, with its live estimate. */
export const chargeEquipmentSession = z.object({
  ChargeRecordId: z.number(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  CardNumber: z.string().nullable(),
  StartAt: z.string(),
  EnergyWh: z.number(),
  DurationMinutes: z.number(),
  EstimatedCents: z.number().nullable(),
});
export type ChargeEquipmentSession = z.output<typeof chargeEquipmentSession>;

/** A ChargeEquipment row, as GET /api/ChargeEquipment lists it and GET /api/ChargeEquipment/{Id} returns it. */
export const chargeEquipmentItem = z.object({
  Id: z.number(),
  ChargeHostId: z.number(),
  HostName: z.string(),
  HostSerialNumber: z.string(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  PortNumber: z.number(),
  State: z.number(),
  /** The state's display colour (chargePortState), so a cell needs no lookup. */
  StateColor: z.string().nullable(),
  StateGroup: z.enum(PORT_STATE_GROUPS),
  StateChangedAt: z.string(),
  Disabled: z.boolean(),
  Remark: z.string().nullable(),
  Session: chargeEquipmentSession.nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ChargeEquipmentItem = z.output<typeof chargeEquipmentItem>;

export const gridSocket = chargeEquipmentItem.pick({
  Id: true,
  PortNumber: true,
  State: true,
  StateColor: true,
  StateGroup: true,
  StateChangedAt: true,
  Disabled: true,
  Remark: true,
  Session: true,
});
export type GridSocket = z.output<typeof gridSocket>;

export const chargeEquipmentGrid = z.object({
  Host: z.object({
    Id: z.number(),
    Name: z.string(),
    SerialNumber: z.string(),
    ParkAreaId: z.number(),
    ZoneName: z.string(),
    PortCount: z.number(),
    Disabled: z.boolean(),
    Online: z.boolean(),
    LastSeenAt: z.string().nullable(),
    ...hostLinkFields,
    /** The host's open heat alarm: every socket of it refuses new sessions until it is cleared; null when none. */
    HeatAlarm: heatAlarmItem.nullable(),
  }),
  Sockets: z.array(gridSocket),
  /** Sockets per state group, for the legend. */
  Counts: portGroupCounts,
  /** The host's zone's live draw against its power budget. */
  ZonePower: zonePower,
});
export type ChargeEquipmentGrid = z.output<typeof chargeEquipmentGrid>;

/** Charging sockets (spec screen chargeEquipment): the list, the grid per host, status and remote start. */
export const ChargeEquipmentApi = {
  grid: operation({
    method: 'GET',
    path: '/api/ChargeEquipment/Grid',
    summary: "One host's sockets coloured by state, with running sessions and live estimates",
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    query: z.object({ ChargeHostId: idText }),
    reply: chargeEquipmentGrid,
  }),
  /** Not the standard status: a disabled socket is in state 12, and a running session keeps it enabled. */
  setStatus: operation({
    method: 'POST',
    path: '/api/ChargeEquipment/SetStatus',
    summary: 'Enable or disable a socket (disabled sockets are in state 12)',
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    query: z.object({ Id: idText, Disabled: queryBool }),
  }),
  remoteStart: operation({
    method: 'POST',
    path: '/api/ChargeEquipment/RemoteStart',
    summary:
      'Start a session on a socket for a card (OCPP RemoteStartTransaction); 409 when the host is offline or the charger refuses',
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    body: z.strictObject({ ChargeEquipmentId: id, CardNumber: z.string().trim().min(1).max(20) }),
    reply: commandReply,
  }),
  ...resourceApi({
    name: 'ChargeEquipment',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: BICYCLE_ADMIN,
    item: chargeEquipmentItem,
    filters: {
      ChargeHostId: filterSchema.id(),
      ParkAreaId: filterSchema.id(),
      State: filterSchema.oneOf(chargePortState),
      StateGroup: z.enum(PORT_STATE_GROUPS),
      Disabled: filterSchema.flag(),
      Keyword: filterSchema.text(),
    },
    /** KnownFirst (the default): sockets whose state a connected charger reports, or disabled, before the unknown. */
    sorts: ['KnownFirst', 'Host', 'PortNumber', 'State', 'StateChangedAt'],
    create: z.strictObject({
      ChargeHostId: id,
      PortNumber: z.number().int().min(1),
      Remark: optionalText(200),
    }),
    /** The host, state and status are not edited here (state comes from the device, status from SetStatus). */
    update: z.strictObject({ Id: id, PortNumber: z.number().int().min(1), Remark: optionalText(200) }),
    remove: true,
  }),
};
