import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { invalidateCounts } from './count-cache.ts';
import type { Actor, ServiceContext } from './context.ts';

export type AuditAction = 'create' | 'update' | 'delete' | 'status' | (string & {});

/** Fields never written to the audit log, whatever the entity. */
const SECRET_FIELDS = new Set([
  'PasswordHash',
  'Password',
  'NewPassword',
  'OldPassword',
  'TokenHash',
  'OcppPasswordHash',
]);

function snapshot(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (key, v: unknown) => (SECRET_FIELDS.has(key) ? undefined : v));
}

export interface AuditEntry {
  action: AuditAction;
  entity: string;
  entityId?: number | string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Who acted, in the log's columns. A user fills UserId, UserName and Ip as the log always had them; a device
 * or the system leaves UserId and Ip empty and gives its name as UserName, so the log reads the same way; an
 * API key gives its name and address, and its id as ActorId.
 */
function actorColumns(actor: Actor) {
  switch (actor.kind) {
    case 'user':
      return {
        ActorKind: 'user' as const,
        ActorId: actor.userId,
        UserId: actor.userId,
        UserName: actor.name,
        Ip: actor.ip,
      };
    case 'key':
      // An API key: its id and name, and the address it called from; no user stands behind it.
      return {
        ActorKind: 'key' as const,
        ActorId: actor.keyId,
        UserId: null,
        UserName: actor.name,
        Ip: actor.ip,
      };
    case 'device':
      return {
        ActorKind: 'device' as const,
        ActorId: actor.deviceId,
        UserId: null,
        UserName: actor.name,
        Ip: null,
      };
    case 'system':
      return {
        ActorKind: 'system' as const,
        ActorId: null,
        UserId: null,
        UserName: actor.name,
        Ip: actor.ip ?? null,
      };
  }
}

/**
 * One audit row per write: who, when, area, action, before and after. Pass the transaction that made the
 * change, so the change and its record commit or roll back together.
 */
export async function audit(
  ctx: ServiceContext,
  entry: AuditEntry,
  trx: Kysely<Database> = ctx.db.kysely,
): Promise<void> {
  invalidateCounts();
  await trx
    .insertInto('AuditLog')
    .values({
      At: ctx.clock.now(),
      ...actorColumns(ctx.actor),
      AreaId: ctx.areaId ?? null,
      Action: entry.action,
      Entity: entry.entity,
      EntityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      Before: snapshot(entry.before),
      After: snapshot(entry.after),
    })
    .execute();
}
