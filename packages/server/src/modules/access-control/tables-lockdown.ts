import type { Generated } from 'kysely';

/** Tables of the areas' lockdowns (migration 0033-lockdown, docs/access-control.md, "Lockdown and evacuation"). */

/** A lockdown or evacuation of an area; in force while ReleasedAt is null. */
export interface AreaLockdownTable {
  Id: Generated<number>;
  AreaId: number;
  /** 'lockdown' (every door normally closed) | 'evacuate' (every door normally open) */
  Mode: string;
  Reason: string;
  StartedAt: number;
  StartedById: number | null;
  /** The person's name, or the API key's. */
  StartedBy: string;
  /** 'user' | 'key' | 'system' */
  StartedByKind: string;
  ReleasedAt: number | null;
  ReleasedById: number | null;
  ReleasedBy: string | null;
  ReleasedByKind: string | null;
  Note: string | null;
}

/** A door of the area's controllers under a lockdown, with what its controller answered. */
export interface AreaLockdownDoorTable {
  LockdownId: number;
  DeviceId: number;
  DoorNumber: number;
  /** The door's mode and delay as read back before the lockdown's mode was written (given back at the release). */
  PriorMode: number | null;
  PriorDelay: number | null;
  PriorReadAt: number | null;
  /** The mode and delay last read back (0x82), and when. */
  ReadMode: number | null;
  ReadDelay: number | null;
  ReadAt: number | null;
  /** When the controller first answered the lockdown's mode. */
  HeldAt: number | null;
  /** When, after the release, the controller answered the door's own mode. */
  RestoredAt: number | null;
}

export interface AreaLockdownTables {
  AreaLockdown: AreaLockdownTable;
  AreaLockdownDoor: AreaLockdownDoorTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends AreaLockdownTables {}
}
