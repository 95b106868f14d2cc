import { DEFAULT_SITE_TIME_ZONE, formatCents, isTimeZone, parseCustom } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { fieldError } from '../../platform/errors.ts';
import { hasAnyCode, type Principal } from '../../platform/principal.ts';

/** Every /Bicycle screen is for both codes; configuration writes and refunds need the Admin code. */
export const READ = ['Bicycle/Admin', 'Bicycle/User'] as const;
export const ADMIN = ['Bicycle/Admin'] as const;

/** The caller's level for actions that differ by code (shared PAYMENT_ACTIONS levels). */
export function garageLevel(user: Principal): 'admin' | 'user' {
  return hasAnyCode(user, ADMIN) ? 'admin' : 'user';
}

export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** Optional body fields → column values: undefined is left out, '' becomes null. */
export function columns<T extends Record<string, unknown>>(input: T, skip: string[] = ['Id']) {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key, v]) => !skip.includes(key) && v !== undefined)
      .map(([key, v]) => [key, v === '' ? null : v]),
  );
}

export { isoOrNull as iso } from '../../platform/instants.ts';

/** Export cell for money: yuan with two decimals. */
export const moneyCell = (v: number | null) => (v === null ? '' : formatCents(v));

/** The IANA zone of an area (Custom.timezone), else the default site zone: where its local days start. */
export async function areaTimeZone(db: Kysely<Database>, areaId: number): Promise<string> {
  const row = await db.selectFrom('AreaInfo').select('Custom').where('Id', '=', areaId).executeTakeFirst();
  const zone = parseCustom(row?.Custom ?? null)?.timezone;
  return isTimeZone(zone) ? zone : DEFAULT_SITE_TIME_ZONE;
}

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
