import type { Lang } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database as Schema } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { LiveEvents } from './gateway.ts';
import type { Principal } from './principal.ts';

/**
 * Who acts, as the audit log records it: a signed-in user (through a route), an API key (through a route, for
 * another system), a device (through its gateway) or the system itself (scheduled work, a payment channel).
 */
export type Actor =
  | {
      kind: 'user';
      userId: number;
      /** The login name: what the audit log's UserName has always held. */
      name: string;
      /** The person's name, else the login name: what change records and fault reports show. */
      displayName: string;
      ip: string;
    }
  /** An API key (platform/auth/api-keys.ts): its name, from this address; no person is behind the call. */
  | { kind: 'key'; keyId: number; name: string; ip: string }
  | { kind: 'device'; deviceId: number; name: string }
  /** `ip` only where a request came in without a user: a failed sign-in, logged under the typed name. */
  | { kind: 'system'; name: string; ip?: string };

/**
 * What a service receives: no Fastify, no reply, no permissions (routes check those on the user before they
 * call). A route, a device gateway and a test build the same shape.
 */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  lang: Lang;
  actor: Actor;
  /** The trusted current area, present on area-scoped calls after the guard. */
  areaId: number | undefined;
  /**
   * A device gateway's claim on the device it writes for (docs/deployment.md, "Door controllers across
   * instances"): run first in every transaction a device-facing service writes in, it throws when this instance
   * no longer holds the device's lease at the epoch it drives it under, so a former owner that was paused
   * writes nothing after a takeover. Absent: nobody else can drive the device (one process, a route).
   */
  fence?: Fence;
  /**
   * What the service reaches beyond the database: the live hub and the device gateways of this instance, as
   * the app declared them where it is assembled (app.ts). Absent: a script or a test that tells no browser and
   * drives no device.
   */
  seams?: Seams;
}

/**
 * The seams a context carries (ServiceContext.seams). The platform declares its own; a module adds the seams it
 * defines (the door controllers, the charger gateway) by declaration merging, the way db/schema.ts gathers the
 * tables, so the platform imports no module. Nothing is registered per database: two apps on one database (two
 * instances in one process) each carry their own.
 */
export interface Seams {
  /**
   * The live hub (platform/hub): an event published here reaches the area's browsers on every instance, since
   * the hub fans out over the cluster bus; so a change made on an instance that drives no device is seen live.
   */
  live: LiveEvents;
}

/** See ServiceContext.fence. */
export type Fence = (trx: Kysely<Schema>) => Promise<void>;

/**
 * Runs a device's writes in one transaction, behind the context's fence when it has one (the first statement,
 * so the lease cannot change hands before the commit).
 */
export function fencedWrite<T>(ctx: ServiceContext, write: (trx: Kysely<Schema>) => Promise<T>): Promise<T> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await ctx.fence?.(trx);
    return write(trx);
  });
}

/** The context of an area-scoped service: the area is known. */
export type AreaContext = ServiceContext & { areaId: number };

/**
 * The context of a service that shapes its answer by the signed-in caller's own grants (the areas a pool
 * screen shows, the roles an administrator may hand out): the service context plus the caller's principal.
 * Still no HTTP: a test or a script passes a principal.
 */
export type UserContext = ServiceContext & { user: Principal };

/** The actor of a signed-in caller: the user, or the API key the principal stands for. */
export function userActor(user: Principal, ip: string): Actor {
  if (user.apiKey) return { kind: 'key', keyId: user.apiKey.id, name: user.apiKey.name, ip };
  return {
    kind: 'user',
    userId: user.userId,
    name: user.userName,
    displayName: user.name || user.userName,
    ip,
  };
}

export function deviceActor(deviceId: number, name: string): Actor {
  return { kind: 'device', deviceId, name };
}

export function systemActor(name: string): Actor {
  return { kind: 'system', name };
}

/** The actor's user id (null for a key, a device or the system): what user-id columns of records hold. */
export function actorUserId(actor: Actor): number | null {
  return actor.kind === 'user' ? actor.userId : null;
}

/** One string per actor, for caches keyed by who asks. */
export function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.userId}`;
    case 'key':
      return `key:${actor.keyId}`;
    case 'device':
      return `device:${actor.deviceId}`;
    case 'system':
      return `system:${actor.name}`;
  }
}

/** The name records show for whoever acted. */
export function actorDisplayName(actor: Actor): string {
  return actor.kind === 'user' ? actor.displayName : actor.name;
}

/**
 * The area of a call that is area-scoped by declaration (a resource with `area: true`): the route's guard
 * put it there, so its absence is a programming error, not a client's.
 */
export function scopedArea(ctx: ServiceContext): number {
  if (ctx.areaId === undefined) throw new Error('an area-scoped service was called without an area');
  return ctx.areaId;
}
