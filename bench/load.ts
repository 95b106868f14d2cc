/**
 * Load benchmark (autocannon on loopback, bounded in time). One server process, three routes:
 *   1. a bare Fastify JSON route,
 *   2. 20 rows through one raw better-sqlite3 prepared statement,
 *   3. the real authenticated, area-scoped list GET /api/AppUser (20 rows).
 * The load generator runs in a separate process so it does not share the server's event loop.
 * Usage: npm run bench  [BENCH_SECONDS=10] [BENCH_CONNECTIONS=50]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migrateToLatest } from '../packages/server/src/db/migrate.ts';
import { seedIfEmpty } from '../packages/server/src/db/seed/index.ts';
import { DEMO_PASSWORD } from '../packages/server/src/db/seed/catalog.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const extraUsers = 5000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
const db = openDatabase(path.join(dir, 'bench.db'));
await migrateToLatest(db);
await seedIfEmpty(db, { mode: 'demo', adminPassword: 'Bench#Admin2026', now: Date.now() });

// Enough users in area 1 that the list reads a real index, not a handful of rows.
const sqlite = db.sqlite!;
const hash = sqlite.prepare('select PasswordHash from AppUser where UserName = ?').get('useradmin') as { PasswordHash: string };
const insertUser = sqlite.prepare(
  'insert into AppUser (UserName, Name, PasswordHash, Disabled, BuiltIn, CreatedAt, UpdatedAt) values (?, ?, ?, 0, 0, ?, ?)',
);
const link = sqlite.prepare('insert into UserArea (UserId, AreaId) values (?, ?)');
sqlite.transaction(() => {
  for (let i = 0; i < extraUsers; i++) {
    const now = Date.now();
    const { lastInsertRowid } = insertUser.run(`bench${i}`, `压测用户${i}`, hash.PasswordHash, now, now);
    link.run(lastInsertRowid, 1 + (i % 2));
  }
})();

const raw = sqlite.prepare(
  `select u.Id, u.UserName, u.Name, u.Avatar, u.Phone, u.Email, u.DepartmentId, u.Disabled, u.CreatedAt
   from AppUser u join UserArea a on a.UserId = u.Id where a.AreaId = ? order by u.Id limit 20`,
);

const config = { ...loadConfig({ LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' }), webDist: '/nonexistent' };
const { app } = await buildApp({
  config,
  db,
  extend(instance) {
    instance.get('/bench/hello', async () => ({ code: 200, msg: '', data: { hello: 'world' } }));
    instance.get('/bench/raw', async () => ({ code: 200, msg: '', data: { Items: raw.all(1), Total: 20 } }));
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const login = await fetch(`${base}/api/Auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'useradmin', password: DEMO_PASSWORD }),
});
const token = ((await login.json()) as { data: { token: string } }).data.token;
const check = await fetch(`${base}/api/AppUser?PageSize=20`, { headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' } });
const checked = (await check.json()) as { code: number; data: { Items: unknown[] } };
if (checked.code !== 200 || checked.data.Items.length !== 20) throw new Error(`real endpoint not answering 20 rows: ${JSON.stringify(checked).slice(0, 200)}`);

const autocannonCli = path.join(path.dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

function load(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const args = [autocannonCli, '-c', String(connections), '-d', String(seconds), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out) as { requests: { average: number }; latency: { p99: number }; errors: number; non2xx: number };
      resolve({ rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx });
    });
  });
}

console.log(`Gatehouse load benchmark: ${connections} connections, ${seconds} s per route, SQLite (WAL), node ${process.version}, ${os.cpus().length} cores`);
const results: [string, Figures][] = [];
results.push(['bare Fastify JSON', await load(`${base}/bench/hello`)]);
results.push(['raw better-sqlite3, 20 rows', await load(`${base}/bench/raw`)]);
results.push([
  'GET /api/AppUser (auth + area + zod), 20 rows',
  await load(`${base}/api/AppUser?PageIndex=1&PageSize=20`, { authorization: `Bearer ${token}`, 'x-area-id': '1' }),
]);

const rawRps = results[1]![1].rps;
console.log('\n| route | req/s | p99 (ms) | non-2xx/errors | vs raw statement |');
console.log('|---|---|---|---|---|');
for (const [name, f] of results) {
  console.log(`| ${name} | ${Math.round(f.rps)} | ${f.p99} | ${f.errors} | ${((f.rps / rawRps) * 100).toFixed(0)}% |`);
}
const ratio = results[2]![1].rps / rawRps;
console.log(`\nreal endpoint / raw statement: ${(ratio * 100).toFixed(1)}% (aim >= 70%)`);

await app.close();
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
