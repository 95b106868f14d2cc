import type { Generated } from 'kysely';

/** Tables of the access rules (migration 0014-access-rules, docs/access-control.md, "Access rules"). */

/** A time profile of an area: when a granted card opens its door, in the area's wall clock. */
export interface TimeProfileTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  /** YYYY-MM-DD, inclusive */
  StartDate: string;
  EndDate: string;
  /** Bit mask, bit 0 Monday. */
  Weekdays: number;
  /** JSON: [{ Start: 'HH:mm', End: 'HH:mm' }], one to three. */
  Segments: string;
  LinkedProfileId: number | null;
  NotOnHolidays: Generated<number>;
  Remark: string | null;
  /** The window of the visitor passes it carries the hours of (migration 0032); null for an operator's profile. */
  VisitorWindow: Generated<string | null>;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A named holiday of an area: one day (EndDate = StartDate) or a range. */
export interface HolidayTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  StartDate: string;
  EndDate: string;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A door schedule: one task of its controller's task list. */
export interface DoorScheduleTable {
  Id: Generated<number>;
  AreaId: number;
  DeviceId: number;
  DoorNumber: number;
  /** doorScheduleAction */
  Action: number;
  /** HH:mm */
  Time: string;
  Weekdays: number;
  StartDate: string;
  EndDate: string;
  Remark: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

/** What Gatehouse keeps per door of a controller besides its channels (the door is shared by them). */
export interface AccessControlDoorRuleTable {
  DeviceId: number;
  DoorNumber: number;
  Keypad: Generated<number>;
  /** JSON array of up to four passcodes; write-only through the API, sent to the controller only. */
  Passcodes: string | null;
  HeldOpenSeconds: number | null;
  /** The door mode (0x80) an operator last set, given back to a controller that forgot it. */
  Mode: number | null;
  Delay: number | null;
  UpdatedAt: number;
}

/** A door as the monitor shows it, from status replies and events (written by the device gateway). */
export interface AccessControlDoorStateTable {
  DeviceId: number;
  DoorNumber: number;
  Open: number | null;
  Unlocked: number | null;
  /** The alarm condition the door is in: doorAlarmKind 1 forced or 2 held open; null none. */
  Alarm: number | null;
  /** Since when the door stands open (null: closed or not known). */
  OpenSince: number | null;
  /** doorLiveState, and since when. */
  State: number;
  Since: number | null;
  UpdatedAt: number;
}

/**
 * Where a controller's access rules stand. Every change to what it must hold raises `Revision`; a pass that
 * brought the controller in line with revision r stores it as `AppliedRevision`.
 */
export interface AccessControlRuleSyncTable {
  DeviceId: number;
  Revision: Generated<number>;
  AppliedRevision: Generated<number>;
  /** 'running' | 'done' | 'failed' | null */
  State: string | null;
  Error: string | null;
  Attempts: Generated<number>;
  NextAt: number | null;
  FinishedAt: number | null;
  /** JSON: digest of each part the protocol cannot read back, as last written (tasks, interlock, keypads…). */
  Applied: string | null;
  /** JSON: controller profile slot of each compiled part (`profileId:part` → 2..254), kept stable. */
  Slots: string | null;
  ProfileSlots: Generated<number>;
  /** When a controller that forgot its settings was last given them back. */
  RestoredAt: number | null;
  /** The last swipe record the door monitor examined (alarms from records). */
  RecordWatermark: number | null;
  UpdatedAt: number;
}

/** An alarm a door or controller raised, and its acknowledgement. */
export interface DoorAlarmTable {
  Id: Generated<number>;
  AreaId: number;
  DeviceId: number;
  DeviceName: string;
  DoorNumber: number;
  DoorName: string | null;
  /** doorAlarmKind */
  Kind: number;
  /** doorAlarmState: 0 open, 1 acknowledged */
  State: Generated<number>;
  RaisedAt: number;
  LastAt: number;
  Count: Generated<number>;
  ClearedAt: number | null;
  Detail: string | null;
  AcknowledgedAt: number | null;
  AcknowledgedById: number | null;
  AcknowledgedBy: string | null;
  Note: string | null;
}

export interface AccessControlRuleTables {
  TimeProfile: TimeProfileTable;
  Holiday: HolidayTable;
  DoorSchedule: DoorScheduleTable;
  AccessControlDoorRule: AccessControlDoorRuleTable;
  AccessControlDoorState: AccessControlDoorStateTable;
  AccessControlRuleSync: AccessControlRuleSyncTable;
  DoorAlarm: DoorAlarmTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends AccessControlRuleTables {}
}
