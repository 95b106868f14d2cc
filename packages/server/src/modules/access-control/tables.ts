import type { Generated } from 'kysely';

/**
 * A door controller. Registered by serial number into a pool (AreaId null), then assigned to an area.
 * Protocol and Type are fixed at registration (a WG serial names its model).
 */
export interface AccessControlDeviceTable {
  Id: Generated<number>;
  AreaId: number | null;
  SerialNumber: string;
  Name: string;
  /** accessControlProtocol: 0 WG, 1 other. */
  Protocol: number;
  /** accessControlType: 0 unspecified, 1 single door two-way, 2 two doors two-way, 3 four doors one-way. */
  Type: number;
  Ip: string | null;
  Port: number | null;
  Location: string | null;
  Remark: string | null;
  Disabled: Generated<number>;
  AssignedAt: number | null;
  /** interlockMode, antiPassbackMode the controller is to enforce (migration 0014-access-rules). */
  Interlock: Generated<number>;
  AntiPassback: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A reader on a door of a controller: what an authorisation opens. AreaId follows the device. */
export interface AccessControlChannelTable {
  Id: Generated<number>;
  AreaId: number;
  DeviceId: number;
  /** doorNumber: 0 unspecified, 1 to the device type's door count. */
  DoorNumber: number;
  Name: string;
  /** doorDirection: 0 unspecified, 1 in, 2 out. */
  Direction: number;
  /** cardReaderType. */
  ReaderType: number;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/**
 * A card of the stock. CardNumber is the stored form: the 10-digit number printed on the card. A card is
 * held by at most one holder, which the single CardUserId column guarantees.
 */
export interface CardTable {
  Id: Generated<number>;
  AreaId: number | null;
  CardNumber: string;
  /** cardType. */
  CardType: number;
  CardUserId: number | null;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A card holder (the spec's "user" of the change types). Never deleted: disabled instead. */
export interface CardUserTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  Phone: string | null;
  CitizenId: string | null;
  /** nation id, 0 unknown. */
  Nation: number;
  DepartmentId: number | null;
  PeopleGroupId: number | null;
  PeopleTypeId: number | null;
  ValidFrom: number;
  ValidTo: number;
  Disabled: Generated<number>;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/**
 * An authorisation: a holder's cards open a channel. ValidFrom/ValidTo null follow the holder's validity;
 * set, they narrow it. IssueStatus says what the controller still has to learn; Revoked keeps a revoked
 * row from coming back when its holder is enabled again.
 */
export interface CardUserLinkChannelTable {
  Id: Generated<number>;
  AreaId: number;
  CardUserId: number;
  ChannelId: number;
  DeviceId: number;
  ValidFrom: number | null;
  ValidTo: number | null;
  /** issueStatus. */
  IssueStatus: number;
  Revoked: Generated<number>;
  /** Failed device syncs since the last success (migration 0007-wg). */
  SyncAttempts: Generated<number>;
  /** Earliest next sync attempt after a failure (back-off); null when none is due. */
  NextSyncAt: number | null;
  /** Why the last sync failed: 'offline', 'refused' or 'timeout'; null after a success. */
  SyncError: string | null;
  /** When the controller last confirmed this authorisation (3) or its removal (-2). */
  SyncedAt: number | null;
  /**
   * 1 once a sync pass may have written it to the controller, 0 again when its removal was confirmed
   * (migration 0010-wg-sent): a revoke of one never sent needs no deletion on the device.
   */
  SentToDevice: Generated<number>;
  /** When the card opens the door; null at any time (migration 0014-access-rules). */
  TimeProfileId: number | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/**
 * A swipe at a door, written only by recordSwipe. Names and the card number are copied at the time of the
 * swipe, so history stays true when devices, channels or holders change later.
 */
export interface DoorOpeningRecordTable {
  Id: Generated<number>;
  AreaId: number;
  At: number;
  CardNumber: string;
  CardUserId: number | null;
  HolderName: string | null;
  DeviceId: number;
  DeviceName: string;
  ChannelId: number | null;
  ChannelName: string | null;
  DoorNumber: number;
  Direction: number;
  /** doorRecordResult as 0/1. */
  Result: number;
  /** doorRecordReason. */
  Reason: number;
  /**
   * The controller's ring index (migration 0007-wg). Null: not from a ring. (DeviceId, RecordIndex) is stored
   * once through DoorOpeningRecordKey (migration 0023), not a unique index: the table is partitioned by month
   * on PostgreSQL, where a unique index would have to include At.
   */
  RecordIndex: number | null;
  /** The controller's record type: 1 swipe, 2 door event (button, remote open, power-on…), 3 alarm. */
  EventType: number | null;
  /** The controller's own reason code (WG `Reason`: 20 push button, 38 forced open, 44 remote open…). */
  EventReason: number | null;
}

/** Swipe counts per area, UTC day, device and result: exact totals and deep pages without scanning. */
export interface DoorOpeningRecordDayTable {
  AreaId: number;
  /** Days since the epoch (UTC). */
  Day: number;
  DeviceId: number;
  Result: number;
  Count: number;
}

/**
 * The exactly-once ledger of ring records (migration 0023-swipe-partitions): one row per (DeviceId, RecordIndex)
 * stored in DoorOpeningRecord. A ring record is inserted only when its key was new here, in the same
 * transaction; retention and a ring restart remove the keys with (or of) the records.
 */
export interface DoorOpeningRecordKeyTable {
  DeviceId: number;
  RecordIndex: number;
}

/** A holder's change (changeType), written in the transaction of the change. */
export interface ChangeRecordTable {
  Id: Generated<number>;
  AreaId: number;
  CardUserId: number;
  HolderName: string;
  ChangeType: number;
  /** JSON: [{ Field, Before, After }] with display values. */
  Detail: string | null;
  OperatorId: number | null;
  OperatorName: string;
  At: number;
}

/** A holder's validity extension. */
export interface RenewalRecordTable {
  Id: Generated<number>;
  AreaId: number;
  CardUserId: number;
  HolderName: string;
  OldValidTo: number;
  NewValidTo: number;
  Remark: string | null;
  OperatorId: number | null;
  OperatorName: string;
  At: number;
}

/** A fault reported against a device or one of its doors, handled by the area's operator staff. */
export interface FailureDeclarationRecordTable {
  Id: Generated<number>;
  AreaId: number;
  DeviceId: number;
  DeviceName: string;
  ChannelId: number | null;
  ChannelName: string | null;
  Description: string;
  /** faultReportStatus: 0 open, 1 in progress, 2 resolved. */
  Status: number;
  HandlerId: number | null;
  HandlerName: string | null;
  ReporterId: number | null;
  ReporterName: string;
  /** JSON: [{ At, Status, Note, OperatorName, HandlerName }], oldest first. */
  History: string;
  ReportedAt: number;
  ResolvedAt: number | null;
  UpdatedAt: number;
}

/**
 * What a device gateway knows about a controller and must keep across restarts (migration 0007-wg): its last
 * answer, firmware, clock drift, where its event listener points, and the progress of its authorisation sync.
 */
export interface AccessControlDeviceStateTable {
  DeviceId: number;
  /** 1 answering, 0 not answering, null never asked. */
  Online: number | null;
  LastSeenAt: number | null;
  Firmware: string | null;
  /** Controller clock minus server clock, seconds. */
  ClockDriftSeconds: number | null;
  DriftCheckedAt: number | null;
  /** "host:port" the controller pushes its events to (set with 0x90). */
  ListenerAddress: string | null;
  LastError: string | null;
  /** 'running' | 'done' | 'failed' | null (never synced). */
  SyncState: string | null;
  /** 'read' | 'write' | 'verify' while running. */
  SyncPhase: string | null;
  SyncDone: Generated<number>;
  SyncTotal: Generated<number>;
  SyncStartedAt: number | null;
  SyncFinishedAt: number | null;
  SyncError: string | null;
  UpdatedAt: number;
}

/** Record collection cursor of a controller: exactly-once collection survives restarts through it. */
export interface AccessControlRecordCursorTable {
  DeviceId: number;
  /** The next ring index to read (0xB0). */
  NextIndex: number;
  /** Records the ring overwrote before they were read (0xFF markers, a ring wrapped while down). */
  LostRecords: Generated<number>;
  UpdatedAt: number;
}

/** Tables of the access-control module (joined into the Database interface in db/schema.ts). */
export interface AccessControlTables {
  AccessControlDevice: AccessControlDeviceTable;
  AccessControlChannel: AccessControlChannelTable;
  Card: CardTable;
  CardUser: CardUserTable;
  CardUserLinkChannel: CardUserLinkChannelTable;
  DoorOpeningRecord: DoorOpeningRecordTable;
  DoorOpeningRecordDay: DoorOpeningRecordDayTable;
  DoorOpeningRecordKey: DoorOpeningRecordKeyTable;
  ChangeRecord: ChangeRecordTable;
  RenewalRecord: RenewalRecordTable;
  FailureDeclarationRecord: FailureDeclarationRecordTable;
  AccessControlDeviceState: AccessControlDeviceStateTable;
  AccessControlRecordCursor: AccessControlRecordCursorTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends AccessControlTables {}
}
