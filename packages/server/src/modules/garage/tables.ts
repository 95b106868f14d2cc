import type { Generated } from 'kysely';

/**
 * Garage tables. Money is integer cents (`…Cents`), energy integer Wh (`EnergyWh`), instants epoch
 * milliseconds (`…At`). Every table carries AreaId; docs/garage.md draws the model.
 */

/** Every garage table (each carries AreaId), in the order dependents and tests walk them. */
export const GARAGE_TABLES = [
  'ParkArea',
  'ChargeRule',
  'ChargeHost',
  'ChargeEquipment',
  'ChargeRecord',
  'ChargeOrder',
  'ParkOrder',
  'ForcedOutageRecord',
  'Vehicle',
  'MonthlyPass',
] as const;

export interface ParkAreaTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  /** Parking spaces. */
  Capacity: number;
  Location: string | null;
  Remark: string | null;
  Disabled: Generated<number>;
  /** Above this (whole °C, migration 0028) a charger's temperature puts its host in heat alarm; null: none. */
  MaxTemperatureC: number | null;
  /** What the zone's feeder may carry (W, migration 0030); null: no budget. docs/garage.md "Zone power budget". */
  PowerBudgetW: number | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/** The pricing terms (shared Tariff); rules have them, orders copy them. */
export interface TariffColumns {
  ChargeType: number;
  TemporaryChargeType: number;
  UnitPriceCents: number;
  TimeUnit: number | null;
  FreeMinutes: number;
  CapCents: number | null;
}

/**
 * The tariff dimensions (migration 0031; docs/garage.md, "Tariff dimensions"), null when not used: temporary
 * charging rules have them and their orders copy them. The lists are JSON text.
 */
export interface TariffDimensionColumns {
  /** JSON [{ UpToW, PriceCents }]. */
  PowerBands: string | null;
  /** JSON [{ From, To, PriceCentsPerKWh }]. */
  TimeOfDay: string | null;
  IdleFeeCentsPerHour: number | null;
  IdleGraceMinutes: number | null;
  ServiceFeeCents: number | null;
}

export interface ChargeRuleTable extends TariffColumns, TariffDimensionColumns {
  Id: Generated<number>;
  /** Safety limits (0008), each optional: Gatehouse stops a session that crosses one (docs/chargers.md). */
  MaxDurationMinutes: number | null;
  MaxPowerW: number | null;
  /** "Stop when full": power below FullPowerW for FullMinutes minutes. */
  FullPowerW: number | null;
  FullMinutes: number | null;
  AreaId: number;
  Name: string;
  Remark: string | null;
  Disabled: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

/** Which zones use which rules. */
export interface ParkAreaChargeRuleTable {
  ParkAreaId: number;
  ChargeRuleId: number;
}

export interface ChargeHostTable {
  Id: Generated<number>;
  AreaId: number;
  ParkAreaId: number;
  /** The device's own serial, unique across all areas (the device layer finds hosts by it). */
  SerialNumber: string;
  Name: string;
  PortCount: number;
  ChargingSystemType: number;
  /** Connection per charging system type (HOST_CONNECTION_FIELDS): address, account, password or secret. */
  Endpoint: string | null;
  Account: string | null;
  /** Never returned to clients; named so that audit snapshots leave it out. */
  Password: string | null;
  Remark: string | null;
  Disabled: Generated<number>;
  /** Last time the host reported (the device layer writes it). */
  LastSeenAt: number | null;
  /** OCPP Basic-auth password, argon2id-hashed (gateways/ocpp; migration 0006). Never returned or audited. */
  OcppPasswordHash: string | null;
  /** What the charge point's connector 0 last reported: Available, Unavailable or Faulted. */
  OcppStatus: string | null;
  /** JSON of the last accepted BootNotification (vendor, model, serials, firmware) and its time. */
  OcppBootInfo: string | null;
  /** 1 while its charge point is connected (migration 0008); a never-connected OCPP host is offline. */
  OcppOnline: Generated<number>;
  /** When its charge point was last heard before it went offline; null while online or never connected. */
  OcppOfflineAt: number | null;
  /** The instance whose gateway holds this charge point's connection now (migration 0016); null when none. */
  OcppInstance: string | null;
  /** What the host may draw in all (W, migration 0030); the budget's limits respect it. Null: no limit. */
  MaxPowerW: number | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/**
 * The last configuration pass of a charging-API host (migration 0027; docs/chargers.md "Configured by
 * Gatehouse"): one row per host, replaced by each pass.
 */
export interface ChargeHostConfigurationTable {
  ChargeHostId: number;
  CheckedAt: number;
  /** 'boot' or 'operator'. */
  Trigger: string;
  /** JSON array of SupportedFeatureProfiles; null when the charger did not list the key. */
  Profiles: string | null;
  /** Why GetConfiguration gave nothing; null when it answered. */
  ReadError: string | null;
  /** JSON array of the contract's ConfigurationKeyReport. */
  Keys: string;
}

/**
 * A charging host's heat alarm (migration 0028; docs/garage.md "Heat"): open while ClearedAt is null (at most one
 * per host), kept once cleared. Written only by charge-host/heat-alarm.ts.
 */
export interface ChargeHostHeatAlarmTable {
  Id: Generated<number>;
  AreaId: number;
  ChargeHostId: number;
  /** The host's zone when it was raised. */
  ParkAreaId: number;
  /** 'temperature' (a reading above the limit) or 'fault' (the charger's HighTemperature). */
  Trigger: string;
  /** °C, one decimal; null for a fault without a reading. */
  TemperatureC: number | null;
  /** The zone's MaxTemperatureC when raised. */
  LimitC: number | null;
  /** 0: the charge point as a whole; else the connector. */
  ConnectorId: number;
  /** OCPP sample location (Body, EV, Outlet, …) of a reading. */
  Location: string | null;
  RaisedAt: number;
  LastTemperatureC: number | null;
  LastReadingAt: number | null;
  /** JSON array of the contract's HeatAlarmSession: the sessions asked to stop when it was raised. */
  Sessions: string;
  ClearedAt: number | null;
  ClearedById: number | null;
  ClearedBy: string | null;
  Note: string | null;
}

/** A charging socket: one port of a host. */
export interface ChargeEquipmentTable {
  Id: Generated<number>;
  AreaId: number;
  ChargeHostId: number;
  PortNumber: number;
  /** chargePortState; 12 while disabled. */
  State: number;
  StateChangedAt: number;
  Disabled: Generated<number>;
  /** The OCPP StatusNotification behind State (status, errorCode, vendorErrorCode); null until one came. */
  OcppStatus: string | null;
  OcppErrorCode: string | null;
  OcppVendorErrorCode: string | null;
  /** The charger's own time of the StatusNotification behind State: an older report never overwrites a newer. */
  OcppStatusAt: number | null;
  /** The last power the charger metered on this socket (W), so a restart of any instance keeps it. */
  LastPowerW: number | null;
  /** When LastPowerW was metered (the reading's own time, migration 0030): an old reading is no live draw. */
  LastPowerAt: number | null;
  /** Since when the socket has drawn no more than float-charge power (the "battery full" rule counts from it). */
  FullSince: number | null;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A charging session as measured; EndAt null while it runs (at most one open session per socket). */
export interface ChargeRecordTable {
  Id: Generated<number>;
  AreaId: number;
  ChargeEquipmentId: number;
  /** Card as printed (display form), when a card started it. */
  CardNumber: string | null;
  StartAt: number;
  EndAt: number | null;
  /** Energy so far (open) or in total (ended). */
  EnergyWh: number;
  /** chargeStopReason; null while open. */
  StopReason: number | null;
  /** The charger's energy register (Wh) at the start, for sessions a device meters (migration 0006). */
  MeterStartWh: number | null;
  /** The stop Gatehouse asked the device for (chargeStopReason), pending its StopTransaction (0008). */
  StopRequest: number | null;
  StopRequestedAt: number | null;
  /** 1: ended by Gatehouse without the device's stop (power failure); its StopTransaction corrects it once. */
  EndProvisional: Generated<number>;
  /**
   * The device's meter readings folded as they came (JSON of the shared MeterDigest, migration 0031), against its
   * order's time-of-day periods; null until the first reading, and for sessions no device metered.
   */
  MeterDigest: string | null;
  /** Since when the battery has been full (a reading below float-charge power): the idle fee counts from it. */
  FullAt: number | null;
}

/** Payment columns both kinds of order share. */
export interface OrderPaymentColumns {
  OrderNo: string;
  ChargeRuleId: number | null;
  /** Final price; null while the session or stay is still open. */
  AmountCents: number | null;
  /** paymentState */
  PaymentState: number;
  PaidAt: number | null;
  RefundReason: string | null;
  CloseReason: string | null;
  UpdatedAt: number;
}

/** The priced order of one charging session (1:1), created when the session starts. */
export interface ChargeOrderTable extends TariffColumns, TariffDimensionColumns, OrderPaymentColumns {
  Id: Generated<number>;
  AreaId: number;
  ChargeRecordId: number;
  /**
   * The session's socket, copied from it when the order is made (a session never changes socket): one socket's
   * orders are then read from their own index, newest first, instead of looking up each of its sessions' orders
   * (migration 0024; docs/performance.md).
   */
  ChargeEquipmentId: number;
  /** The session's start: the order's time. */
  CreatedAt: number;
  /** When the session ended and the order was priced. */
  SettledAt: number | null;
  /** The itemised order, JSON of the shared PriceLine list, stored when priced (migration 0031). */
  PriceLines: string | null;
}

/** A temporary parking stay and its order; ExitAt null while the vehicle is inside. */
export interface ParkOrderTable extends TariffColumns, OrderPaymentColumns {
  Id: Generated<number>;
  AreaId: number;
  ParkAreaId: number;
  Plate: string | null;
  CardNumber: string | null;
  VehicleId: number | null;
  EntryAt: number;
  ExitAt: number | null;
}

export interface ForcedOutageRecordTable {
  Id: Generated<number>;
  AreaId: number;
  ChargeEquipmentId: number;
  /** The session it ended, if one was open. */
  ChargeRecordId: number | null;
  ChargeOrderId: number | null;
  Reason: string;
  /** forcedOutageResult */
  Result: number;
  /** Why it was not sent or failed: a code of FORCED_OUTAGE_REASONS (shared), translated when read (0008). */
  ResultReason: string | null;
  UserId: number;
  UserName: string;
  At: number;
}

/**
 * A vehicle by plate. Card holder and card are plain references (id plus the name or number shown) until
 * the access-control module's tables are in; docs/garage.md says how the link will be tightened.
 */
export interface VehicleTable {
  Id: Generated<number>;
  AreaId: number;
  Plate: string;
  OwnerName: string | null;
  Phone: string | null;
  CardHolderId: number | null;
  CardHolderName: string | null;
  CardId: number | null;
  CardNumber: string | null;
  Remark: string | null;
  Disabled: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A monthly pass sold for a vehicle under a monthly rule; a renewal is a new pass starting where it ends. */
export interface MonthlyPassTable {
  Id: Generated<number>;
  AreaId: number;
  VehicleId: number;
  ChargeRuleId: number;
  StartAt: number;
  /** Exclusive. */
  EndAt: number;
  Units: number;
  AmountCents: number;
  RenewedFromId: number | null;
  Remark: string | null;
  UserName: string;
  CreatedAt: number;
  UpdatedAt: number;
}

/** Tables of the garage module (joined into the Database interface in db/schema.ts). */
export interface GarageTables {
  ParkArea: ParkAreaTable;
  ChargeRule: ChargeRuleTable;
  ParkAreaChargeRule: ParkAreaChargeRuleTable;
  ChargeHost: ChargeHostTable;
  ChargeHostHeatAlarm: ChargeHostHeatAlarmTable;
  ChargeHostConfiguration: ChargeHostConfigurationTable;
  ChargeEquipment: ChargeEquipmentTable;
  ChargeRecord: ChargeRecordTable;
  ChargeOrder: ChargeOrderTable;
  ParkOrder: ParkOrderTable;
  ForcedOutageRecord: ForcedOutageRecordTable;
  Vehicle: VehicleTable;
  MonthlyPass: MonthlyPassTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends GarageTables {}
}
