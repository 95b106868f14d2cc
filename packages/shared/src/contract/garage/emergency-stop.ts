import { z } from 'zod';
import { operation } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { id } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';

/**
 * A parking zone's emergency stop (docs/garage.md "Emergency stop", docs/chargers.md "Emergency stop"): one
 * action, for smoke reported in the garage, that stops every running session of the zone (stop reason 10),
 * makes every connector of its charging-API hosts Inoperative and refuses every new start there, until an
 * operator releases it with a note. A fire panel triggers it with an API key holding Bicycle/Admin.
 */

/** Who stopped or released it: a signed-in person, an API key (a fire panel), or Gatehouse itself. */
export const EMERGENCY_ACTOR_KINDS = ['user', 'key', 'system'] as const;
export type EmergencyActorKind = (typeof EMERGENCY_ACTOR_KINDS)[number];

/** Longest reason or note (the same as a forced power-off's reason). */
export const EMERGENCY_TEXT_MAX = 200;

/**
 * Why a host's charger was not (or not wholly) reached: `notConnected` (it gets the commands when it connects),
 * `timeout` (no answer), `refused` (it answered Rejected or a CallError), `noDeviceLink` (a host of another
 * charging system type: no protocol drives it, so its sessions cannot be stopped from here).
 */
export const EMERGENCY_NOT_REACHED = ['notConnected', 'timeout', 'refused', 'noDeviceLink'] as const;

/** A host some command of the stop or the release did not reach, and why. */
export const emergencyHostNotReached = z.object({
  ChargeHostId: z.number(),
  HostName: z.string(),
  Outcome: z.enum(EMERGENCY_NOT_REACHED),
});

/** What the stop did, once its commands were answered (or not). */
export const emergencyStopOutcome = z.object({
  /** Sessions running in the zone when it was stopped (and those that started in the moment before). */
  SessionsRunning: z.number(),
  /** Of those, the ones whose charger accepted RemoteStopTransaction: its stop report ends them "emergency stop". */
  SessionsStopped: z.number(),
  /** Connectors of the zone's charging-API hosts, each sent ChangeAvailability Inoperative. */
  Sockets: z.number(),
  /** Of those, the ones the charger accepted (or scheduled, behind a transaction ending). */
  SocketsInoperative: z.number(),
  NotReached: z.array(emergencyHostNotReached),
});

/** What the release did: connectors back to Operative, except sockets an operator had disabled. */
export const emergencyReleaseOutcome = z.object({
  /** Connectors sent ChangeAvailability Operative (the enabled sockets of the zone's charging-API hosts). */
  Sockets: z.number(),
  /** Of those, the ones the charger accepted. */
  SocketsOperative: z.number(),
  /** Sockets an operator disabled on purpose: they stay Inoperative. */
  SocketsKeptDisabled: z.number(),
  NotReached: z.array(emergencyHostNotReached),
});

/** A zone's emergency stop, as its banner, the zone list, the live hub and the outward events show it. */
export const zoneEmergencyStopItem = z.object({
  Id: z.number(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
  Reason: z.string(),
  StoppedAt: z.string(),
  /** The person's name, or the API key's name. */
  StoppedBy: z.string(),
  StoppedByKind: z.enum(EMERGENCY_ACTOR_KINDS),
  /** Null while its commands are going out. */
  Stop: emergencyStopOutcome.nullable(),
  /** Null while the zone is stopped. */
  ReleasedAt: z.string().nullable(),
  ReleasedBy: z.string().nullable(),
  ReleasedByKind: z.enum(EMERGENCY_ACTOR_KINDS).nullable(),
  /** The operator's note when releasing it. */
  Note: z.string().nullable(),
  Release: emergencyReleaseOutcome.nullable(),
});
export type ZoneEmergencyStopItem = z.output<typeof zoneEmergencyStopItem>;
export type EmergencyStopOutcome = z.output<typeof emergencyStopOutcome>;
export type EmergencyReleaseOutcome = z.output<typeof emergencyReleaseOutcome>;
export type EmergencyHostNotReached = z.output<typeof emergencyHostNotReached>;

const text = z.string().trim().min(1).max(EMERGENCY_TEXT_MAX);

/**
 * The emergency stop's operations, under the zone's resource (`/api/ParkArea/...`). Bicycle/Admin stops and
 * releases (an API key holding that code in the area may: a fire panel); both codes read the stops in force.
 */
export const ParkAreaEmergencyApi = {
  stop: operation({
    method: 'POST',
    path: '/api/ParkArea/EmergencyStop',
    summary:
      'Emergency stop of a parking zone: every running session stopped, every connector Inoperative, no start until released; 409 when already stopped',
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Reason: text }),
    reply: zoneEmergencyStopItem,
  }),
  release: operation({
    method: 'POST',
    path: '/api/ParkArea/EmergencyRelease',
    summary:
      "Release a parking zone's emergency stop with a note: connectors Operative again (disabled sockets stay off), starts allowed; 409 when not stopped",
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Note: text }),
    reply: zoneEmergencyStopItem,
  }),
  active: operation({
    method: 'GET',
    path: '/api/ParkArea/EmergencyStops',
    summary: "The area's parking zones under emergency stop now, oldest first",
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    reply: z.object({ Items: z.array(zoneEmergencyStopItem) }),
  }),
};
