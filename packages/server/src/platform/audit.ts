import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { invalidateCounts } from './count-cache.ts';
import type { AuthedContext } from './route.ts';

export type AuditAction = 'create' | 'update' | 'delete' | 'status' | (string & {});

/** Fields never written to the audit log, whatever the entity. */
const SECRET_FIELDS = new Set(['PasswordHash', 'Password', 'NewPassword', 'OldPassword', 'TokenHash']);

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
 * One audit row per write: who, when, area, action, before and after. Pass the transaction that made the
 * change, so the change and its record commit or roll back together.
 */
export async function audit(
  ctx: AuthedContext,
  entry: AuditEntry,
  trx: Kysely<Database> = ctx.db.kysely,
): Promise<void> {
  invalidateCounts();
  await trx
    .insertInto('AuditLog')
    .values({
      At: ctx.clock.now(),
      UserId: ctx.user.userId,
      UserName: ctx.user.userName,
      AreaId: ctx.areaId ?? null,
      Action: entry.action,
      Entity: entry.entity,
      EntityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      Before: snapshot(entry.before),
      After: snapshot(entry.after),
      Ip: ctx.meta.ip,
    })
    .execute();
}
