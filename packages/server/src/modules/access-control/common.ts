import { isoInstant } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { formatInstant } from '../../platform/exports/workbook.ts';
import {
  actorDisplayName,
  actorUserId,
  type ServiceContext,
  type UserContext,
} from '../../platform/context.ts';
import { id } from '../../platform/schemas.ts';
import { customTimeZone } from '../../platform/area-zone.ts';

export type Trx = Kysely<Database>;

export const TAG = 'AccessControl';

export { isoOrNull as iso } from '../../platform/instants.ts';

export { optionalText } from '../../platform/schemas.ts';

/** A batch of row ids in a body. */
export const idList = (max = 500) => z.array(id).min(1).max(max);

/** An instant in a body, bounded to the API's window (platform/schemas.ts). */
export { bodyInstant } from '../../platform/schemas.ts';

/** A pool call naming an area: the caller must operate it, as the area guard demands of area-scoped calls. */
export function assertOwnArea(ctx: UserContext, areaId: number): void {
  if (!ctx.user.areaIds.has(areaId)) throw new AppError(403, 'error.areaForbidden');
}

/** The areas a pool screen shows besides the pool itself: the caller's. */
export function ownAreaIds(ctx: UserContext): number[] {
  return [...ctx.user.areaIds];
}

/** Who did it, as change and renewal records name them. */
export function operator(ctx: ServiceContext) {
  return { OperatorId: actorUserId(ctx.actor), OperatorName: actorDisplayName(ctx.actor) };
}

const zones = new Map<string | null, string | undefined>();

/** Date-times in an area's own time zone (its Custom.timezone), as records show them. */
export async function areaFormatter(db: Trx, areaId: number): Promise<(ms: number) => string> {
  const area = await db.selectFrom('AreaInfo').select('Custom').where('Id', '=', areaId).executeTakeFirst();
  const custom = area?.Custom ?? null;
  if (!zones.has(custom)) zones.set(custom, customTimeZone(custom));
  const zone = zones.get(custom);
  return (ms) => formatInstant(isoInstant(ms), zone);
}

/** Counts rows of a query builder's result in one number (both databases return text or bigint). */
export function count(row: { n: unknown } | undefined): number {
  return Number(row?.n ?? 0);
}
