/**
 * Ten million records (issue 20, first part: measure). Seeds VOLUME_ROWS swipe records (with their per-day counts)
 * and as many charging sessions with their orders, plus the forced power-off records and parking orders that go
 * with them, over 500 areas of very different sizes (bench/volume-areas.ts, volume-seed.ts), into DATABASE_URL:
 * a SQLite file or PostgreSQL. A database already seeded to the same size is reused (the VolumeBenchSeed table
 * says so; migrations added since are applied, as the server does at start). Then it times every list the API
 * serves over those tables through the real endpoint (app.inject: session, permission, area guard, validation,
 * service, JSON), on the largest area and on a small one: first page, page 1,000, the middle and the last page,
 * filtered pages and a 61-day range; p50 and p95 of VOLUME_RUNS runs after a warm-up.
 *
 * Every run clears the list count cache first (platform/count-cache.ts): a list opened or filtered anew, or paged
 * more than 5 s after the last page, pays its count, and that is what p50/p95 show. "cached" is the p50 of 10 runs
 * with the count kept (paging within 5 s). For each list whose p95 misses 20 ms the statements it ran are
 * explained (EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL, EXPLAIN QUERY PLAN and the statement's own time on
 * SQLite) into VOLUME_PLANS (default: next to the SQLite file, or the temporary directory).
 *
 * Usage: npm run bench:volume   [DATABASE_URL=/path/file.db | postgres://…] [VOLUME_ROWS=10000000]
 *        [VOLUME_RUNS=30] [VOLUME_PLANS=/path/plans.txt] [VOLUME_NOW=epoch ms the data end at]
 * The last line is JSON: {"lists":[{"name":…,"rows":…,"p50":…,"p95":…}]}.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { isPostgresUrl, openDatabase, type Db } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { invalidateCounts } from '../packages/server/src/platform/count-cache.ts';
import {
  AREAS,
  BULK_TABLES,
  ID_TABLES,
  planAreas,
  type AreaSummary,
  type SeededTable,
} from './volume-areas.ts';
import { seedBulk } from './volume-seed.ts';
import { explainer } from './volume-explain.ts';
import {
  foreignKeys,
  pgSink,
  secondaryIndexes,
  sqliteSink,
  type Ddl,
  type Sink,
  type Value,
} from './volume-sink.ts';

const ROWS = Number(process.env.VOLUME_ROWS ?? 10_000_000);
const RUNS = Math.max(30, Number(process.env.VOLUME_RUNS ?? 30));
const WARMUP = 3;
const CACHED_RUNS = 10;
const AIM_MS = 20;
const url = process.env.DATABASE_URL ?? path.join(os.tmpdir(), 'gatehouse-volume.db');
const postgres = isPostgresUrl(url);
const plansFile =
  process.env.VOLUME_PLANS ??
  path.join(
    postgres ? os.tmpdir() : path.dirname(path.resolve(url)),
    `volume-plans-${postgres ? 'pg' : 'sqlite'}.txt`,
  );
/** Bumped whenever the generated data changes: an older seed is then rebuilt. */
const VERSION = 1;
const ADMIN_PASSWORD = 'Volume#Admin2026';
const MARKER = 'VolumeBenchSeed';
const DAY = 86_400_000;

type Row = Record<string, unknown>;
type Run = (text: string, params?: Value[]) => Promise<Row[]>;

interface Marker {
  version: number;
  rows: number;
  finished: boolean;
  now?: number;
  seedSeconds?: number;
  largest?: AreaSummary;
  small?: AreaSummary;
  counts?: Record<string, number>;
}

const log = (text: string) => console.log(`[volume] ${text}`);
const fmt = (n: number) => n.toLocaleString('en');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function runner(db: Db, client?: pg.Client): Run {
  if (db.sqlite) {
    const handle = db.sqlite;
    return async (text, params = []) => {
      const statement = handle.prepare(text);
      if (statement.reader) return statement.all(params) as Row[];
      statement.run(params);
      return [];
    };
  }
  return async (text, params = []) =>
    client
      ? (await client.query(text, params)).rows
      : ((await db.kysely.executeQuery(CompiledQuery.raw(text, params))).rows as Row[]);
}

function openDb(): Db {
  return openDatabase(url);
}

async function readMarker(db: Db): Promise<Marker | 'foreign' | null> {
  const run = runner(db);
  const exists = async (table: string) =>
    postgres
      ? (await run(`select to_regclass($1) is not null as found`, [`"${table}"`]))[0]!.found === true
      : (await run(`select 1 from sqlite_master where type = 'table' and name = ?`, [table])).length > 0;
  if (await exists(MARKER)) {
    const row = (await run(`select "Value" from "${MARKER}" where "Key" = 'seed'`))[0];
    return row ? (JSON.parse(String(row.Value)) as Marker) : { version: 0, rows: 0, finished: false };
  }
  return (await exists('AppUser')) ? 'foreign' : null;
}

async function writeMarker(db: Db, marker: Marker): Promise<void> {
  const run = runner(db);
  await run(`delete from "${MARKER}" where "Key" = 'seed'`);
  await run(`insert into "${MARKER}" ("Key", "Value") values ('seed', ${postgres ? '$1' : '?'})`, [
    JSON.stringify(marker),
  ]);
}

/** Removes a volume database of another size or an unfinished one (only ever one this script made). */
async function wipe(db: Db): Promise<Db> {
  if (postgres) {
    const run = runner(db);
    const schema = String((await run('select current_schema() as s'))[0]!.s);
    await run(`drop schema "${schema}" cascade`);
    await run(`create schema "${schema}"`);
    return db;
  }
  await db.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(url + suffix, { force: true });
  return openDb();
}

// ---------------------------------------------------------------------------------------------------------
// Seeding

async function seed(db: Db): Promise<Marker> {
  const started = performance.now();
  // The data end now (or at VOLUME_NOW, epoch ms: two seeds with the same end hold the same rows).
  const now = Number(process.env.VOLUME_NOW ?? Date.now());
  const base = runner(db);
  await base(`create table "${MARKER}" ("Key" text primary key, "Value" text not null)`);
  await writeMarker(db, { version: VERSION, rows: ROWS, finished: false });
  log('migrating with the server’s migrator');
  await migrateToLatest(db);
  await seedIfEmpty(db, { mode: 'none', adminPassword: ADMIN_PASSWORD, now });
  const admin = await db.kysely
    .selectFrom('AppUser')
    .select(['Id', 'UserName'])
    .where('UserName', '=', 'admin')
    .executeTakeFirstOrThrow();

  const client = postgres ? new pg.Client({ connectionString: url }) : undefined;
  await client?.connect();
  const run = runner(db, client);
  const allTables = [...new Set<SeededTable>([...ID_TABLES, ...BULK_TABLES, 'ParkAreaChargeRule'])];
  // Foreign keys: checked by nothing while loading (the rows are consistent by construction).
  let droppedKeys: Ddl[] = [];
  let replica = false;
  if (postgres) {
    replica = (await run(`select current_setting('is_superuser') as su`))[0]!.su === 'on';
    if (!replica) {
      droppedKeys = await foreignKeys(run, allTables);
      for (const k of droppedKeys) await run(`alter table "${k.table}" drop constraint "${k.name}"`);
    }
    await run(`set maintenance_work_mem = '1GB'`);
  } else {
    db.sqlite!.pragma('foreign_keys = OFF');
    db.sqlite!.pragma('synchronous = OFF');
    db.sqlite!.pragma('cache_size = -1048576');
  }
  const sink = (): Sink => (db.sqlite ? sqliteSink(db.sqlite) : pgSink(url, { replica }));

  let t = performance.now();
  const dims = sink();
  const areas = planAreas(dims, ROWS, now);
  await dims.finish();
  log(
    `${AREAS} areas with their devices, holders, cards, zones, hosts and sockets: ${seconds(performance.now() - t)}`,
  );

  // Secondary indexes of the bulk tables: dropped now, rebuilt from their own statements after the load.
  const indexes = await secondaryIndexes(db.dialect, run, BULK_TABLES);
  for (const index of indexes) await run(`drop index "${index.name}"`);
  log(`dropped ${indexes.length} secondary indexes of ${BULK_TABLES.join(', ')} for the load`);

  t = performance.now();
  const cpu = process.cpuUsage();
  const bulk = sink();
  let shown = 0;
  const counts = await seedBulk(bulk, areas, now, { id: admin.Id, name: admin.UserName }, (p) => {
    const elapsed = performance.now() - t;
    if (elapsed - shown < 5000 && p.day !== p.days) return;
    shown = elapsed;
    const rows = p.swipes + p.sessions * 2 + p.parkOrders;
    log(
      `day ${p.day}/${p.days}: ${fmt(p.swipes)} swipes, ${fmt(p.sessions)} sessions and orders, ${fmt(p.parkOrders)} parking orders; ${fmt(Math.round((rows / elapsed) * 1000))} rows/s`,
    );
  });
  await bulk.finish();
  const loaded = performance.now() - t;
  const used = process.cpuUsage(cpu);
  log(
    `bulk rows written in ${seconds(loaded)} (this process: ${seconds((used.user + used.system) / 1000)} of CPU${postgres ? ', the server’s not counted' : ''}): ${JSON.stringify(counts)}`,
  );

  t = performance.now();
  for (const index of indexes) {
    const i = performance.now();
    await run(index.sql);
    log(`  index ${index.name}: ${seconds(performance.now() - i)}`);
  }
  const indexed = performance.now() - t;
  for (const k of droppedKeys) await run(k.sql);

  // What the generator could not write in order: sockets now charging, sequences past the given ids.
  await run(
    `update "ChargeEquipment" set "State" = 1, "StateChangedAt" = (select r."StartAt" from "ChargeRecord" r where r."ChargeEquipmentId" = "ChargeEquipment"."Id" and r."EndAt" is null) where "Id" in (select "ChargeEquipmentId" from "ChargeRecord" where "EndAt" is null)`,
  );
  if (postgres) {
    for (const table of ID_TABLES)
      await run(
        `select setval(pg_get_serial_sequence('"${table}"', 'Id'), (select max("Id") from "${table}"))`,
      );
  } else {
    db.sqlite!.pragma('foreign_keys = ON');
    db.sqlite!.pragma('synchronous = NORMAL');
  }

  t = performance.now();
  const mismatched = await run(
    `select count(*) as n from (select "AreaId", "At" / ${DAY} as "Day", "DeviceId", "Result", count(*) as "Count"
       from "DoorOpeningRecord" group by "AreaId", "At" / ${DAY}, "DeviceId", "Result") r
     full join "DoorOpeningRecordDay" d on d."AreaId" = r."AreaId" and d."Day" = r."Day" and d."DeviceId" = r."DeviceId" and d."Result" = r."Result"
     where r."Count" is distinct from d."Count"`,
  );
  if (Number(mismatched[0]!.n) !== 0)
    throw new Error(`${String(mismatched[0]!.n)} per-day counts differ from a recount of the records`);
  log(`per-day counts equal a recount of the records (checked in ${seconds(performance.now() - t)})`);

  t = performance.now();
  if (postgres) {
    // A database that grew over time has been vacuumed and analysed by autovacuum: the visibility map lets
    // index-only scans skip the heap, and the planner knows the tables' sizes.
    await run('vacuum analyze');
    log(`vacuum analyze: ${seconds(performance.now() - t)}`);
  } else {
    await run('pragma wal_checkpoint(truncate)');
  }
  await client?.end();

  const byRows = [...areas].sort((a, b) => b.swipes - a.swipes);
  const summary = (a: (typeof areas)[number]): AreaSummary => ({
    id: a.id,
    name: a.name,
    swipes: a.swipes,
    sessions: a.sessions,
    parkOrders: a.parkOrders,
    days: a.days,
  });
  const marker: Marker = {
    version: VERSION,
    rows: ROWS,
    finished: true,
    now,
    seedSeconds: Math.round((performance.now() - started) / 100) / 10,
    largest: summary(byRows[0]!),
    small: summary(byRows[Math.floor(byRows.length / 2)]!),
    counts,
  };
  await writeMarker(db, marker);
  log(
    `seeded in ${seconds(performance.now() - started)} (rows ${seconds(loaded)}, indexes ${seconds(indexed)})`,
  );
  return marker;
}

/** The commit the server code comes from, and whether its working tree differs from it. */
function codeVersion(): string {
  const root = path.resolve(import.meta.dirname, '..');
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'packages'], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${commit} with uncommitted changes under packages/` : commit;
  } catch {
    const file = path.join(root, 'COMMIT');
    return fs.existsSync(file) ? `${fs.readFileSync(file, 'utf8').trim().slice(0, 7)} (a copy)` : 'unknown';
  }
}

async function databaseSize(db: Db): Promise<string> {
  if (!postgres) {
    const bytes = ['', '-wal'].reduce(
      (s, x) => s + (fs.existsSync(url + x) ? fs.statSync(url + x).size : 0),
      0,
    );
    return `${(bytes / 1e9).toFixed(2)} GB (file ${path.resolve(url)})`;
  }
  const run = runner(db);
  const total = Number((await run('select pg_database_size(current_database()) as n'))[0]!.n);
  const tables = await run(
    `select relname as t, pg_total_relation_size(c.oid) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where s.nspname = current_schema() and c.relkind = 'r' order by 2 desc limit 6`,
  );
  return `${(total / 1e9).toFixed(2)} GB (${tables.map((r) => `${String(r.t)} ${(Number(r.n) / 1e9).toFixed(2)}`).join(', ')})`;
}

// ---------------------------------------------------------------------------------------------------------
// Main: seed or reuse, then time the lists.

let db = openDb();
const found = await readMarker(db);
if (found === 'foreign')
  throw new Error(
    `${url} holds a Gatehouse database this benchmark did not make: give it an empty database or file`,
  );
let marker: Marker;
if (found && found.finished && found.version === VERSION && found.rows === ROWS) {
  marker = found;
  log(
    `reusing ${postgres ? 'the database' : path.resolve(url)}: seeded to ${fmt(ROWS)} rows in ${marker.seedSeconds} s`,
  );
  // As the server does at start: migrations added since the seed apply to it (none, usually).
  const applied = await migrateToLatest(db);
  if (applied.length) log(`applied the migrations added since: ${applied.join(', ')}`);
} else {
  if (found) {
    log(`removing an earlier volume database (${found.finished ? `${fmt(found.rows)} rows` : 'unfinished'})`);
    db = await wipe(db);
  }
  marker = await seed(db);
  // Measure on a fresh connection with the server's own settings (the loader's cache and pragmas go).
  await db.close();
  db = openDb();
}
const size = await databaseSize(db);
log(`database: ${db.dialect}, ${size}`);
log(`code measured: ${codeVersion()}`);

const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-volume-export-'));
const config = {
  ...loadConfig({ LOG_LEVEL: 'warn', PORT: '0', SEED: 'none', DATABASE_URL: url }),
  webDist: '/nonexistent',
  exportDir,
};
const { app } = await buildApp({ config, db });
const login = await app.inject({
  method: 'POST',
  url: '/api/Auth/login',
  payload: { username: 'admin', password: ADMIN_PASSWORD },
});
const token = (login.json() as { data: { token: string } }).data.token;

const run = runner(db);
const p = (i: number) => (postgres ? `$${i}` : '?');
const largest = marker.largest!;
const small = marker.small!;
const end = marker.now!;
const window61 = { StartTime: String(end - 61 * DAY), EndTime: String(end) };

interface Case {
  list: string;
  area: AreaSummary;
  label: string;
  query: Record<string, string>;
  /** The swipe list has its own service and no count cache. */
  cached: boolean;
}

async function first(sqlText: string, params: Value[]): Promise<string> {
  const row = (await run(sqlText, params))[0];
  if (!row) throw new Error(`no row for ${sqlText}`);
  return String(Object.values(row)[0]);
}

/** Filter values seen in real use: the busiest device, a card, the socket and host of the latest session, a zone. */
async function filtersOf(list: string, areaId: number): Promise<[string, Record<string, string>][]> {
  const socket = () =>
    first(
      `select "ChargeEquipmentId" from "ChargeRecord" where "AreaId" = ${p(1)} order by "StartAt" desc limit 1`,
      [areaId],
    );
  const host = async () =>
    first(`select "ChargeHostId" from "ChargeEquipment" where "Id" = ${p(1)}`, [Number(await socket())]);
  switch (list) {
    case 'DoorOpeningRecord':
      return [
        [
          'busiest device',
          {
            DeviceId: await first(
              `select "DeviceId" from "DoorOpeningRecordDay" where "AreaId" = ${p(1)} group by "DeviceId" order by sum("Count") desc limit 1`,
              [areaId],
            ),
          },
        ],
        [
          'one card',
          {
            CardNumber: await first(
              `select "CardNumber" from "DoorOpeningRecord" where "AreaId" = ${p(1)} and "CardUserId" is not null order by "At" desc limit 1`,
              [areaId],
            ),
          },
        ],
        ['failed only', { Result: 'false' }],
      ];
    case 'ChargeRecord':
      return [
        ['one socket', { ChargeEquipmentId: await socket() }],
        ['one host', { ChargeHostId: await host() }],
      ];
    case 'ChargeOrder':
      return [
        ['paid', { PaymentState: '2' }],
        ['one socket', { ChargeEquipmentId: await socket() }],
      ];
    case 'ForcedOutageRecord':
      return [['one host', { ChargeHostId: await host() }]];
    case 'ParkOrder':
      return [
        [
          'one zone',
          {
            ParkAreaId: await first(
              `select "Id" from "ParkArea" where "AreaId" = ${p(1)} order by "Id" limit 1`,
              [areaId],
            ),
          },
        ],
        ['paid', { PaymentState: '2' }],
      ];
    case 'ChargeEquipment':
      return [['occupied', { StateGroup: 'occupied' }]];
    default:
      return [];
  }
}

const LISTS = [
  'DoorOpeningRecord',
  'ChargeRecord',
  'ChargeOrder',
  'ForcedOutageRecord',
  'ParkOrder',
  'ChargeEquipment',
];
/** Lists with a time range (the sockets list has none). */
const RANGED = new Set(LISTS.slice(0, 5));

async function call(c: Pick<Case, 'list' | 'area' | 'query'>): Promise<{ ms: number; total: number }> {
  const target = `/api/${c.list}?${new URLSearchParams({ PageSize: '20', ...c.query })}`;
  const started = performance.now();
  const reply = await app.inject({
    method: 'GET',
    url: target,
    headers: { authorization: `Bearer ${token}`, 'x-area-id': String(c.area.id) },
  });
  const ms = performance.now() - started;
  const body = reply.json() as { code: number; msg: string; data?: { Total: number } };
  if (reply.statusCode !== 200 || body.code !== 200)
    throw new Error(`${target}: ${reply.statusCode} ${body.msg}`);
  return { ms, total: body.data!.Total };
}

const percentile = (sorted: number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;

interface Result {
  c: Case;
  total: number;
  p50: number;
  p95: number;
  cachedP50: number | null;
}

async function measure(c: Case): Promise<Result> {
  let total = 0;
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    invalidateCounts();
    const r = await call(c);
    total = r.total;
    if (i >= WARMUP) times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  let cachedP50: number | null = null;
  if (c.cached) {
    const cached: number[] = [];
    for (let i = 0; i < CACHED_RUNS; i++) cached.push((await call(c)).ms);
    cached.sort((a, b) => a - b);
    cachedP50 = percentile(cached, 0.5);
  }
  return { c, total, p50: percentile(times, 0.5), p95: percentile(times, 0.95), cachedP50 };
}

const cases: Case[] = [];
for (const list of LISTS) {
  for (const area of [largest, small]) {
    const add = (label: string, query: Record<string, string>) =>
      cases.push({ list, area, label, query, cached: list !== 'DoorOpeningRecord' });
    const pages = async (prefix: string, query: Record<string, string>, deep: boolean) => {
      const { total } = await call({ list, area, query });
      const last = Math.max(1, Math.ceil(total / 20));
      add(`${prefix}page 1`, query);
      if (deep && last > 1000) add(`${prefix}page 1,000`, { ...query, PageIndex: '1000' });
      if (deep && last > 2)
        add(`${prefix}middle page (${fmt(Math.ceil(last / 2))})`, {
          ...query,
          PageIndex: String(Math.ceil(last / 2)),
        });
      if (last > 1) add(`${prefix}last page (${fmt(last)})`, { ...query, PageIndex: String(last) });
    };
    await pages('', {}, true);
    for (const [label, query] of await filtersOf(list, area.id)) add(label, query);
    if (RANGED.has(list)) await pages('61 days, ', window61, false);
  }
}

log(
  `timing ${cases.length} list calls, ${RUNS} runs each after ${WARMUP} warm-up runs (count cache cleared before each)`,
);
const results: Result[] = [];
const loads: number[] = [os.loadavg()[0]!];
for (const c of cases) {
  const r = await measure(c);
  results.push(r);
  loads.push(os.loadavg()[0]!);
  log(
    `  ${c.list} ${c.area === largest ? 'largest' : 'small'} ${c.label}: ${fmt(r.total)} rows, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Why the slow ones are slow: the statements each ran, explained.

const explain = await explainer(db, url, config);
const plans: string[] = [];
const slow = results.filter((r) => r.p95 >= AIM_MS);
log(
  `${slow.length} of ${results.length} lists miss p95 < ${AIM_MS} ms; explaining their statements into ${plansFile}`,
);
for (const r of slow) {
  const statements = await explain.explain(async (traced) => {
    invalidateCounts();
    const reply = await traced.inject({
      method: 'GET',
      url: `/api/${r.c.list}?${new URLSearchParams({ PageSize: '20', ...r.c.query })}`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': String(r.c.area.id) },
    });
    if (reply.statusCode !== 200) throw new Error(`traced call failed: ${reply.body}`);
  });
  const sum = statements.reduce((s, x) => s + x.ms, 0);
  const title = `${r.c.list}, ${r.c.area === largest ? 'largest' : 'small'} area, ${r.c.label}: ${fmt(r.total)} rows, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms; its statements over the record tables ${sum.toFixed(1)} ms`;
  plans.push(`\n## ${title}\n`);
  const lines: string[] = [];
  for (const x of statements) {
    plans.push(
      `-- ${x.ms.toFixed(2)} ms\n${x.sql}\n-- parameters: ${JSON.stringify(x.params)}\n${x.plan.join('\n')}\n`,
    );
    lines.push(`${x.ms.toFixed(1).padStart(8)} ms  ${x.sql.replace(/\s+/g, ' ').slice(0, 110)}`);
    if (x.ms >= 5) for (const l of x.plan.slice(0, postgres ? 12 : 8)) lines.push(`              ${l}`);
  }
  console.log(`\n${title}\n${lines.join('\n')}`);
}
fs.writeFileSync(
  plansFile,
  `# Plans of the lists over ${AIM_MS} ms (${db.dialect}, ${fmt(ROWS)} rows)\n${plans.join('')}`,
);
await explain.close();

// ---------------------------------------------------------------------------------------------------------
// The table and the JSON line.

const areaLabel = (a: AreaSummary) => `${a === largest ? 'largest' : 'small'} (#${a.id}, ${a.days} days)`;
console.log(
  `\nLists over ${fmt(ROWS)} swipe records and ${fmt(ROWS)} charging sessions, ${db.dialect}; largest area #${largest.id}: ${fmt(largest.swipes)} swipes, ${fmt(largest.sessions)} sessions over ${largest.days} days; small area #${small.id}: ${fmt(small.swipes)} / ${fmt(small.sessions)} over ${small.days} days`,
);
console.log(
  `seeded in ${marker.seedSeconds} s; ${size}; ${RUNS} runs per line, count cache cleared before each; load average (1 min) while timing ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores\n`,
);
console.log('| list | area | case | rows | p50 ms | p95 ms | p50 ms, count cached |');
console.log('|---|---|---|---:|---:|---:|---:|');
for (const r of results)
  console.log(
    `| ${r.c.list} | ${areaLabel(r.c.area)} | ${r.c.label} | ${fmt(r.total)} | ${r.p50.toFixed(1)} | ${r.p95 >= AIM_MS ? `**${r.p95.toFixed(1)}**` : r.p95.toFixed(1)} | ${r.cachedP50 === null ? '' : r.cachedP50.toFixed(1)} |`,
  );

await app.close();
await db.close();
fs.rmSync(exportDir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    lists: results.map((r) => ({
      name: `${r.c.list}, ${r.c.area === largest ? 'largest' : 'small'} area, ${r.c.label}`,
      rows: r.total,
      p50: Math.round(r.p50 * 100) / 100,
      p95: Math.round(r.p95 * 100) / 100,
    })),
  }),
);
