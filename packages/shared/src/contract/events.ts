import { z } from 'zod';
import { areaLockdownDoor, areaLockdownItem } from './access-control/area-lockdown.ts';
import { doorAlarmItem } from './access-control/door-alarm.ts';
import { doorLiveItem } from './access-control/door-monitor.ts';
import { doorOpeningRecordItem } from './access-control/door-opening-record.ts';
import { musterItem } from './access-control/muster.ts';
import { zoneEmergencyStopItem } from './garage/emergency-stop.ts';
import { heatAlarmItem } from './garage/heat-alarm.ts';

/**
 * The live-event hub (`/api/hub`, docs/api.md): every event an area's browsers receive, declared once, in
 * the API's casing. The server publishes `HubEventInput`s (the hub stamps `At`), the web subscribes by
 * `Type` and receives the matching member of `HubEvent`.
 */
export const hubEventSchemas = {
  /** First message of a connection: which area it follows. */
  Welcome: z.object({ AreaId: z.number() }),
  /** Every HUB_HEARTBEAT: a quiet area is not a dead connection. */
  Heartbeat: z.object({}) as unknown as z.ZodType<object>,

  // ---- door controllers (gateways/wg) -------------------------------------------------------------------
  /** A swipe or door event a controller reported, as the swipe list shows it. */
  Swipe: doorOpeningRecordItem,
  /** An alarm record (forced open, held open, fire…), as the swipe list shows it. */
  DoorAlarm: doorOpeningRecordItem,
  /** Records the controller overwrote before they could be collected. */
  RecordsLost: z.object({ DeviceId: z.number(), Lost: z.number() }),
  /** A controller answered again, or stopped answering. */
  DeviceStatus: z.object({
    DeviceId: z.number(),
    /** null: not known yet (never asked since the gateway started). */
    Online: z.boolean().nullable(),
    LastSeenAt: z.string().nullable(),
    Firmware: z.string().nullable(),
  }),
  /** Progress of a card sync pass; `Phase: 'done'` ends it with its outcome. */
  SyncProgress: z.object({
    DeviceId: z.number(),
    Phase: z.string(),
    Done: z.number().optional(),
    Total: z.number().optional(),
    Ok: z.boolean().optional(),
    Error: z.string().nullable().optional(),
    Issued: z.number().optional(),
    Deleted: z.number().optional(),
  }),

  /** A door's live state changed (the door monitor replaces that door). */
  DoorState: doorLiveItem,
  /** A new alarm: the monitor and the dashboard show it, and the browser notifies who may see the monitor. */
  AlarmRaised: doorAlarmItem,
  /** An alarm changed: it repeated, its condition ended, or an operator acknowledged it. */
  AlarmChanged: doorAlarmItem,
  /** Where a controller's access rules stand (time profiles, task list, door rules). */
  RuleSync: z.object({
    DeviceId: z.number(),
    /** 'running' | 'done' | 'failed' */
    State: z.string(),
    Error: z.string().nullable().optional(),
    /** The controller had forgotten its settings (reset or replaced) and is being given them back. */
    Restoring: z.boolean().optional(),
  }),
  /** An area's lockdown or evacuation started or was released (the banner, the door monitor). */
  Lockdown: areaLockdownItem,
  /** A door's mode under a lockdown (or its own mode after one) as its controller answered when read back. */
  LockdownDoor: areaLockdownDoor.extend({ LockdownId: z.number() }),
  /** A roll call started, someone on it was marked safe (by hand or at a muster point), or it ended. */
  Muster: musterItem,

  // ---- chargers (gateways/ocpp) -------------------------------------------------------------------------
  /** A charging host's charge point connected or went away (its sockets are then unknown, `State`). */
  HostOnline: z.object({ HostId: z.number(), Online: z.boolean(), State: z.number().optional() }),
  /** A socket's state changed. */
  SocketState: z.object({
    HostId: z.number(),
    SocketId: z.number(),
    PortNumber: z.number(),
    State: z.number(),
    PreviousState: z.number(),
  }),
  /** A port entered a fault state: an alert for the operator. */
  PortFault: z.object({
    HostId: z.number(),
    Serial: z.string(),
    SocketId: z.number(),
    PortNumber: z.number(),
    State: z.number(),
    ErrorCode: z.string(),
    VendorErrorCode: z.string().nullable(),
  }),
  SessionStarted: z.object({
    HostId: z.number(),
    SocketId: z.number(),
    PortNumber: z.number(),
    RecordId: z.number(),
  }),
  /** A running session's meter reading and live estimate. */
  SessionMeter: z.object({
    HostId: z.number(),
    SocketId: z.number(),
    PortNumber: z.number(),
    RecordId: z.number(),
    EnergyWh: z.number(),
    PowerW: z.number().nullable(),
    EstimatedCents: z.number().nullable(),
  }),
  SessionEnded: z.object({
    HostId: z.number(),
    SocketId: z.number(),
    PortNumber: z.number(),
    RecordId: z.number(),
    OrderId: z.number().nullable(),
    AmountCents: z.number().nullable(),
    EnergyWh: z.number(),
    StopReason: z.number(),
    /** The charger's own stop corrected a session Gatehouse had closed without it. */
    Corrected: z.boolean(),
  }),
  /**
   * A charging host entered heat alarm (`InAlarm`: its sessions are being stopped, no start there) or an
   * operator cleared it (the alarm with `ClearedAt`, `ClearedBy`, `Note`).
   */
  HeatAlarm: z.object({ HostId: z.number(), InAlarm: z.boolean(), Alarm: heatAlarmItem }),
  /**
   * A parking zone was put under emergency stop (its sessions being stopped, its connectors made Inoperative, no
   * start there), its commands were answered (`Stop` filled in), or it was released (`ReleasedAt`, `Note`).
   */
  ZoneEmergency: zoneEmergencyStopItem,
  /** A forced power-off the charger had accepted is confirmed by its stop report: the record is "power cut". */
  PowerOffConfirmed: z.object({
    ForcedOutageRecordId: z.number(),
    SocketId: z.number(),
    ChargeRecordId: z.number(),
    OrderId: z.number().nullable(),
    AmountCents: z.number().nullable(),
  }),
};

export type HubEventType = keyof typeof hubEventSchemas;

/** What the server publishes: the hub adds `At`. */
export type HubEventInput = {
  [K in HubEventType]: { Type: K } & z.output<(typeof hubEventSchemas)[K]>;
}[HubEventType];

/** What a browser receives. */
export type HubEvent = HubEventInput & { At: string };

/** The member of the union with this type. */
export type HubEventOf<K extends HubEventType> = Extract<HubEvent, { Type: K }>;

/** The hub's WebSocket path (a browser first asks AreaInfo's GetHubUrl for a one-time ticket). */
export const HUB_PATH = '/api/hub';

/** The interactive API reference and its OpenAPI document. */
export const API_DOCS_PATH = '/api/docs';
