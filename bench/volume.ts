/**
 * Ten million records (issue 20, first part: measure). Seeds VOLUME_ROWS swipe records (with their per-day counts)
 * and as many charging sessions with their orders, plus the forced power-off records and parking orders that go
 * with them, and the door alarms and visitor passes derived from them (bench/volume-setup.ts, seedExtras), over 500
 * areas of very different sizes (bench/volume-areas.ts, volume-seed.ts), into DATABASE_URL:
 * a SQLite file or PostgreSQL. A database already seeded to the same size is reused (the VolumeBenchSeed table
 * says so; migrations added since are applied, as the server does at start). Then it times every list the API
 * serves over those tables through the real endpoint (app.inject: session, permission, area guard, validation,
 * service, JSON), on the largest area and on a small one: first page, page 1,000, the middle and the last page,
 * every filter the records screens offer (filtersOf: device, card, holder, host, socket, zone, result, payment,
 * stop reason, operator, keyword, alarm kind and state, visitor pass and host, some with the 61-day range) and the
 * 61-day range's pages; p50 and p95 of VOLUME_RUNS runs after a warm-up.
 *
 * Every run clears the list count cache first (platform/count-cache.ts): a list opened or filtered anew, or paged
 * more than 5 s after the last page, pays its count, and that is what p50/p95 show. "cached" is the p50 of 10 runs
 * with the count kept (paging within 5 s). For each list whose p95 misses 20 ms the statements it ran are
 * explained (EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL, EXPLAIN QUERY PLAN and the statement's own time on
 * SQLite) into VOLUME_PLANS (default: next to the SQLite file, or the temporary directory).
 *
 * Usage: npm run bench:volume   [DATABASE_URL=/path/file.db | postgres://…] [VOLUME_ROWS=10000000]
 *        [VOLUME_RUNS=30] [VOLUME_PLANS=/path/plans.txt] [VOLUME_NOW=epoch ms the data end at]
 *        [VOLUME_ONLY=ChargeOrder,… (time only these lists)]
 * The last line is JSON: {"lists":[{"name":…,"rows":…,"p50":…,"p95":…}]}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { invalidateCounts } from '../packages/server/src/platform/count-cache.ts';
import type { AreaSummary } from './volume-areas.ts';
import { explainer } from './volume-explain.ts';
import {
  ADMIN_PASSWORD,
  DAY,
  ROWS,
  codeVersion,
  databaseSize,
  fmt,
  log,
  postgres,
  prepare,
  runner,
  url,
} from './volume-setup.ts';
import type { Value } from './volume-sink.ts';

const RUNS = Math.max(30, Number(process.env.VOLUME_RUNS ?? 30));
const WARMUP = 3;
const CACHED_RUNS = 10;
const AIM_MS = 20;
const plansFile =
  process.env.VOLUME_PLANS ??
  path.join(
    postgres ? os.tmpdir() : path.dirname(path.resolve(url)),
    `volume-plans-${postgres ? 'pg' : 'sqlite'}.txt`,
  );

// ---------------------------------------------------------------------------------------------------------
// Main: seed or reuse, then time the lists.

const { db, marker } = await prepare();
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

/** A filter value a list's data does not have (a small area without parking orders, at a smoke run's size). */
class NoRow extends Error {}

async function first(sqlText: string, params: Value[]): Promise<string> {
  const row = (await run(sqlText, params))[0];
  if (!row) throw new NoRow(`no row for ${sqlText}`);
  return String(Object.values(row)[0]);
}

/**
 * Filter values seen in real use, for every filter the records screens offer (issue 32): the busiest device, a
 * card and a holder's name, the socket, host and zone of the latest session, the result, the payment state, the
 * stop reason, the operator, a keyword, alarm kind and state, a visitor pass and its host, and the 61-day range
 * with the filters a screen most often pairs it with. A case whose value the area's data lacks is left out.
 */
async function filtersOf(list: string, areaId: number): Promise<[string, Record<string, string>][]> {
  const out: [string, Record<string, string>][] = [];
  const add = async (
    label: string,
    query: () => Promise<Record<string, string>> | Record<string, string>,
  ) => {
    try {
      out.push([label, await query()]);
    } catch (error) {
      if (!(error instanceof NoRow)) throw error;
      log(`  ${list}, area #${areaId}: no value for "${label}", left out`);
    }
  };
  const ranged = (query: Record<string, string>) => ({ ...query, ...window61 });
  const socket = () =>
    first(
      `select "ChargeEquipmentId" from "ChargeRecord" where "AreaId" = ${p(1)} order by "StartAt" desc limit 1`,
      [areaId],
    );
  const host = async () =>
    first(`select "ChargeHostId" from "ChargeEquipment" where "Id" = ${p(1)}`, [Number(await socket())]);
  const zone = async () =>
    first(`select "ParkAreaId" from "ChargeHost" where "Id" = ${p(1)}`, [Number(await host())]);
  const sessionCard = () =>
    first(
      `select "CardNumber" from "ChargeRecord" where "AreaId" = ${p(1)} and "CardNumber" is not null order by "StartAt" desc limit 1`,
      [areaId],
    );
  switch (list) {
    case 'DoorOpeningRecord': {
      const device = async () => ({
        DeviceId: await first(
          `select "DeviceId" from "DoorOpeningRecordDay" where "AreaId" = ${p(1)} group by "DeviceId" order by sum("Count") desc limit 1`,
          [areaId],
        ),
      });
      await add('busiest device', device);
      await add('busiest device, 61 days', async () => ranged(await device()));
      await add('one card', async () => ({
        CardNumber: await first(
          `select "CardNumber" from "DoorOpeningRecord" where "AreaId" = ${p(1)} and "CardUserId" is not null order by "At" desc limit 1`,
          [areaId],
        ),
      }));
      await add("one holder's name", async () => ({
        HolderName: await first(
          `select u."Name" from "DoorOpeningRecord" r join "CardUser" u on u."Id" = r."CardUserId" where r."AreaId" = ${p(1)} order by r."At" desc limit 1`,
          [areaId],
        ),
      }));
      await add('failed only', () => ({ Result: 'false' }));
      await add('failed only, 61 days', () => ranged({ Result: 'false' }));
      break;
    }
    case 'ChargeRecord':
      await add('one socket', async () => ({ ChargeEquipmentId: await socket() }));
      await add('one host', async () => ({ ChargeHostId: await host() }));
      await add('one host, 61 days', async () => ranged({ ChargeHostId: await host() }));
      await add('one zone', async () => ({ ParkAreaId: await zone() }));
      await add('one zone, 61 days', async () => ranged({ ParkAreaId: await zone() }));
      await add('one card', async () => ({ CardNumber: await sessionCard() }));
      await add('forced power-off stops', () => ({ StopReason: '3' }));
      await add('charging now', () => ({ Open: 'true' }));
      break;
    case 'ChargeOrder':
      await add('paid', () => ({ PaymentState: '2' }));
      await add('paid, 61 days', () => ranged({ PaymentState: '2' }));
      await add('one socket', async () => ({ ChargeEquipmentId: await socket() }));
      await add('one host', async () => ({ ChargeHostId: await host() }));
      await add('one zone', async () => ({ ParkAreaId: await zone() }));
      await add('one zone, 61 days', async () => ranged({ ParkAreaId: await zone() }));
      await add('one zone, paid, 61 days', async () =>
        ranged({ ParkAreaId: await zone(), PaymentState: '2' }),
      );
      await add('one card', async () => ({ CardNumber: await sessionCard() }));
      await add('order number', async () => ({
        OrderNo: await first(
          `select "OrderNo" from "ChargeOrder" where "AreaId" = ${p(1)} order by "CreatedAt" desc limit 1`,
          [areaId],
        ),
      }));
      await add('temporary charging', () => ({ ChargeType: '3' }));
      await add('forced power-off', () => ({ Forced: 'true' }));
      await add('charging now', () => ({ Open: 'true' }));
      break;
    case 'ForcedOutageRecord':
      await add('one host', async () => ({ ChargeHostId: await host() }));
      await add('one socket', async () => ({ ChargeEquipmentId: await socket() }));
      await add('one zone', async () => ({ ParkAreaId: await zone() }));
      await add('one zone, 61 days', async () => ranged({ ParkAreaId: await zone() }));
      await add('power cut', () => ({ Result: '1' }));
      await add('operator', () => ({ UserName: 'admin' }));
      await add('keyword', () => ({ Keyword: '断电' }));
      break;
    case 'ParkOrder': {
      const parkZone = async () => ({
        ParkAreaId: await first(
          `select "Id" from "ParkArea" where "AreaId" = ${p(1)} order by "Id" limit 1`,
          [areaId],
        ),
      });
      await add('one zone', parkZone);
      await add('one zone, 61 days', async () => ranged(await parkZone()));
      await add('paid', () => ({ PaymentState: '2' }));
      await add('paid, 61 days', () => ranged({ PaymentState: '2' }));
      await add('one rule', async () => ({
        ChargeRuleId: await first(
          `select "ChargeRuleId" from "ParkOrder" where "AreaId" = ${p(1)} order by "EntryAt" desc limit 1`,
          [areaId],
        ),
      }));
      await add('inside now', () => ({ Inside: 'true' }));
      await add('keyword (plate)', async () => ({
        Keyword: (
          await first(
            `select "Plate" from "ParkOrder" where "AreaId" = ${p(1)} and "Plate" is not null order by "EntryAt" desc limit 1`,
            [areaId],
          )
        ).slice(-4),
      }));
      break;
    }
    case 'DoorAlarm': {
      const device = async () => ({
        DeviceId: await first(
          `select "DeviceId" from "DoorAlarm" where "AreaId" = ${p(1)} group by "DeviceId" order by count(*) desc, "DeviceId" limit 1`,
          [areaId],
        ),
      });
      await add('refused swipes', () => ({ Kind: '3' }));
      await add('open', () => ({ State: '0' }));
      await add('busiest device', device);
      await add('busiest device, 61 days', async () => ranged(await device()));
      break;
    }
    case 'VisitorLog': {
      const pass = `from "VisitorPass" where "AreaId" = ${p(1)} order by "Id" limit 1`;
      const device = async () => ({
        DeviceId: await first(
          `select r."DeviceId" from "DoorOpeningRecord" r join "VisitorPass" v on v."CardUserId" = r."CardUserId" where r."AreaId" = ${p(1)} order by r."At" desc limit 1`,
          [areaId],
        ),
      });
      await add('refused', () => ({ Result: 'false' }));
      await add('one device', device);
      await add('one device, 61 days', async () => ranged(await device()));
      await add('keyword (company)', async () => ({
        Keyword: await first(`select "Company" ${pass}`, [areaId]),
      }));
      await add('one pass', async () => ({ VisitorPassId: await first(`select "Id" ${pass}`, [areaId]) }));
      await add('one host', async () => ({
        HostCardUserId: await first(`select "HostCardUserId" ${pass}`, [areaId]),
      }));
      break;
    }
    case 'ChargeEquipment':
      await add('occupied', () => ({ StateGroup: 'occupied' }));
      break;
  }
  return out;
}

const LISTS = [
  'DoorOpeningRecord',
  'ChargeRecord',
  'ChargeOrder',
  'ForcedOutageRecord',
  'ParkOrder',
  'DoorAlarm',
  'VisitorLog',
  'ChargeEquipment',
];
/** Lists with a time range (the sockets list has none). */
const RANGED = new Set(LISTS.slice(0, 7));

interface Answer {
  ms: number;
  total: number;
  /** The list said "more than `total`" (the count rule, docs/performance.md). */
  capped: boolean;
  shown: number;
}

async function call(c: Pick<Case, 'list' | 'area' | 'query'>): Promise<Answer> {
  const target = `/api/${c.list}?${new URLSearchParams({ PageSize: '20', ...c.query })}`;
  const started = performance.now();
  const reply = await app.inject({
    method: 'GET',
    url: target,
    headers: { authorization: `Bearer ${token}`, 'x-area-id': String(c.area.id) },
  });
  const ms = performance.now() - started;
  const body = reply.json() as {
    code: number;
    msg: string;
    data?: { Total: number; TotalCapped?: boolean; Items: unknown[] };
  };
  if (reply.statusCode !== 200 || body.code !== 200)
    throw new Error(`${target}: ${reply.statusCode} ${body.msg}`);
  const data = body.data!;
  return { ms, total: data.Total, capped: Boolean(data.TotalCapped), shown: data.Items.length };
}

/**
 * The exact number of rows of a list that says only "more than 10,000": the last page that is not empty,
 * found by halving (the pages past the cap still come), and its rows.
 */
async function exactRows(c: Pick<Case, 'list' | 'area' | 'query'>): Promise<number> {
  let low = 1; // a page known to hold rows
  let high = 2; // a page known to be empty
  while ((await call({ ...c, query: { ...c.query, PageIndex: String(high) } })).shown > 0) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await call({ ...c, query: { ...c.query, PageIndex: String(mid) } })).shown > 0) low = mid;
    else high = mid;
  }
  const lastPage = await call({ ...c, query: { ...c.query, PageIndex: String(low) } });
  return (low - 1) * 20 + lastPage.shown;
}

const percentile = (sorted: number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;

interface Result {
  c: Case;
  total: number;
  /** The list said "more than `total`"; `rows` is then the exact number, found by paging (exactRows). */
  capped: boolean;
  rows: number;
  p50: number;
  p95: number;
  cachedP50: number | null;
}

async function measure(c: Case): Promise<Result> {
  let total = 0;
  let capped = false;
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    invalidateCounts();
    const r = await call(c);
    total = r.total;
    capped = r.capped;
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
  const rows = capped ? await exactRows(c) : total;
  return { c, total, capped, rows, p50: percentile(times, 0.5), p95: percentile(times, 0.95), cachedP50 };
}

/** The rows of a line as the list told them: "more than 10,000 (147,214)" past the cap. */
const rowsLabel = (r: Result) => (r.capped ? `more than ${fmt(r.total)} (${fmt(r.rows)})` : fmt(r.total));

// VOLUME_ONLY=ChargeOrder,ChargeRecord times only those lists (a fix checked without the whole table's 8 minutes).
const only = process.env.VOLUME_ONLY?.split(',').filter(Boolean);
const cases: Case[] = [];
for (const list of LISTS.filter((l) => !only || only.includes(l))) {
  for (const area of [largest, small]) {
    const add = (label: string, query: Record<string, string>) =>
      cases.push({ list, area, label, query, cached: list !== 'DoorOpeningRecord' });
    const pages = async (prefix: string, query: Record<string, string>, deep: boolean) => {
      const answer = await call({ list, area, query });
      const total = answer.capped ? await exactRows({ list, area, query }) : answer.total;
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
    `  ${c.list} ${c.area === largest ? 'largest' : 'small'} ${c.label}: ${rowsLabel(r)} rows, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`,
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
  const title = `${r.c.list}, ${r.c.area === largest ? 'largest' : 'small'} area, ${r.c.label}: ${rowsLabel(r)} rows, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms; its statements over the record tables ${sum.toFixed(1)} ms`;
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
    `| ${r.c.list} | ${areaLabel(r.c.area)} | ${r.c.label} | ${rowsLabel(r)} | ${r.p50.toFixed(1)} | ${r.p95 >= AIM_MS ? `**${r.p95.toFixed(1)}**` : r.p95.toFixed(1)} | ${r.cachedP50 === null ? '' : r.cachedP50.toFixed(1)} |`,
  );

await app.close();
await db.close();
fs.rmSync(exportDir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    lists: results.map((r) => ({
      name: `${r.c.list}, ${r.c.area === largest ? 'largest' : 'small'} area, ${r.c.label}`,
      rows: r.rows,
      ...(r.capped ? { totalShown: `more than ${r.total}` } : {}),
      p50: Math.round(r.p50 * 100) / 100,
      p95: Math.round(r.p95 * 100) / 100,
    })),
  }),
);
