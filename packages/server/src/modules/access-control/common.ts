import {
  doorDirection,
  doorNumber,
  isoInstant,
  translate,
  type AnyResourceApi,
  type Lang,
} from '@gatehouse/shared';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { exportColumns, type ColumnSpecs } from '../../platform/export-columns.ts';
import type { ExportColumn } from '../../platform/exports/registry.ts';
import { formatInstant } from '../../platform/exports/workbook.ts';
import {
  actorDisplayName,
  actorUserId,
  type ServiceContext,
  type UserContext,
} from '../../platform/context.ts';
import { customTimeZone } from '../../platform/area-zone.ts';

export type Trx = Kysely<Database>;

export { isoOrNull as iso } from '../../platform/instants.ts';

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

/** A channel's door number and direction, as the channel and authorisation exports show them. */
export function doorColumns<Item extends { DoorNumber: number; Direction: number }>(): ExportColumn<Item>[] {
  return exportColumns<Item>('accessControl.field', {
    DoorNumber: { enum: doorNumber },
    Direction: { enum: doorDirection },
  } as ColumnSpecs<Item>);
}

/**
 * A resource whose create, update or enable/disable are operations of their own (they record what changed)
 * under the standard names, so that list screens find them: the part `implementResource` implements, the
 * standard operations its declaration offers.
 */
export function standardOperations<A extends AnyResourceApi>(api: A): A {
  const d = api.def;
  return {
    ...api,
    create: d.create ? api.create : undefined,
    update: d.update ? api.update : undefined,
    setStatus: d.status ? api.setStatus : undefined,
  };
}

/** Rows whose column is set (a card given, a device assigned) or not: a flag filter on a nullable reference. */
export const isSet =
  (column: string) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's query
  (eb: ExpressionBuilder<any, any>, set: boolean) =>
    eb(column, set ? 'is not' : 'is', null);

/**
 * Runs `run` over `items` in chunks of `size` (bound parameters stay far below both databases' limits) and
 * joins what each chunk returns.
 */
export async function inChunks<T, R>(
  items: readonly T[],
  run: (chunk: T[]) => Promise<R[]>,
  size = 500,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await run(items.slice(i, i + size))));
  return out;
}

/** Weekdays 1..7 (Monday first) as the reader says them: "Mon, Tue" (exports). */
export function weekdayText(days: number[], lang: Lang): string {
  return days.map((d) => translate(lang, `accessControl.weekday.${d}`)).join(', ');
}
