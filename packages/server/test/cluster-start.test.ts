import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrations, seedIfEmpty } from '../src/assembly.ts';
import { systemClock } from '../src/platform/clock.ts';
import { keepLease } from '../src/platform/cluster/kept-lease.ts';
import { Leases } from '../src/platform/cluster/leases.ts';
import { childDatabase } from './support/child-db.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';

/**
 * Issue 19, migrations and seed with several instances (docs/deployment.md): instances starting together on
 * an empty PostgreSQL database migrate once (Kysely's migrator lock: the others wait, then find nothing to do)
 * and seed once (an advisory lock per schema around the seed's transaction); the demo's simulators run in
 * the one instance holding the demo lease. (cluster-proxy.test.ts starts three real processes at once too.)
 */
const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl)
  describe('migrations and seed with several instances (PostgreSQL)', () => {
    it.skip('needs TEST_DATABASE_URL: several instances share PostgreSQL only', () => {});
  });

describe.runIf(Boolean(pgUrl))('[postgres] several instances starting on one empty database', () => {
  it('three at once: every migration applied once, the seed run once, the others told it was done', async () => {
    const database = await childDatabase('postgres', 'start');
    const dbs = [database.open(), database.open(), database.open()];
    try {
      const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)));
      // One instance ran them all; the others waited for its lock and found nothing left.
      expect(applied.map((names) => names.length).sort((a, b) => a - b)).toEqual([
        0,
        0,
        Object.keys(migrations).length,
      ]);
      const seeds = await Promise.all(
        dbs.map((db) =>
          seedIfEmpty(db, {
            mode: 'demo',
            adminPassword: ADMIN_PASSWORD,
            now: Date.UTC(2026, 10, 1),
            scale: 0.005,
          }),
        ),
      );
      expect(seeds.filter((s) => s.seeded)).toHaveLength(1);
      const k = dbs[0]!.kysely;
      expect(
        await k.selectFrom('AppUser').select('Id').where('UserName', '=', 'admin').execute(),
      ).toHaveLength(1);
      // Seeded whole, once: the demo's users exist one time each.
      const users = await k.selectFrom('AppUser').select('UserName').execute();
      expect(new Set(users.map((u) => u.UserName)).size).toBe(users.length);
      expect(users.length).toBeGreaterThan(1);
    } finally {
      for (const db of dbs) await db.close();
      await database.drop();
    }
  }, 120_000);

  it('the demo lease: the first instance keeps it, a second is told who holds it, the next takes it once released', async () => {
    const database = await childDatabase('postgres', 'demo');
    const db = database.open();
    try {
      await migrateToLatest(db);
      const leases = new Leases(db, systemClock);
      const first = await keepLease(leases, 'demo', 'simulators', 'gh1', 30_000);
      expect(first.held).toBe(true);
      expect(await keepLease(leases, 'demo', 'simulators', 'gh2', 30_000)).toEqual({
        held: false,
        holder: 'gh1',
      });
      if (first.held) await first.release();
      const next = await keepLease(leases, 'demo', 'simulators', 'gh2', 30_000);
      expect(next.held).toBe(true);
      if (next.held) await next.release();
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
