// The Gatehouse HTTP server in a process of its own, started as main.ts starts it (migrate, seed if empty,
// buildApp, listen), so faults.test.ts can kill it with SIGKILL half-way through a request or a job:
//   node --import tsx server-child.ts <sqlite file | postgres url> [pg schema]
// Environment: the server's own, and FAULT, which makes the moment to kill observable:
//   holder-inserts=N     the parent is told { holderInserts: N } when the N-th card holder row is inserted.
// Sends { port } once listening.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../../src/assembly.ts';

const [url, pgSchema] = process.argv.slice(2);
if (!url) throw new Error('usage: server-child.ts <sqlite file | postgres url> [schema]');
const send = (message: unknown) => process.send?.(message);
const fault = process.env.FAULT ?? '';

const config = loadConfig({
  ...process.env,
  DATABASE_URL: url,
  HOST: '127.0.0.1',
  PORT: '0',
  WG: 'off',
  SIMULATOR: 'off',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
});

const db = openDatabase(url, pgSchema ? { pgSchema } : {});
const inserts = /^holder-inserts=(\d+)$/.exec(fault);
if (inserts) {
  const at = Number(inserts[1]);
  let seen = 0;
  // Observes, never changes, the queries the server runs.
  const observer: KyselyPlugin = {
    transformQuery({ node }: PluginTransformQueryArgs) {
      if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'CardUser' && ++seen === at)
        send({ holderInserts: seen });
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs) => result,
  };
  db.kysely = db.kysely.withPlugin(observer);
}

await migrateToLatest(db);
await seedIfEmpty(db, {
  mode: config.seed,
  adminPassword: config.adminPassword,
  now: Date.now(),
  scale: config.demoScale,
});
const { app } = await buildApp({ config, db });
await app.listen({ port: 0, host: '127.0.0.1' });
send({ port: (app.server.address() as { port: number }).port });
