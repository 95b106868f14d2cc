import { z } from 'zod';

/** Fields a card holder's change record names; each has a label `accessControl.field.<Field>`. */
export const HOLDER_FIELDS = [
  'Name',
  'Phone',
  'CitizenId',
  'Nation',
  'Department',
  'PeopleGroup',
  'PeopleType',
  'Cards',
  'ValidFrom',
  'ValidTo',
  'Remark',
] as const;
export type HolderField = (typeof HOLDER_FIELDS)[number];

export const cardUserCard = z.object({
  Id: z.number(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardType: z.number(),
});
export type CardUserCard = z.output<typeof cardUserCard>;

/** A CardUser row, as GET /api/CardUser lists it and GET /api/CardUser/{Id} returns it. */
export const cardUserItem = z.object({
  Id: z.number(),
  Name: z.string(),
  Phone: z.string().nullable(),
  CitizenId: z.string().nullable(),
  Nation: z.number(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  PeopleGroupId: z.number().nullable(),
  PeopleGroupName: z.string().nullable(),
  PeopleTypeId: z.number().nullable(),
  PeopleTypeName: z.string().nullable(),
  ValidFrom: z.string(),
  ValidTo: z.string(),
  /** ValidTo is in the past. */
  Expired: z.boolean(),
  Disabled: z.boolean(),
  Remark: z.string().nullable(),
  Cards: z.array(cardUserCard),
  /** The printed numbers of Cards, for tables and exports. */
  CardNumbers: z.array(z.string()),
  /** Authorisations that are not revoked. */
  AuthorizationCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardUserItem = z.output<typeof cardUserItem>;

/** Change records and renewal records of card holders: read-only lists with exports, newest first. */
export const holderFieldChange = z.object({
  Field: z.enum(HOLDER_FIELDS),
  Before: z.string().nullable(),
  After: z.string().nullable(),
});
export type HolderFieldChange = z.output<typeof holderFieldChange>;

/** A ChangeRecord row, as GET /api/ChangeRecord lists it and GET /api/ChangeRecord/{Id} returns it. */
export const changeRecordItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  ChangeType: z.number(),
  /** Changed fields with display values (labels: accessControl.field.<Field>). */
  Changes: z.array(holderFieldChange),
  OperatorName: z.string(),
  At: z.string(),
});
export type ChangeRecordItem = z.output<typeof changeRecordItem>;

/** A RenewalRecord row, as GET /api/RenewalRecord lists it and GET /api/RenewalRecord/{Id} returns it. */
export const renewalRecordItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  OldValidTo: z.string(),
  NewValidTo: z.string(),
  Remark: z.string().nullable(),
  OperatorName: z.string(),
  At: z.string(),
});
export type RenewalRecordItem = z.output<typeof renewalRecordItem>;

/**
 * An authorisation as the list shows it. ValidFrom/ValidTo are the effective validity: the
 * authorisation's own range (CustomValidity) within the holder's, or the holder's when it has none.
 */
export const cardUserLinkChannelItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  HolderDisabled: z.boolean(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  CardNumbers: z.array(z.string()),
  ChannelId: z.number(),
  ChannelName: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  ValidFrom: z.string(),
  ValidTo: z.string(),
  CustomValidity: z.boolean(),
  IssueStatus: z.number(),
  Revoked: z.boolean(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardUserLinkChannelItem = z.output<typeof cardUserLinkChannelItem>;

export const grantResult = z.object({ Granted: z.number(), Updated: z.number(), Unchanged: z.number() });
export type GrantResult = z.output<typeof grantResult>;

/** One controller's authorisations by issue status (GET /api/CardUserLinkChannel/DeviceStatusCounts). */
export const deviceStatusCount = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  Disabled: z.boolean(),
  /** Authorisations per issue status, every status present (keys '-2' … '3'). */
  Counts: z.record(z.string(), z.number()),
  /** Waiting for the device sync: pending issue, update and deletion. */
  Pending: z.number(),
  Total: z.number(),
  /**
   * The controller as the WG gateway last found it (docs/devices.md), for the authorisation screen's sync
   * panel; null / 0 for a device the gateway does not drive (protocol Other) or has not talked to yet.
   * Online is null (unknown) while no gateway runs, whatever was stored before.
   */
  Online: z.boolean().nullable(),
  LastSeenAt: z.string().nullable(),
  /** The sync pass: 'running' | 'done' | 'failed' | null; while running, phase 'read' | 'write' and progress. */
  SyncState: z.string().nullable(),
  SyncPhase: z.string().nullable(),
  SyncDone: z.number(),
  SyncTotal: z.number(),
  SyncStartedAt: z.string().nullable(),
  SyncFinishedAt: z.string().nullable(),
  /** Why the last pass failed: 'offline' | 'refused' | 'timeout'. */
  SyncError: z.string().nullable(),
  /** Pending authorisations whose last attempt failed, the most attempts among them and when the next retry is due. */
  Failing: z.number(),
  SyncAttempts: z.number(),
  NextSyncAt: z.string().nullable(),
});
export type DeviceStatusCount = z.output<typeof deviceStatusCount>;

/** An alarm a door has raised and not yet cleared (GET /api/AccessControlDashboard, docs/access-control.md). */
export const openDoorAlarm = z.object({
  /** The alarm's swipe record. */
  Id: z.number(),
  At: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  DoorNumber: z.number(),
  ChannelName: z.string().nullable(),
  /** The controller's reason code (doorEventReason: 37 held open, 38 forced open, 39 fire…). */
  EventReason: z.number().nullable(),
});
export type OpenDoorAlarm = z.output<typeof openDoorAlarm>;

/** The access-control overview on the dashboard, for the current area. */
export const accessControlSummary = z.object({
  /** The area's zone: where "today" starts. */
  TimeZone: z.string(),
  /** Enabled WG controllers of the area by connection state (unknown: never answered, or no gateway runs). */
  Controllers: z.object({
    Total: z.number(),
    Online: z.number(),
    Offline: z.number(),
    Unknown: z.number(),
    /** Controllers whose authorisation sync is running now. */
    Syncing: z.number(),
  }),
  /** Card swipes of the area's local day so far (door events and alarms not counted). */
  Today: z.object({ Granted: z.number(), Denied: z.number() }),
  /** Authorisations waiting for the device sync (pending issue, update, deletion); Failing: their last attempt failed. */
  Authorizations: z.object({ Pending: z.number(), Failing: z.number() }),
  /** Doors in alarm: count, and the newest few. */
  Alarms: z.object({ Open: z.number(), Items: z.array(openDoorAlarm) }),
});
export type AccessControlSummary = z.output<typeof accessControlSummary>;

export const failureHistoryEntry = z.object({
  At: z.string(),
  Status: z.number(),
  Note: z.string().nullable(),
  OperatorName: z.string(),
  HandlerName: z.string().nullable(),
});
export type FailureHistoryEntry = z.output<typeof failureHistoryEntry>;

/** A FailureDeclarationRecord row, as GET /api/FailureDeclarationRecord lists it and GET /api/FailureDeclarationRecord/{Id} returns it. */
export const failureDeclarationRecordItem = z.object({
  Id: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string().nullable(),
  Description: z.string(),
  Status: z.number(),
  HandlerId: z.number().nullable(),
  HandlerName: z.string().nullable(),
  ReporterName: z.string(),
  History: z.array(failureHistoryEntry),
  ReportedAt: z.string(),
  ResolvedAt: z.string().nullable(),
  UpdatedAt: z.string(),
});
export type FailureDeclarationRecordItem = z.output<typeof failureDeclarationRecordItem>;

/** Operator staff a fault report can be handed to (the handler choices of the fault screen). */
export const failureHandlerItem = z.object({
  Id: z.number(),
  Name: z.string(),
  StaffType: z.number(),
  Phone: z.string().nullable(),
  Remark: z.string().nullable(),
});
export type FailureHandlerItem = z.output<typeof failureHandlerItem>;

/**
 * A card: CardNumber is the stored form, the 10-digit number printed on the card; CardValue is the same
 * card as a controller reports it (the four bytes reversed).
 */
export const cardItem = z.object({
  Id: z.number(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardType: z.number(),
  CardUserId: z.number().nullable(),
  HolderName: z.string().nullable(),
  Remark: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardItem = z.output<typeof cardItem>;

/** A controller as both device screens show it. */
export const accessControlDeviceItem = z.object({
  Id: z.number(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  SerialNumber: z.string(),
  Name: z.string(),
  Protocol: z.number(),
  Type: z.number(),
  /** Doors of the type (1, 2 or 4; 4 for an unspecified type): the channel form's door-number limit. */
  DoorCount: z.number(),
  Ip: z.string().nullable(),
  Port: z.number().nullable(),
  Location: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ChannelCount: z.number(),
  AssignedAt: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
  /** WG controllers, as the device gateway last found them: null until it talked to the controller. */
  Online: z.boolean().nullable(),
  LastSeenAt: z.string().nullable(),
  Firmware: z.string().nullable(),
  /** Controller clock minus server clock, seconds, and when it was read. */
  ClockDriftSeconds: z.number().nullable(),
  DriftCheckedAt: z.string().nullable(),
  /** Where the controller pushes its events ("host:port"). */
  ListenerAddress: z.string().nullable(),
  /** Authorisation sync: 'running' | 'done' | 'failed' | null, phase 'read' | 'write', progress. */
  SyncState: z.string().nullable(),
  SyncPhase: z.string().nullable(),
  SyncDone: z.number(),
  SyncTotal: z.number(),
  SyncFinishedAt: z.string().nullable(),
  /** Why the last sync failed: offline, refused, timeout. */
  SyncError: z.string().nullable(),
  /** Records the controller overwrote before Gatehouse collected them. */
  LostRecords: z.number(),
  /** The next ring index the collection reads. */
  NextRecordIndex: z.number().nullable(),
});
export type AccessControlDeviceItem = z.output<typeof accessControlDeviceItem>;

/**
 * Channel management (AccessControl/Admin): the readers on the doors of the area's controllers. The door
 * number must exist on the device's model (0 = unspecified); a door and direction belong to one channel.
 */
export const accessControlChannelItem = z.object({
  Id: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DeviceType: z.number(),
  DoorNumber: z.number(),
  Name: z.string(),
  Direction: z.number(),
  ReaderType: z.number(),
  Remark: z.string().nullable(),
  /** Authorisations on this channel that are not confirmed deleted. */
  AuthorizationCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AccessControlChannelItem = z.output<typeof accessControlChannelItem>;

/** A DoorOpeningRecord row, as GET /api/DoorOpeningRecord lists it. */
export const doorOpeningRecordItem = z.object({
  Id: z.number(),
  At: z.string(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardUserId: z.number().nullable(),
  HolderName: z.string().nullable(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string().nullable(),
  DoorNumber: z.number(),
  Direction: z.number(),
  Result: z.boolean(),
  Reason: z.number(),
  /** From a controller's ring (docs/devices.md): record type (1 swipe, 2 door event, 3 alarm), its own reason code (WG: 20 button, 38 forced open, 44 remote open…) and ring index; null for records not read from a controller. */
  EventType: z.number().nullable(),
  EventReason: z.number().nullable(),
  RecordIndex: z.number().nullable(),
});
export type DoorOpeningRecordItem = z.output<typeof doorOpeningRecordItem>;

/**
 * Choices for the access-control screens' filters and forms (like /api/Options/* of the platform): the
 * area's controllers, their channels grouped by controller, and card holders by name, phone or card.
 */
export const channelOption = z.object({
  Id: z.number(),
  Name: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
});
export type ChannelOption = z.output<typeof channelOption>;

export const deviceChannelsOption = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  Protocol: z.number(),
  Channels: z.array(channelOption),
});
export type DeviceChannelsOption = z.output<typeof deviceChannelsOption>;

/** A controller to choose (GET /api/Options/AccessControlDevices). */
export const accessControlDeviceOption = z.object({
  Id: z.number(),
  Name: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  Type: z.number(),
});
export type AccessControlDeviceOption = z.output<typeof accessControlDeviceOption>;

/** A card holder to choose (GET /api/Options/CardUsers). */
export const cardUserOption = z.object({
  Id: z.number(),
  Name: z.string(),
  Phone: z.string().nullable(),
  Disabled: z.boolean(),
});
export type CardUserOption = z.output<typeof cardUserOption>;
