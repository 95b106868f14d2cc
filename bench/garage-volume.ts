/**
 * Garage at full demo volume: how long the demo seed takes (100,000 charging sessions and orders, 20,000
 * parking orders) and what the garage's list, dashboard and grid endpoints cost on that data, in-process
 * (fastify.inject, no network), median and worst of several runs each.
 * Usage: node --import tsx bench/garage-volume.ts  [BENCH_RUNS=15] [DATABASE_URL=postgres://… for PostgreSQL]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase, isPostgresUrl } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { DEMO_PASSWORD } from '../packages/server/src/demo/catalog.ts';
import { demoSeeders } from '../packages/server/src/demo/seed.ts';

const runs = Number(process.env.BENCH_RUNS ?? 15);
const url = process.env.DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-garage-'));
let schema: string | undefined;
if (url && isPostgresUrl(url)) {
  schema = `bench_${Date.now()}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
}
const db =
  url && schema ? openDatabase(url, { pgSchema: schema }) : openDatabase(path.join(dir, 'garage.db'));
await migrateToLatest(db);

// Time each module's seeder on its own: wall clock, and the process's CPU time (steadier on a shared machine).
const timings: [string, number, number][] = [];
const seeders = [...demoSeeders];
demoSeeders.length = 0;
for (const seeder of seeders)
  demoSeeders.push(async (d, c) => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    await seeder(d, c);
    const used = process.cpuUsage(cpu);
    timings.push([seeder.name, performance.now() - t, (used.user + used.system) / 1000]);
  });
const started = performance.now();
await seedIfEmpty(db, { mode: 'demo', adminPassword: 'Bench#Admin2026', now: Date.now(), scale: 1 });
const seedTotal = performance.now() - started;

const counts: Record<string, number> = {};
for (const table of [
  'ChargeRecord',
  'ChargeOrder',
  'ParkOrder',
  'ForcedOutageRecord',
  'ChargeEquipment',
] as const) {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  counts[table] = Number(row.n);
}

const config = loadConfig({
  LOG_LEVEL: 'silent',
  SEED: 'none',
  DATABASE_URL: url ?? path.join(dir, 'garage.db'),
});
const { app } = await buildApp({ config: { ...config, webDist: '/nonexistent', exportDir: dir }, db });
const login = await app.inject({
  method: 'POST',
  url: '/api/Auth/login',
  payload: { username: 'bikeadmin', password: DEMO_PASSWORD },
});
const token = (login.json() as { data: { token: string } }).data.token;
const now = Date.now();
const range = `StartTime=${new Date(now - 61 * 86_400_000).toISOString()}&EndTime=${new Date(now).toISOString()}`;
const host = await db.kysely
  .selectFrom('ChargeHost')
  .select('Id')
  .where('AreaId', '=', 1)
  .executeTakeFirstOrThrow();

const cases: [string, string][] = [
  ['charging orders, page 1, no filter', '/api/ChargeOrder'],
  ['charging orders, 61 days', `/api/ChargeOrder?${range}`],
  [
    'charging orders, 61 days, paid, by amount',
    `/api/ChargeOrder?${range}&PaymentState=2&SortField=AmountCents`,
  ],
  ['charging orders, page 500', '/api/ChargeOrder?PageIndex=500'],
  ['charging records, 61 days, one host', `/api/ChargeRecord?${range}&ChargeHostId=${host.Id}`],
  ['charging records, running', '/api/ChargeRecord?Open=true'],
  ['parking orders, 61 days', `/api/ParkOrder?${range}`],
  ['forced power-off records', '/api/ForcedOutageRecord'],
  ['zones with occupancy', '/api/ParkArea'],
  ['sockets, occupied', '/api/ChargeEquipment?StateGroup=occupied'],
  ['socket grid of one host', `/api/ChargeEquipment/Grid?ChargeHostId=${host.Id}`],
  ['dashboard summary', '/api/GarageDashboard'],
  ['dashboard, 30 days', '/api/GarageDashboard/Daily'],
];

const results: { name: string; median: number; max: number }[] = [];
for (const [name, target] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const reply = await app.inject({
      method: 'GET',
      url: target,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    times.push(performance.now() - t);
    if (reply.statusCode !== 200) throw new Error(`${target}: ${reply.statusCode} ${reply.body}`);
  }
  times.sort((a, b) => a - b);
  results.push({ name, median: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]! });
}

console.log(`database: ${db.dialect}; rows: ${JSON.stringify(counts)}`);
console.log(
  `seed total ${seedTotal.toFixed(0)} ms; ${timings.map(([n, t, cpu]) => `${n} ${t.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms)`).join(', ')}`,
);
console.log('| endpoint | median ms | worst ms |');
console.log('|---|---|---|');
for (const r of results) console.log(`| ${r.name} | ${r.median.toFixed(1)} | ${r.max.toFixed(1)} |`);

await app.close();
await db.close();
if (url && schema) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`drop schema ${schema} cascade`);
  await c.end();
}
fs.rmSync(dir, { recursive: true, force: true });
