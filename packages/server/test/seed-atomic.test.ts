import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedIfEmpty } from '../src/db/seed/index.ts';

const child = fileURLToPath(new URL('./support/seed-child.ts', import.meta.url));

/** Starts the seed in a child process and kills it with SIGKILL `afterMs` after it starts seeding. */
function killDuringSeed(dbFile: string, afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dbFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('seeding') && !proc.killed) setTimeout(() => proc.kill('SIGKILL'), afterMs);
    });
    proc.on('error', reject);
    proc.on('exit', () => resolve(out));
  });
}

it('a first start killed during the seed leaves an empty database, and the next start seeds it whole', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-seed-'));
  const file = path.join(dir, 'seed.db');
  try {
    const out = await killDuringSeed(file, 1000);
    // Killed before the end: the transaction never committed.
    expect(out).not.toContain('seeded');
    const db = openDatabase(file);
    try {
      await migrateToLatest(db);
      const k = db.kysely;
      expect(await k.selectFrom('AppUser').select('Id').execute()).toHaveLength(0);
      const again = await seedIfEmpty(db, {
        mode: 'demo',
        adminPassword: 'Admin#Test2026',
        now: Date.UTC(2026, 10, 1),
        scale: 0.01,
      });
      expect(again.seeded).toBe(true);
      for (const table of [
        'ParkArea',
        'ChargeHost',
        'ChargeRecord',
        'Vehicle',
        'CardUser',
        'DoorOpeningRecord',
      ] as const)
        expect((await k.selectFrom(table).select('Id').limit(1).execute()).length, table).toBe(1);
    } finally {
      await db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
