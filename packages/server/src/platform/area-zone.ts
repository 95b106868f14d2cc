import { DEFAULT_SITE_TIME_ZONE, isTimeZone, parseCustom } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The IANA time zone an area's Custom JSON names (`Custom.timezone`), when it is a real one. */
export function customTimeZone(custom: string | null): string | undefined {
  const zone = parseCustom(custom)?.timezone;
  return isTimeZone(zone) ? zone : undefined;
}

/** Where an area's local days start: its own zone, else the default site zone. */
export async function areaTimeZone(db: Kysely<Database>, areaId: number): Promise<string> {
  const row = await db.selectFrom('AreaInfo').select('Custom').where('Id', '=', areaId).executeTakeFirst();
  return customTimeZone(row?.Custom ?? null) ?? DEFAULT_SITE_TIME_ZONE;
}
