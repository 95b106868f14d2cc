import { z } from 'zod';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN } from '../permissions.ts';
import { id } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * An area's lockdown or evacuation (docs/access-control.md, "Lockdown and evacuation"): one action that holds
 * every door of the area's controllers in one mode, `lockdown` normally closed (no card opens it) or `evacuate`
 * normally open, until an operator releases it with a note; then each door gets back its own mode, delay and
 * schedule. Each door's mode is read back from its controller (0x82) and shown as confirmed. A controller that
 * is offline or resets meanwhile gets the mode as soon as it answers, and door schedules do not undo it.
 */

export const LOCKDOWN_MODES = ['lockdown', 'evacuate'] as const;
export type LockdownMode = (typeof LOCKDOWN_MODES)[number];

/** The door mode (0x80) each holds every door in: 2 normally closed, 1 normally open. */
export const LOCKDOWN_DOOR_MODE: Readonly<Record<LockdownMode, 1 | 2>> = { lockdown: 2, evacuate: 1 };

/** Who started or released it: a signed-in person, or an API key (an alarm panel, a fire panel). */
export const LOCKDOWN_ACTOR_KINDS = ['user', 'key', 'system'] as const;

/** Longest reason or note. */
export const LOCKDOWN_TEXT_MAX = 200;

/**
 * Where a door stands: `pending` (in force, its controller has not confirmed the mode yet), `held` (its
 * controller answered the lockdown's mode when read back), `restoring` (released, its own mode not yet confirmed),
 * `restored` (its own mode read back), `unreached` (released before its controller ever answered: nothing there
 * was changed).
 */
export const LOCKDOWN_DOOR_STATES = ['pending', 'held', 'restoring', 'restored', 'unreached'] as const;
export type LockdownDoorState = (typeof LOCKDOWN_DOOR_STATES)[number];

/** A door of the area under a lockdown, with what its controller last answered. */
export const areaLockdownDoor = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DoorNumber: z.number(),
  /** The door's channel names, joined. */
  DoorName: z.string().nullable(),
  State: z.enum(LOCKDOWN_DOOR_STATES),
  /** The mode the door must hold now (1 normally open, 2 normally closed, 3 controlled); null: not known yet. */
  Wanted: z.number().nullable(),
  /** The mode and delay its controller answered when last read back (0x82), and when; null before. */
  Mode: z.number().nullable(),
  Delay: z.number().nullable(),
  ReadAt: z.string().nullable(),
});
export type AreaLockdownDoor = z.output<typeof areaLockdownDoor>;

/** An area's lockdown, as its banner, the door monitor, the live hub and the outward events show it. */
export const areaLockdownItem = z.object({
  Id: z.number(),
  AreaId: z.number(),
  Mode: z.enum(LOCKDOWN_MODES),
  Reason: z.string(),
  StartedAt: z.string(),
  /** The person's name, or the API key's name. */
  StartedBy: z.string(),
  StartedByKind: z.enum(LOCKDOWN_ACTOR_KINDS),
  /** Null while it lasts. */
  ReleasedAt: z.string().nullable(),
  ReleasedBy: z.string().nullable(),
  ReleasedByKind: z.enum(LOCKDOWN_ACTOR_KINDS).nullable(),
  Note: z.string().nullable(),
  Doors: z.array(areaLockdownDoor),
  /** Doors whose controller confirmed the mode (while it lasts) or their own mode (once released). */
  Confirmed: z.number(),
  Total: z.number(),
});
export type AreaLockdownItem = z.output<typeof areaLockdownItem>;

const text = z.string().trim().min(1).max(LOCKDOWN_TEXT_MAX);

/**
 * The lockdown's operations, under the area's resource (`/api/AreaInfo/...`), area-scoped: `Id` is the area of
 * `X-Area-Id`. AccessControl/Admin starts and releases (an API key holding that code in the area may: an alarm
 * panel); whoever operates the area reads it (the banner shows on every screen of the area).
 */
export const AreaLockdownApi = {
  start: operation({
    method: 'POST',
    path: '/api/AreaInfo/Lockdown',
    summary:
      'Lockdown (every door of the area normally closed: no card opens it) or evacuation (every door normally open) of an area until released; 409 when one is in force',
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Mode: z.enum(LOCKDOWN_MODES), Reason: text }),
    reply: areaLockdownItem,
  }),
  release: operation({
    method: 'POST',
    path: '/api/AreaInfo/LockdownRelease',
    summary:
      "Release an area's lockdown or evacuation with a note: each door back to its own mode, delay and schedule; 409 when none is in force",
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Note: text }),
    reply: areaLockdownItem,
  }),
  current: operation({
    method: 'GET',
    path: '/api/AreaInfo/Lockdown',
    summary:
      "The area's lockdown or evacuation in force, else the last one while its doors are given back their own modes; null when neither",
    tag: ACCESS_CONTROL_TAG,
    access: 'authenticated',
    area: true,
    reply: z.object({ Lockdown: areaLockdownItem.nullable() }),
  }),
};
