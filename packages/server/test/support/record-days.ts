import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { GARAGE_DAY_COUNTED } from '../../src/modules/garage/record-days.ts';

const DAY = 86_400_000;

/**
 * `RecordDay` beside a full recount of every day-counted table, as sorted "Kind area day count" lines: a
 * test expects the two to be equal (the triggers kept every count through inserts, deletes and moves).
 */
export async function recordDaysAndRecount(
  k: Kysely<Database>,
): Promise<{ kept: string[]; counted: string[] }> {
  const kept = (await k.selectFrom('RecordDay').selectAll().execute()).map(
    (r) => `${r.Kind} ${Number(r.AreaId)} ${Number(r.Day)} ${Number(r.Count)}`,
  );
  const counted: string[] = [];
  for (const { table, column } of GARAGE_DAY_COUNTED) {
    const rows = await (k as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any -- any table
      .selectFrom(table)
      .select(['AreaId', column, sql<number>`1`.as('one')])
      .execute();
    const byDay = new Map<string, number>();
    for (const r of rows) {
      const key = `${table} ${Number(r.AreaId)} ${Math.floor(Number(r[column]) / DAY)}`;
      byDay.set(key, (byDay.get(key) ?? 0) + 1);
    }
    for (const [key, n] of byDay) counted.push(`${key} ${n}`);
  }
  return { kept: kept.sort(), counted: counted.sort() };
}
