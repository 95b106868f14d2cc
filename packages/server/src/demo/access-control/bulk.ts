import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type Value = string | number | null;

/**
 * Inserts many rows fast: one prepared statement in one transaction on SQLite (the raw handle), batches of
 * a few hundred rows through Kysely elsewhere. Every row has the same columns as the first.
 */
export async function bulkInsert(
  db: Db,
  sqlite: Db['sqlite'] | undefined,
  table: keyof Database & string,
  rows: Record<string, Value>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  if (sqlite) {
    const statement = sqlite.prepare(
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    );
    sqlite.transaction(() => {
      for (const row of rows) statement.run(columns.map((c) => row[c] ?? null));
    })();
    return;
  }
  const size = Math.max(1, Math.floor(2000 / columns.length));
  for (let i = 0; i < rows.length; i += size) {
    await db.kysely
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}
