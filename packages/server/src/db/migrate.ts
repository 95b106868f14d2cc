import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

class PortableProvider implements MigrationProvider {
  constructor(private readonly db: Db) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const ctx = { dialect: this.db.dialect };
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [name, { up: (k: Kysely<unknown>) => m.up(k, ctx) }]),
    );
  }
}

/** Brings the schema up to date; each migration runs in a transaction on both dialects. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // PostgreSQL: name the schema of the bookkeeping tables. Unnamed, Kysely looks for them in every schema
  // and, finding another schema's (parallel test files each use their own), skips creating its own.
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]?.name
      : undefined;
  const migrator = new Migrator({
    db: db.kysely,
    provider: new PortableProvider(db),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
