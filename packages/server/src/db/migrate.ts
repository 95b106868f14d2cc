import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import type { PortableMigration } from './migration.ts';

/** A migration set: applied in key order; a key is never renamed or reused once released. */
export type MigrationSet = Record<string, PortableMigration>;

class PortableProvider implements MigrationProvider {
  constructor(
    private readonly db: Db,
    private readonly migrations: MigrationSet,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const ctx = { dialect: this.db.dialect };
    return Object.fromEntries(
      Object.entries(this.migrations).map(([name, m]) => [
        name,
        { up: (k: Kysely<unknown>) => m.up(k, ctx) },
      ]),
    );
  }
}

/**
 * Brings the schema up to date with a migration set (the house's is assembled above the modules, in
 * assembly.ts); each migration runs in a transaction on both dialects. On PostgreSQL Kysely's migrator
 * holds a lock while it runs, so a second instance starting at the same time waits, then finds nothing to do.
 */
export async function runMigrations(db: Db, migrations: MigrationSet): Promise<string[]> {
  // PostgreSQL: name the schema of the bookkeeping tables. Unnamed, Kysely looks for them in every schema
  // and, finding another schema's (parallel test files each use their own), skips creating its own.
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]?.name
      : undefined;
  const migrator = new Migrator({
    db: db.kysely,
    provider: new PortableProvider(db, migrations),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    // Before the migrations ran (no results), nothing was changed: a read that raced another schema is read again.
    if (error && !results && attempt < 20 && otherSchemaGone(error, schema)) continue;
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
}

/**
 * Kysely's migrator looks for its tables by reading every schema of the database, resolving each schema's name
 * as it goes: another schema dropped meanwhile (another deployment's, a finished test file's) fails that read
 * with "schema … does not exist" (3F000) before any migration ran, or, when the read reached that schema's
 * tables (the swipe records' monthly partitions), with 'relation "<other>.<table>" does not exist' (42P01; CI,
 * openapi.test.ts on PostgreSQL), or, when it reached a column another schema's migration was dropping or
 * renaming, with 'column "<c>" of relation "<table>" does not exist' (42703, naming no schema: CI of 29 Nov,
 * 'column "UserId" of relation "ExportJob"' while webhooks-restart.test.ts migrated beside other files; the
 * bookkeeping read reads no column of ours by name). Read again, it is gone from the list.
 */
export function otherSchemaGone(error: unknown, ours: string | undefined): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return false;
  if (code === '3F000') return !ours || !message.includes(`"${ours}"`);
  if (code === '42P01') {
    const schema = /relation "([^".]+)\./.exec(message)?.[1];
    return schema !== undefined && schema !== ours;
  }
  if (code === '42703') return /^column "[^"]+" of relation "[^"]+" does not exist$/.test(message);
  // The schema dropped while the read resolved it by number (CI, 30 Nov: access-check.test.ts on PostgreSQL).
  if (code === 'XX000') return /^cache lookup failed for namespace \d+$/.test(message);
  return false;
}
