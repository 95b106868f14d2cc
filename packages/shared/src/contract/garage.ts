import { z } from 'zod';
import type { PortStateGroup } from '../garage/ports.ts';
import { PAYMENT_ACTION_NAMES, type PaymentAction } from '../payment/index.ts';

/** Where a session or order happened, as every session list shows it. */
export const socketPlaceFields = {
  ChargeEquipmentId: z.number(),
  PortNumber: z.number(),
  ChargeHostId: z.number(),
  HostName: z.string(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
};

/** Terms and payment fields both order lists carry. */
export const orderFields = {
  OrderNo: z.string(),
  ChargeRuleId: z.number().nullable(),
  RuleName: z.string().nullable(),
  ChargeType: z.number(),
  TemporaryChargeType: z.number(),
  UnitPriceCents: z.number(),
  PriceUnitKey: z.string().nullable(),
  FreeMinutes: z.number(),
  CapCents: z.number().nullable(),
  DurationMinutes: z.number(),
  /** The settled price, or the live estimate while the session or stay runs. */
  AmountCents: z.number(),
  Estimated: z.boolean(),
  PaymentState: z.number(),
  PaidAt: z.string().nullable(),
  RefundReason: z.string().nullable(),
  CloseReason: z.string().nullable(),
  /** The operator actions this caller may take on this order now (buttons to show). */
  Actions: z.array(z.enum(PAYMENT_ACTION_NAMES as [PaymentAction, ...PaymentAction[]])),
  UpdatedAt: z.string(),
};

/** A socket state's group (portStateGroup): the legend and filter of the socket screens. */
export const PORT_STATE_GROUPS = [
  'idle',
  'occupied',
  'fault',
  'disabled',
  'offline',
] as const satisfies readonly PortStateGroup[];

/** A monthly pass against the server's clock (catalogue garage.passStatus.<Status>). */
export const MONTHLY_PASS_STATUSES = ['Upcoming', 'Active', 'Expired'] as const;
export type MonthlyPassStatus = (typeof MONTHLY_PASS_STATUSES)[number];

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
  /** Vehicles inside on temporary parking (open parking orders). */
  ParkedCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ParkAreaItem = z.output<typeof parkAreaItem>;

/** A ChargeRule row, as GET /api/ChargeRule lists it and GET /api/ChargeRule/{Id} returns it. */
export const chargeRuleItem = z.object({
  Id: z.number(),
  Name: z.string(),
  ChargeType: z.number(),
  TemporaryChargeType: z.number(),
  UnitPriceCents: z.number(),
  /** Catalogue key of the unit the price is per (unit.hour, unit.kWh, unit.times, enum.timeUnit.N). */
  PriceUnitKey: z.string().nullable(),
  TimeUnit: z.number().nullable(),
  FreeMinutes: z.number(),
  CapCents: z.number().nullable(),
  /** Safety limits (docs/chargers.md): maximum session minutes, maximum power, "stop when full". */
  MaxDurationMinutes: z.number().nullable().optional(),
  MaxPowerW: z.number().nullable().optional(),
  FullPowerW: z.number().nullable().optional(),
  FullMinutes: z.number().nullable().optional(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ParkAreaIds: z.array(z.number()),
  ParkAreas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ChargeRuleItem = z.output<typeof chargeRuleItem>;

/**
 * What Gatehouse knows of a host's live device link (docs/chargers.md, "Liveness"): only charging-API hosts
 * (chargingSystemType 2, OCPP charge points) have one, and only they take commands (remote start, reset,
 * OCPP password).
 */
export const hostLinkFields = {
  LiveLink: z.boolean(),
  /** A charging-API host that is not connected: its last sign of life when it went away (null: never connected). */
  OfflineSince: z.string().nullable(),
  /** What the charge point said about itself at its last boot. */
  Device: z
    .object({
      Vendor: z.string(),
      Model: z.string(),
      Firmware: z.string().nullable(),
      BootedAt: z.string().nullable(),
    })
    .nullable(),
};

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
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type ChargeHostItem = z.output<typeof chargeHostItem>;

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
  }),
  Sockets: z.array(gridSocket),
  /** Sockets per state group, for the legend. */
  Counts: z.object({
    idle: z.number(),
    occupied: z.number(),
    fault: z.number(),
    disabled: z.number(),
    /** Sockets of a charge point that is offline or never connected (state 255, unknown). */
    offline: z.number().optional(),
  }),
});
export type ChargeEquipmentGrid = z.output<typeof chargeEquipmentGrid>;

/** A ChargeRecord row, as GET /api/ChargeRecord lists it and GET /api/ChargeRecord/{Id} returns it. */
export const chargeRecordItem = z.object({
  Id: z.number(),
  ...socketPlaceFields,
  CardNumber: z.string().nullable(),
  StartAt: z.string(),
  EndAt: z.string().nullable(),
  /** Still charging. */
  Open: z.boolean(),
  EnergyWh: z.number(),
  DurationMinutes: z.number(),
  StopReason: z.number().nullable(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  /** The order's price, or the live estimate while the session runs. */
  AmountCents: z.number().nullable(),
  Estimated: z.boolean(),
  PaymentState: z.number().nullable(),
});
export type ChargeRecordItem = z.output<typeof chargeRecordItem>;

/** A ChargeOrder row, as GET /api/ChargeOrder lists it and GET /api/ChargeOrder/{Id} returns it. */
export const chargeOrderItem = z.object({
  Id: z.number(),
  ChargeRecordId: z.number(),
  ...socketPlaceFields,
  CardNumber: z.string().nullable(),
  StartAt: z.string(),
  EndAt: z.string().nullable(),
  Open: z.boolean(),
  EnergyWh: z.number(),
  StopReason: z.number().nullable(),
  /** Ended by a forced power-off. */
  Forced: z.boolean(),
  ...orderFields,
});
export type ChargeOrderItem = z.output<typeof chargeOrderItem>;

/** A ParkOrder row, as GET /api/ParkOrder lists it and GET /api/ParkOrder/{Id} returns it. */
export const parkOrderItem = z.object({
  Id: z.number(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  Plate: z.string().nullable(),
  CardNumber: z.string().nullable(),
  VehicleId: z.number().nullable(),
  EntryAt: z.string(),
  ExitAt: z.string().nullable(),
  /** The vehicle is still inside. */
  Inside: z.boolean(),
  ...orderFields,
});
export type ParkOrderItem = z.output<typeof parkOrderItem>;

/** A ForcedOutageRecord row, as GET /api/ForcedOutageRecord lists it and GET /api/ForcedOutageRecord/{Id} returns it. */
export const forcedOutageRecordItem = z.object({
  Id: z.number(),
  At: z.string(),
  ...socketPlaceFields,
  ChargeRecordId: z.number().nullable(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  CardNumber: z.string().nullable(),
  /** The ended order's price. */
  AmountCents: z.number().nullable(),
  Reason: z.string(),
  Result: z.number(),
  /** Why it was not sent or failed (garage.powerOffResult.<code>), and that text in the caller's language. */
  ResultReason: z.string().nullable().optional(),
  ResultText: z.string().nullable().optional(),
  UserName: z.string(),
});
export type ForcedOutageRecordItem = z.output<typeof forcedOutageRecordItem>;

/** A Vehicle row, as GET /api/Vehicle lists it and GET /api/Vehicle/{Id} returns it. */
export const vehicleItem = z.object({
  Id: z.number(),
  Plate: z.string(),
  OwnerName: z.string().nullable(),
  Phone: z.string().nullable(),
  CardHolderId: z.number().nullable(),
  CardHolderName: z.string().nullable(),
  CardId: z.number().nullable(),
  CardNumber: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  /** The pass valid now, if any. */
  ActivePass: z
    .object({ Id: z.number(), RuleName: z.string(), ChargeType: z.number(), EndAt: z.string() })
    .nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type VehicleItem = z.output<typeof vehicleItem>;

/** A MonthlyPass row, as GET /api/MonthlyPass lists it and GET /api/MonthlyPass/{Id} returns it. */
export const monthlyPassItem = z.object({
  Id: z.number(),
  VehicleId: z.number(),
  Plate: z.string(),
  OwnerName: z.string().nullable(),
  ChargeRuleId: z.number(),
  RuleName: z.string(),
  ChargeType: z.number(),
  TimeUnit: z.number().nullable(),
  StartAt: z.string(),
  /** Exclusive. */
  EndAt: z.string(),
  Units: z.number(),
  AmountCents: z.number(),
  /** Against the server's clock: catalogue garage.passStatus.<Status>. */
  Status: z.enum(MONTHLY_PASS_STATUSES),
  RenewedFromId: z.number().nullable(),
  Remark: z.string().nullable(),
  UserName: z.string(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type MonthlyPassItem = z.output<typeof monthlyPassItem>;

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
});
export type GarageSummary = z.output<typeof garageSummary>;

export const garageDaily = z.object({
  TimeZone: z.string(),
  /** Oldest first, one entry per local day including today (empty days are zeros). */
  Days: z.array(garageFigures.extend({ Date: z.string() })),
});
export type GarageDaily = z.output<typeof garageDaily>;
