// A Gatehouse instance in a process of its own whose export worker stalls half-way through a job, so
// exports-kill.test.ts can SIGKILL it while it holds the job:
//   node --import tsx export-child.ts <sqlite file | postgres url> [pg schema]
// The database is migrated and seeded by the parent. The instance's export queue uses the test timings of
// exportKillTimings (environment RETRY_LIMIT overrides the retries), and the list "KillTest" is exportable:
// its rows() tells the parent { stalled: true } and never returns. Sends { port } once listening.
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { ExportQueue } from '../../src/platform/exports/queue.ts';
import { registerKillTest, exportKillTimings } from './export-kill.ts';

const [url, pgSchema] = process.argv.slice(2);
if (!url) throw new Error('usage: export-child.ts <sqlite file | postgres url> [schema]');
const send = (message: unknown) => process.send?.(message);

registerKillTest(() => {
  send({ stalled: true });
  return new Promise<never>(() => undefined);
});

const config = loadConfig({
  ...process.env,
  DATABASE_URL: url,
  HOST: '127.0.0.1',
  PORT: '0',
  WG: 'off',
  SIMULATOR: 'off',
  SEED: 'none',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
});
const db = openDatabase(url, pgSchema ? { pgSchema } : {});
const { app, platform } = await buildApp({ config, db });
// The same queue with the test's short timings in place of the production ones.
await platform.exports.close();
platform.exports = new ExportQueue({
  db,
  clock: platform.clock,
  principalOfUser: (userId) => platform.sessions.principalOfUser(userId),
  retentionDays: () => 7,
  log: app.log,
  timings: exportKillTimings(),
});
await platform.exports.start();
await app.listen({ port: 0, host: '127.0.0.1' });
send({ port: (app.server.address() as { port: number }).port });
