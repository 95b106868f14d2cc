import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type Built } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../../src/assembly.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { systemActor, type ServiceContext } from '../../src/platform/context.ts';

export const ADMIN_PASSWORD = 'Admin#Test2026';
export { DEMO_PASSWORD } from '../../src/demo/catalog.ts';

export interface Harness extends Built {
  db: Db;
  clock: ManualClock;
  config: Config;
  dialect: 'sqlite' | 'postgres';
}

interface Target {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ db: Db; drop(): Promise<void> }>;
}

const sqliteTarget: Target = {
  name: 'sqlite',
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-db-'));
    const db = openDatabase(path.join(dir, 'test.db'));
    return { db, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  },
};

/** Each test file gets its own schema on the shared PostgreSQL server, dropped afterwards. */
const postgresTarget = (url: string): Target => ({
  name: 'postgres',
  async open() {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const db = openDatabase(url, { pgSchema: schema });
    return {
      db,
      async drop() {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  },
});

export const targets: Target[] = [
  sqliteTarget,
  ...(process.env.TEST_DATABASE_URL ? [postgresTarget(process.env.TEST_DATABASE_URL)] : []),
];

/**
 * Runs a suite once per database target (SQLite always, PostgreSQL with TEST_DATABASE_URL) on a real,
 * migrated, demo-seeded database with a manual clock. Suite names start with [sqlite] / [postgres].
 */
export function describeEachDb(
  title: string,
  body: (h: () => Harness) => void,
  env: Record<string, string> = {},
) {
  for (const target of targets) {
    describe(`[${target.name}] ${title}`, () => {
      let harness: Harness | undefined;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const opened = await target.open();
        drop = opened.drop;
        const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
        const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'demo', ADMIN_PASSWORD, ...env });
        await migrateToLatest(opened.db);
        // A small volume of bulk demo data keeps every suite's start fast on both databases.
        await seedIfEmpty(opened.db, {
          mode: 'demo',
          adminPassword: ADMIN_PASSWORD,
          now: clock.now(),
          scale: 0.005,
        });
        const built = await buildApp({
          config: { ...config, webDist: '/nonexistent' },
          db: opened.db,
          clock,
        });
        harness = { ...built, db: opened.db, clock, config, dialect: target.name };
      });
      afterAll(async () => {
        await harness?.app.close();
        await harness?.db.close();
        await drop?.();
      });
      body(() => harness!);
    });
  }
}

/** A service context of the system (no user, no area) on the harness's database and clock, for calling services. */
export function systemContext(h: Harness): ServiceContext {
  return { db: h.db, clock: h.clock, lang: 'en', actor: systemActor('test'), areaId: undefined };
}
