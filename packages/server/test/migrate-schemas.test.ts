import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/assembly.ts';
import { openDatabase } from '../src/db/database.ts';
import { otherSchemaGone, runMigrations } from '../src/db/migrate.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Kysely's migrator reads every schema of the database to find its tables; another schema dropped meanwhile
 * (another deployment's, or a test file that finished while this one starts: the files run side by side) made
 * that read fail with "schema … does not exist" before any migration ran (seen in CI). The migration of a
 * schema must not depend on what happens to the others.
 */
describe.skipIf(!url)('[postgres] migrating one schema while others come and go', () => {
  it('migrates to the end, once, while other schemas with tables are created and dropped all along', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const schema = `t_mig_${randomBytes(5).toString('hex')}`;
    await admin.query(`create schema ${schema}`);
    let churning = true;
    let dropped = 0;
    // Many short-lived schemas, each with a table of a serial column (what the migrator's read resolves by name).
    const churn = (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      while (churning) {
        const other = `t_churn_${randomBytes(5).toString('hex')}`;
        await c.query(`create schema ${other}; create table ${other}.t (id serial primary key)`);
        await c.query(`drop schema ${other} cascade`);
        dropped += 1;
      }
      await c.end();
    })();
    const db = openDatabase(url!, { pgSchema: schema });
    try {
      const applied = await runMigrations(db, migrations);
      expect(applied).toEqual(Object.keys(migrations).sort());
      // Nothing left to do, and nothing done twice.
      expect(await runMigrations(db, migrations)).toEqual([]);
      expect(dropped).toBeGreaterThan(0);
    } finally {
      churning = false;
      await churn;
      await db.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  }, 120_000);
});

describe("which failures of the migrator's read are another schema going away", () => {
  it('reads again for another schema or its table gone, never for its own', () => {
    const gone = (code: string, message: string) => otherSchemaGone({ code, message }, 't_ours');
    expect(gone('3F000', 'schema "t_other" does not exist')).toBe(true);
    expect(gone('3F000', 'schema "t_ours" does not exist')).toBe(false);
    // A monthly partition of another file's swipe records, dropped with its schema mid-read (CI, 29 Nov).
    expect(gone('42P01', 'relation "t_fded5a3f02cb.DoorOpeningRecord_202701" does not exist')).toBe(true);
    expect(gone('42P01', 'relation "t_ours.DoorOpeningRecord_202701" does not exist')).toBe(false);
    expect(gone('42P01', 'relation "kysely_migration" does not exist')).toBe(false);
    expect(gone('42703', 'column "x" does not exist')).toBe(false);
    // A column another schema's migration dropped while the read reached it (CI, 29 Nov afternoon); the
    // migrator only reads again when it failed before running any migration (runMigrations).
    expect(gone('42703', 'column "UserId" of relation "ExportJob" does not exist')).toBe(true);
    // Another schema dropped while the read resolved it by number (CI, 30 Nov).
    expect(gone('XX000', 'cache lookup failed for namespace 714635')).toBe(true);
    expect(gone('XX000', 'cache lookup failed for type 23')).toBe(false);
  });
});
