import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { runMigrations, type MigrationSet } from './db/migrate.ts';
import { seedSystem } from './modules/system/index.ts';
import { hashPassword } from './platform/auth/passwords.ts';
import { platform } from './platform/migrations/0001-platform.ts';
import { administration } from './platform/migrations/0002-administration.ts';
import { auditActor } from './platform/migrations/0005-audit-actor.ts';
import { constraintsMigration } from './platform/migrations/0009-constraints.ts';
import { exportFilesMigration } from './platform/migrations/0012-export-files.ts';
import { sharedAuthMigration } from './platform/migrations/0013-shared-auth.ts';
import { apiKeysMigration } from './platform/migrations/0025-api-keys.ts';
import { outboxMigration } from './platform/outbox/migration.ts';
import { clusterMigration } from './platform/cluster/index.ts';
import { serverModules } from './routes.ts';

/**
 * The house assembled above its floors: which migrations run in which order, and how an empty database is
 * seeded. db/ (the ground floor) only runs what it is handed; the module list is routes.ts.
 */

const moduleMigrations = Object.assign({}, ...serverModules.map((m) => m.migrations ?? {})) as MigrationSet;

/** Applied in key order; a key is never renamed or reused once released. */
export const migrations: MigrationSet = {
  '0001-platform': platform,
  '0002-administration': administration,
  ...moduleMigrations,
  '0005-audit-actor': auditActor,
  '0009-constraints': constraintsMigration,
  '0011-cluster': clusterMigration,
  '0012-export-files': exportFilesMigration,
  '0013-shared-auth': sharedAuthMigration,
  '0025-api-keys': apiKeysMigration,
  '0026-outbox': outboxMigration,
};

/** Brings a database up to date with the house's migrations. */
export function migrateToLatest(db: Db): Promise<string[]> {
  return runMigrations(db, migrations);
}

export interface SeedOptions {
  mode: 'demo' | 'none';
  adminPassword: string | undefined;
  now: number;
  /** Bulk demo volume, 1 = full (see DemoContext.scale). */
  scale?: number;
  /** Seed sessions running now (DemoContext.runningSessions); true unless said otherwise. */
  runningSessions?: boolean;
  /** First UDP port of the demo's simulated door controllers (DemoContext.wgPortBase; 61000 unless given). */
  wgPortBase?: number;
}

export interface SeedResult {
  seeded: boolean;
  /** Present when the admin password was generated: shown once, never stored in clear. */
  generatedAdminPassword?: string;
  demoUsers: string[];
}

/**
 * Fills an empty database (no users): the system's built-in rows and the admin, and with mode demo the demo
 * (loaded only then), all in one transaction, so a database is either empty or completely seeded.
 */
export async function seedIfEmpty(db: Db, options: SeedOptions): Promise<SeedResult> {
  const existing = await db.kysely.selectFrom('AppUser').select('Id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false, demoUsers: [] };

  const generated = options.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const adminHash = await hashPassword(options.adminPassword ?? generated!);
  const demo = options.mode === 'demo' ? await import('./demo/seed.ts') : undefined;
  const demoHash = demo ? await hashPassword((await import('./demo/catalog.ts')).DEMO_PASSWORD) : '';
  let demoUsers: string[] = [];
  let seededElsewhere = false;
  await db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') {
      // Several instances starting together on an empty database (docs/deployment.md): one seeds under this
      // lock (per schema, held until its transaction ends), the others wait here, then find it seeded.
      await sql`select pg_advisory_xact_lock(hashtext('gatehouse.seed:' || current_schema()))`.execute(trx);
      if (await trx.selectFrom('AppUser').select('Id').limit(1).executeTakeFirst()) {
        seededElsewhere = true;
        return;
      }
    }
    const roleIds = await seedSystem(trx, { adminHash, now: options.now });
    if (demo)
      demoUsers = await demo.seedDemo(db, trx, {
        roleIds,
        now: options.now,
        passwordHash: demoHash,
        scale: options.scale ?? 1,
        runningSessions: options.runningSessions ?? true,
        wgPortBase: options.wgPortBase ?? 61000,
      });
  });
  if (seededElsewhere) return { seeded: false, demoUsers: [] };
  return { seeded: true, ...(generated ? { generatedAdminPassword: generated } : {}), demoUsers };
}

/**
 * A start's first step (main.ts): the migrations and, on an empty database, the seed the configuration asks
 * for, on a connection of their own without the statement timeout: an index build on a large table takes
 * minutes, and an instance waits for another's migration or seed on a lock. On PostgreSQL that connection is
 * closed here and the caller opens its pool; on SQLite it is the database the caller goes on with. The
 * end-to-end tests make their seeded template database with it too (e2e/support/demo-template.ts), so a
 * template is what a start would have made.
 */
export async function prepareDatabase(
  config: Config,
  now = Date.now(),
): Promise<{ setup: Db; seed: SeedResult }> {
  const setup = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(setup);
    const seed = await seedIfEmpty(setup, {
      mode: config.seed,
      adminPassword: config.adminPassword,
      now,
      scale: config.demoScale,
      wgPortBase: config.demoWgPorts,
      // With the simulated charge points on, sessions run only through them: none is seeded running (issue 21).
      runningSessions: !config.simulator,
    });
    return { setup, seed };
  } finally {
    if (setup.dialect === 'postgres') await setup.close();
  }
}
