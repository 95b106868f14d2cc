// The Gatehouse HTTP server in a process of its own, started as main.ts starts it (migrate, seed if empty,
// buildApp, listen), so faults.test.ts can kill it with SIGKILL half-way through a request or a job:
//   node --import tsx server-child.ts <sqlite file | postgres url> [pg schema]
// Environment: the server's own (EXPORT_DIR, …), and FAULT, which makes the moment to kill observable:
//   export-write-stalls  the disk stalls half-way through writing an export file: the first half is written,
//                        the parent is told { exportWriting: path }, and the write never ends.
//   holder-inserts=N     the parent is told { holderInserts: N } when the N-th card holder row is inserted.
// Sends { port } once listening.
import fs from 'node:fs/promises';
import path from 'node:path';
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

if (fault === 'export-write-stalls') {
  // A slow disk: the process is then killed while the file is half-written. Only writes into the export folder
  // stall; the module object is patched, so the server's own `fs.writeFile` calls come through here.
  const writeFile = fs.writeFile.bind(fs);
  (fs as { writeFile: typeof fs.writeFile }).writeFile = (async (file, data, options) => {
    if (typeof file !== 'string' || path.dirname(file) !== config.exportDir || !(data instanceof Uint8Array))
      return writeFile(file, data, options);
    await writeFile(file, data.subarray(0, data.length >> 1), options);
    send({ exportWriting: file });
    return new Promise<void>(() => undefined);
  }) as typeof fs.writeFile;
}

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
