import { isoInstant } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { formatInstant } from '../../platform/exports/workbook.ts';
import type { AuthedContext } from '../../platform/route.ts';
import { id } from '../../platform/schemas.ts';
import { areaTimeZone } from '../system/exports/service.ts';

export type Trx = Kysely<Database>;

/** Screens of the spec: the pools are SuperAdmin's; devices and channels AccessControl/Admin's; the rest both. */
export const SUPER = ['SuperAdmin'] as const;
export const AC_ADMIN = ['AccessControl/Admin'] as const;
export const AC_ALL = ['AccessControl/Admin', 'AccessControl/User'] as const;
export const TAG = 'AccessControl';

export { isoOrNull as iso } from '../../platform/instants.ts';

export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** A batch of row ids in a body. */
export const idList = (max = 500) => z.array(id).min(1).max(max);

/** An instant in a body: ISO 8601 text (what the web sends) or epoch milliseconds. */
export const bodyInstant = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true })])
  .transform((v) => (typeof v === 'number' ? v : Date.parse(v)));

/** A pool call naming an area: the caller must operate it, as the area guard demands of area-scoped calls. */
export function assertOwnArea(ctx: AuthedContext, areaId: number): void {
  if (!ctx.user.areaIds.has(areaId)) throw new AppError(403, 'error.areaForbidden');
}

/** The areas a pool screen shows besides the pool itself: the caller's. */
export function ownAreaIds(ctx: AuthedContext): number[] {
  return [...ctx.user.areaIds];
}

/** Who did it, as change and renewal records name them. */
export function operator(ctx: AuthedContext) {
  return { OperatorId: ctx.user.userId, OperatorName: ctx.user.name || ctx.user.userName };
}

const zones = new Map<string | null, string | undefined>();

/** Date-times in an area's own time zone (its Custom.timezone), as records show them. */
export async function areaFormatter(db: Trx, areaId: number): Promise<(ms: number) => string> {
  const area = await db.selectFrom('AreaInfo').select('Custom').where('Id', '=', areaId).executeTakeFirst();
  const custom = area?.Custom ?? null;
  if (!zones.has(custom)) zones.set(custom, areaTimeZone(custom));
  const zone = zones.get(custom);
  return (ms) => formatInstant(isoInstant(ms), zone);
}

/** Counts rows of a query builder's result in one number (both databases return text or bigint). */
export function count(row: { n: unknown } | undefined): number {
  return Number(row?.n ?? 0);
}
