import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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
  const migrator = new Migrator({ db: db.kysely, provider: new PortableProvider(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
