/**
 * Load benchmark (autocannon on loopback, bounded in time). One server process, four routes:
 *   1. a bare Fastify JSON route,
 *   2. 20 rows through one raw better-sqlite3 prepared statement,
 *   3. the real authenticated, area-scoped list GET /api/OperatorStaff: the same 20 rows and columns
 *      through the whole stack (session, permission code, area guard, zod, the resource helper's
 *      statement kept for its list shape, count, envelope): the platform's cost over the raw statement
 *      (aim >= 80%),
 *   4. GET /api/AppUser, 20 rows plus each user's roles and areas (four queries; the count is kept 5 s),
 *      aim >= 50% of the raw statement.
 * The load generator runs in a separate process so it does not share the server's event loop.
 * Each route's seconds are taken in BENCH_ROUNDS slices, the routes in turn (see loadInTurns).
 * Usage: npm run bench  [BENCH_SECONDS=10] [BENCH_CONNECTIONS=50] [BENCH_ROUNDS=5] [BENCH_ONLY=3,4 [BENCH_PROFILE_DIR=dir]]
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { autocannon } from './support/measure.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const extraRows = 5000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
const db = openDatabase(path.join(dir, 'bench.db'));
await migrateToLatest(db);
const ADMIN_PASSWORD = 'Bench#Admin2026';
// Bulk module data is not what this benchmark reads: a small volume keeps its start quick.
await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.01 });

// Enough rows in area 1 that the lists read real indexes, not a handful of rows.
const sqlite = db.sqlite!;
const hash = sqlite.prepare('select PasswordHash from AppUser where UserName = ?').get('useradmin') as {
  PasswordHash: string;
};
const insertUser = sqlite.prepare(
  'insert into AppUser (UserName, Name, PasswordHash, Disabled, BuiltIn, CreatedAt, UpdatedAt) values (?, ?, ?, 0, 0, ?, ?)',
);
const link = sqlite.prepare('insert into UserArea (UserId, AreaId) values (?, ?)');
const insertStaff = sqlite.prepare(
  'insert into OperatorStaff (AreaId, Name, StaffType, Phone, Email, WechatOpenId, Remark, Disabled, CreatedAt, UpdatedAt) values (?, ?, ?, ?, ?, null, ?, 0, ?, ?)',
);
sqlite.transaction(() => {
  for (let i = 0; i < extraRows; i++) {
    const now = Date.now();
    const { lastInsertRowid } = insertUser.run(`bench${i}`, `压测用户${i}`, hash.PasswordHash, now, now);
    link.run(lastInsertRowid, 1 + (i % 2));
    insertStaff.run(
      1 + (i % 2),
      `值班员${i}`,
      i % 3,
      `139${String(i).padStart(8, '0')}`,
      `staff${i}@example.com`,
      '压测数据',
      now,
      now,
    );
  }
})();

// The rows and columns GET /api/OperatorStaff returns for its first page (default sort: Id).
const raw = sqlite.prepare(
  `select Id, Name, StaffType, Phone, Email, WechatOpenId, Remark, Disabled, CreatedAt, UpdatedAt
   from OperatorStaff where AreaId = ? order by Id limit 20`,
);

const config = {
  ...loadConfig({ LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' }),
  webDist: '/nonexistent',
};
const { app } = await buildApp({
  config,
  db,
  extend(instance) {
    instance.get('/bench/hello', async () => ({ code: 200, msg: '', data: { hello: 'world' } }));
    instance.get('/bench/raw', async () => ({
      code: 200,
      msg: '',
      data: { Items: raw.all(1), Total: extraRows / 2 },
    }));
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const login = await fetch(`${base}/api/Auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
});
const token = ((await login.json()) as { data: { token: string } }).data.token;
for (const url of ['/api/OperatorStaff?PageSize=20', '/api/AppUser?PageSize=20']) {
  const check = await fetch(`${base}${url}`, {
    headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
  });
  const checked = (await check.json()) as { code: number; data: { Items: unknown[] } };
  if (checked.code !== 200 || checked.data.Items.length !== 20)
    throw new Error(`${url} not answering 20 rows: ${JSON.stringify(checked).slice(0, 200)}`);
}

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

interface Slice {
  requests: number;
  seconds: number;
  p99: number;
  errors: number;
}

function slice(url: string, headers: Record<string, string>, duration: number): Promise<Slice> {
  return autocannon<{
    requests: { total: number };
    duration: number;
    latency: { p99: number };
    errors: number;
    non2xx: number;
  }>(['-c', String(connections), '-d', String(duration)], url, headers).then((r) => ({
    requests: r.requests.total,
    seconds: r.duration,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  }));
}

/**
 * Each route's time in `rounds` slices taken in turn (route 1, 2, 3, 4, then again), so a burst of other
 * work on a shared machine falls on every route alike instead of on whichever ran during it: the ratios are
 * what this benchmark is for. req/s is all requests over all slices; p99 is the worst slice's.
 */
async function loadInTurns(routes: { url: string; headers: Record<string, string> }[]): Promise<Figures[]> {
  const slices: Slice[][] = routes.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [i, route] of routes.entries())
      slices[i]!.push(await slice(route.url, route.headers, seconds / rounds));
  return slices.map((taken) => ({
    rps: taken.reduce((n, s) => n + s.requests, 0) / taken.reduce((n, s) => n + s.seconds, 0),
    p99: Math.max(...taken.map((s) => s.p99)),
    errors: taken.reduce((n, s) => n + s.errors, 0),
  }));
}

// The load average goes with the figures: on a shared machine it says how far they can be trusted.
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
console.log(
  `Gatehouse load benchmark: ${connections} connections, ${seconds} s per route in ${rounds} turns, SQLite (WAL), node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString()}, load average ${loadAverage()}`,
);
const auth = { authorization: `Bearer ${token}`, 'x-area-id': '1' };
const routes = [
  { name: 'bare Fastify JSON', url: `${base}/bench/hello`, headers: {} },
  { name: 'raw better-sqlite3, 20 rows', url: `${base}/bench/raw`, headers: {} },
  {
    name: 'GET /api/OperatorStaff (auth + area + zod + resource helper), 20 rows',
    url: `${base}/api/OperatorStaff?PageIndex=1&PageSize=20`,
    headers: auth,
  },
  {
    name: 'GET /api/AppUser, 20 rows + roles + areas (4 queries)',
    url: `${base}/api/AppUser?PageIndex=1&PageSize=20`,
    headers: auth,
  },
];
// BENCH_ONLY=3 (1-based, comma-separated): load only those routes, e.g. under --cpu-prof to see one route's costs.
const only = process.env.BENCH_ONLY?.split(',').map((n) => Number(n) - 1);
if (only) {
  const picked = routes.filter((_, i) => only.includes(i));
  // BENCH_PROFILE_DIR: a CPU profile of the server while those routes are loaded (not its start).
  const profile = process.env.BENCH_PROFILE_DIR ? new inspector.Session() : undefined;
  profile?.connect();
  await profile?.post('Profiler.enable');
  await profile?.post('Profiler.start');
  const alone = await loadInTurns(picked);
  if (profile) {
    const { profile: taken } = await profile.post('Profiler.stop');
    fs.mkdirSync(process.env.BENCH_PROFILE_DIR!, { recursive: true });
    const file = path.join(process.env.BENCH_PROFILE_DIR!, `load-${only.join('-')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(taken));
    console.log(`profile: ${file}`);
  }
  picked.forEach((route, i) => console.log(`${route.name}: ${Math.round(alone[i]!.rps)} req/s`));
  await app.close();
  process.exit(0);
}
const figures = await loadInTurns(routes);
const results: [string, Figures][] = routes.map((route, i) => [route.name, figures[i]!]);

const rawRps = results[1]![1].rps;
console.log('\n| route | req/s | p99 (ms) | non-2xx/errors | vs raw statement |');
console.log('|---|---|---|---|---|');
for (const [name, f] of results) {
  console.log(
    `| ${name} | ${Math.round(f.rps)} | ${f.p99} | ${f.errors} | ${((f.rps / rawRps) * 100).toFixed(0)}% |`,
  );
}
const percent = (i: number) => ((results[i]![1].rps / rawRps) * 100).toFixed(1);
console.log(`\nresource list endpoint / raw statement: ${percent(2)}% (aim >= 80%)`);
console.log(`users list endpoint / raw statement: ${percent(3)}% (aim >= 50%)`);
console.log(`load average at the end: ${loadAverage()}`);

await app.close();
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
