import { BICYCLE_ADMIN } from '@gatehouse/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { fieldError, notFound } from '../../../platform/errors.ts';
import { hasAnyCode, type Principal } from '../../../platform/principal.ts';

/**
 * Module-wide pieces every garage feature uses (a caller's level, body-to-column mapping, export money cells,
 * the area check of a referenced row, the area's time zone, one item read as its list shows it). What only
 * one feature needs lives in that feature.
 */

/** The caller's level for actions that differ by code (shared PAYMENT_ACTIONS levels). */
export function garageLevel(user: Principal): 'admin' | 'user' {
  return hasAnyCode(user, BICYCLE_ADMIN) ? 'admin' : 'user';
}

/** Optional body fields → column values: undefined is left out, '' becomes null. */
export function columns<T extends Record<string, unknown>>(input: T, skip: string[] = ['Id']) {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key, v]) => !skip.includes(key) && v !== undefined)
      .map(([key, v]) => [key, v === '' ? null : v]),
  );
}

export { isoOrNull as iso } from '../../../platform/instants.ts';
export { areaTimeZone } from '../../../platform/area-zone.ts';

/** Throws a 400 naming the field unless the row exists in the area. */
export async function assertInArea(
  db: Kysely<Database>,
  table: 'ParkArea' | 'ChargeHost' | 'ChargeRule' | 'Vehicle' | 'ChargeEquipment',
  id: number,
  areaId: number,
  field: string,
  key: string,
) {
  const row = await db
    .selectFrom(table)
    .select('Id')
    .where('Id', '=', id)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  if (!row) throw fieldError(field, key);
}

/**
 * How a list shows its rows: the query, the row → item mapping and what is added per page. A resource's
 * implementation spreads it, and `itemById` reads one item the same way (the reply of a write that is not
 * the standard create or update).
 */
export interface ItemView<I, C extends AreaContext = AreaContext> {
  table: keyof Database & string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each list selects its own row shape
  query(db: Kysely<Database>): SelectQueryBuilder<any, any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the row of that query
  toItem(row: any): I;
  enrich?(ctx: C, items: I[]): Promise<I[]>;
}

/** One row of the area as its list shows it, or 404. */
export async function itemById<I, C extends AreaContext>(
  view: ItemView<I, C>,
  ctx: C,
  id: number,
): Promise<I> {
  const row = await view
    .query(ctx.db.kysely)
    .where(`${view.table}.Id`, '=', id)
    .where(`${view.table}.AreaId`, '=', ctx.areaId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const items = [view.toItem(row)];
  return (view.enrich ? await view.enrich(ctx, items) : items)[0]!;
}
