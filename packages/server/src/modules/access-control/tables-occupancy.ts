import type { Generated } from 'kysely';

/** Tables of who is inside and of roll calls (migration 0034-occupancy, docs/access-control.md "Occupancy and muster"). */

/** A holder's last granted card swipe at an in or out reader: inside while it was in and since the reset hour. */
export interface OccupancyTable {
  CardUserId: number;
  AreaId: number;
  /** doorDirection: 1 in, 2 out. */
  Direction: number;
  LastAt: number;
  /** The swipe record (DoorOpeningRecord.Id): of two swipes at one instant, the later stored one wins. */
  RecordId: number;
  CardNumber: string;
  DeviceId: number;
  DeviceName: string;
  ChannelId: number | null;
  ChannelName: string | null;
  DoorNumber: number;
}

/** An area's reset hour (0..23, the area's zone); an area without a row has the default. */
export interface OccupancySettingTable {
  AreaId: number;
  ResetHour: number;
  UpdatedAt: number;
  UpdatedBy: string | null;
}

/** A roll call of an area; under way while EndedAt is null. */
export interface MusterTable {
  Id: Generated<number>;
  AreaId: number;
  Reason: string | null;
  /** JSON: the muster points (MusterPoint[]), named as they were at the start. */
  Points: string;
  /** People on the roll. */
  Total: number;
  StartedAt: number;
  StartedById: number | null;
  StartedBy: string;
  EndedAt: number | null;
  EndedById: number | null;
  EndedBy: string | null;
  Note: string | null;
}

/** A person on a roll call, as they were when it started, and when and how they were found safe. */
export interface MusterPersonTable {
  Id: Generated<number>;
  MusterId: number;
  AreaId: number;
  CardUserId: number;
  Name: string;
  Phone: string | null;
  DepartmentName: string | null;
  /** 0/1: a visitor pass's holder. */
  Visitor: number;
  CardNumber: string;
  LastAt: number;
  DeviceName: string;
  ChannelName: string | null;
  SafeAt: number | null;
  /** 'hand' | 'swipe' */
  SafeHow: string | null;
  SafeBy: string | null;
  Note: string | null;
}

export interface OccupancyTables {
  Occupancy: OccupancyTable;
  OccupancySetting: OccupancySettingTable;
  Muster: MusterTable;
  MusterPerson: MusterPersonTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends OccupancyTables {}
}
