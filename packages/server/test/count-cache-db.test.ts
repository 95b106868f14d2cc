import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { call, login } from './support/client.ts';

const ADMIN_PASSWORD = 'Admin#Test2026';

/**
 * A list's total is kept a few seconds per process (platform/count-cache.ts). Two databases in one process (a
 * test file's SQLite and PostgreSQL suites, several apps) run the same count on different data: each must read
 * its own. Before the database was part of the key, the second app answered the first's total.
 */
describe('list totals kept per database', () => {
  const opened: { db: Db; built: Built; dir: string }[] = [];
  afterAll(async () => {
    for (const { db, built, dir } of opened) {
      await built.app.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  async function app() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-counts-'));
    const db = openDatabase(path.join(dir, 'test.db'));
    // One instant for both, as the test suites' manual clocks: a kept total is always fresh on it.
    const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
    await migrateToLatest(db);
    await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
    const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
    opened.push({ db, built, dir });
    return built.app;
  }

  it('answers each database its own total', async () => {
    const demo = await app();
    const bare = await app();
    // The second holds two roles more, written past the API (no audited write to drop the kept totals).
    for (const code of ['Extra/One', 'Extra/Two'])
      await opened[1]!.db.kysely
        .insertInto('Role')
        .values({ Code: code, Name: code, Description: null, CreatedAt: 0, UpdatedAt: 0 })
        .execute();
    // Both signed in first: a sign-in is a write, and any write drops every kept total.
    const tokens = [await login(demo, 'admin', ADMIN_PASSWORD), await login(bare, 'admin', ADMIN_PASSWORD)];
    const total = async (a: typeof demo, token: string) => {
      const reply = await call<{ Total: number; Items: unknown[] }>(a, 'GET', '/api/Role', {
        token,
        // One row a page: the total is then counted, not read off a short page.
        query: { PageIndex: 1, PageSize: 1 },
      });
      expect(reply.status, reply.msg).toBe(200);
      return reply.data;
    };
    const first = await total(demo, tokens[0]!);
    const second = await total(bare, tokens[1]!);
    expect(first.Total).toBeGreaterThan(1);
    expect(second.Total).toBe(first.Total + 2);
  });
});
