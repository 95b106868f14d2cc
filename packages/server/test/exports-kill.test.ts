import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { ExportQueue } from '../src/platform/exports/queue.ts';
import { recoveryBoundSeconds } from '../src/platform/jobs/index.ts';
import { childDatabase, childDbKinds, childMessage, forkChild, killHard } from './support/child-db.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';
import { KILL_TEST_ROWS, exportKillTimings, registerKillTest } from './support/export-kill.ts';

const CHILD = fileURLToPath(new URL('./support/export-child.ts', import.meta.url));

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}
interface Job {
  Id: number;
  Status: string;
  RowCount: number;
  Error: string | null;
}

async function http<T>(port: number, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en',
      'x-area-id': '1',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}

/** KillTest out of the registry again, once this file is done: the next file of the worker shares it. */
let unregister = () => {};
afterAll(() => unregister());

/** The surviving instance, in this process: its export worker reads KillTest's rows at once. */
async function survivor(db: Db, retryLimit?: number): Promise<Built> {
  unregister = registerKillTest(async () => KILL_TEST_ROWS);
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'none', ADMIN_PASSWORD });
  const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db });
  await built.platform.exports.close();
  built.platform.exports = new ExportQueue({
    db,
    clock: built.platform.clock,
    principalOfUser: (userId) => built.platform.sessions.principalOfUser(userId),
    retentionDays: () => 7,
    log: built.app.log,
    timings: { ...exportKillTimings(), ...(retryLimit === undefined ? {} : { retryLimit }) },
  });
  await built.platform.exports.start();
  return built;
}

async function statusOf(db: Db, id: number) {
  return db.kysely
    .selectFrom('ExportJob')
    .select(['Status', 'RowCount', 'Error'])
    .where('Id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Starts the stalling instance, exports KillTest through it and SIGKILLs it while the job is running. */
async function killMidJob(args: string[], db: Db, env: Record<string, string> = {}) {
  const child = forkChild(CHILD, args, env);
  try {
    const { port } = await childMessage(child, (m) => m as { port: number } | undefined);
    const stalled = childMessage(child, (m) => ((m as { stalled?: boolean }).stalled ? true : undefined));
    stalled.catch(() => undefined);
    const login = await http<{ token: string }>(port, 'POST', '/api/Auth/login', undefined, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    const created = await http<Job>(port, 'POST', '/api/ExportJob', login.data.token, {
      Resource: 'KillTest',
      Query: {},
    });
    expect(created.code, created.msg).toBe(200);
    await stalled;
    expect((await statusOf(db, created.data.Id)).Status).toBe('running');
    await killHard(child);
    return { id: created.data.Id, killedAt: Date.now() };
  } finally {
    await killHard(child);
  }
}

async function waitFinished(db: Db, id: number, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await statusOf(db, id);
    if (row.Status !== 'pending' && row.Status !== 'running') return row;
    if (Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(childDbKinds)('[%s] an export whose instance is SIGKILLed mid-job', (kind) => {
  const bound = recoveryBoundSeconds(exportKillTimings()) * 1000;

  it(
    kind === 'postgres'
      ? 'is resumed by the other instance within the stated bound: one file, one done, never left running'
      : 'is resumed when the one instance starts again: one file, one done, never left running',
    async () => {
      const { args, open, drop } = await childDatabase(kind, 'export_kill');
      const db = open();
      let other: Built | undefined;
      try {
        await migrateToLatest(db);
        await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.005 });
        const { id, killedAt } = await killMidJob(args, db);
        // PostgreSQL: the other instance was running all along (started here, after the kill, since it must
        // not win the job before the stall); SQLite: the restart of the only instance.
        other = await survivor(db);
        const row = await waitFinished(db, id, bound + 10_000);
        const took = Date.now() - killedAt;
        expect(row).toEqual({ Status: 'done', RowCount: KILL_TEST_ROWS.length, Error: null });
        if (kind === 'postgres') expect(took).toBeLessThan(bound + 5_000);
        const files = await db.kysely
          .selectFrom('ExportFile')
          .select('JobId')
          .where('JobId', '=', id)
          .execute();
        expect(files).toHaveLength(1);
        console.info(
          `[${kind}] export killed mid-job: done again ${took} ms after the kill (bound ${bound} ms)`,
        );
      } finally {
        await other?.app.close();
        await db.close();
        await drop();
      }
    },
    60_000,
  );

  it.runIf(kind === 'postgres')(
    'with no retry left, is failed cleanly with a message within the stated bound',
    async () => {
      const { args, open, drop } = await childDatabase(kind, 'export_kill_fail');
      const db = open();
      let other: Built | undefined;
      try {
        await migrateToLatest(db);
        await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.005 });
        const { id, killedAt } = await killMidJob(args, db, { RETRY_LIMIT: '0' });
        other = await survivor(db, 0);
        const row = await waitFinished(db, id, bound + 10_000);
        const took = Date.now() - killedAt;
        expect(row.Status).toBe('failed');
        expect(row.Error).toBe(
          'The server running this export stopped and the retries did not finish it; export again',
        );
        expect(took).toBeLessThan(bound + 5_000);
        console.info(`[${kind}] export killed on its last attempt: failed ${took} ms after the kill`);
      } finally {
        await other?.app.close();
        await db.close();
        await drop();
      }
    },
    60_000,
  );
});
