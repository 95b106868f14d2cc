import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { childDatabase, childDbKinds } from './support/child-db.ts';

const child = fileURLToPath(new URL('./support/seed-child.ts', import.meta.url));

/** Starts the seed in a child process and kills it with SIGKILL `afterMs` after it starts seeding. */
function killDuringSeed(args: string[], afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('seeding') && !timer) timer = setTimeout(() => proc.kill('SIGKILL'), afterMs);
    });
    proc.on('error', reject);
    proc.on('exit', () => resolve(out));
  });
}

const TABLES = [
  'ParkArea',
  'ChargeHost',
  'ChargeRecord',
  'Vehicle',
  'CardUser',
  'DoorOpeningRecord',
] as const;

describe.each(childDbKinds)('[%s] faults: SIGKILL during the seed', (kind) => {
  it('a first start killed during the seed leaves an empty database, and the next start seeds it whole', async () => {
    const database = await childDatabase(kind, 'seed');
    try {
      const out = await killDuringSeed(database.args, 1000);
      // Killed before the end: the transaction never committed.
      expect(out).toContain('seeding');
      expect(out).not.toContain('seeded');
      const db = database.open();
      try {
        await migrateToLatest(db);
        const k = db.kysely;
        expect(await k.selectFrom('AppUser').select('Id').execute()).toHaveLength(0);
        for (const table of TABLES)
          expect(await k.selectFrom(table).select('Id').limit(1).execute(), table).toHaveLength(0);
        const again = await seedIfEmpty(db, {
          mode: 'demo',
          adminPassword: 'Admin#Test2026',
          now: Date.UTC(2026, 10, 1),
          scale: 0.01,
        });
        expect(again.seeded).toBe(true);
        for (const table of TABLES)
          expect((await k.selectFrom(table).select('Id').limit(1).execute()).length, table).toBe(1);
        console.log(
          `[${kind}] faults: seed killed 1 s in; after restart 0 users and 0 rows in ${TABLES.length} tables, then seeded whole`,
        );
      } finally {
        await db.close();
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});
