import { BICYCLE_ADMIN, formatCents } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fieldError } from '../../platform/errors.ts';
import { hasAnyCode, type Principal } from '../../platform/principal.ts';

/** The caller's level for actions that differ by code (shared PAYMENT_ACTIONS levels). */
export function garageLevel(user: Principal): 'admin' | 'user' {
  return hasAnyCode(user, BICYCLE_ADMIN) ? 'admin' : 'user';
}

export { optionalText } from '../../platform/schemas.ts';

/** Optional body fields → column values: undefined is left out, '' becomes null. */
export function columns<T extends Record<string, unknown>>(input: T, skip: string[] = ['Id']) {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key, v]) => !skip.includes(key) && v !== undefined)
      .map(([key, v]) => [key, v === '' ? null : v]),
  );
}

export { isoOrNull as iso } from '../../platform/instants.ts';
export { areaTimeZone } from '../../platform/area-zone.ts';

/** Export cell for money: yuan with two decimals. */
export const moneyCell = (v: number | null) => (v === null ? '' : formatCents(v));

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
