/**
 * Swipe-record list on 1,000,000 rows (SQLite). Builds a temporary database with the demo areas, devices
 * and holders, replaces the demo's swipe records with 1,000,000 over the last 90 days (two areas, 55/45),
 * then times GET /api/DoorOpeningRecord in-process (app.inject: authentication, area guard, validation,
 * service, JSON) and the list service alone, for the first page and deep pages, with and without filters.
 * Usage: node --import tsx bench/swipe-records.ts   [BENCH_ROWS=1000000] [BENCH_RUNS=25]
 *        [BENCH_DB=/path/file.db: keep the built database there and reuse it on the next run]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { DEMO_PASSWORD } from '../packages/server/src/demo/catalog.ts';
import { prng } from '../packages/server/src/demo/random.ts';
import {
  seedSwipes,
  type SwipeDevice,
  type SwipeHolder,
} from '../packages/server/src/demo/access-control/swipes.ts';
import { DoorOpeningRecordApi } from '@gatehouse/shared';
import { listSwipes } from '../packages/server/src/modules/access-control/door-opening-record/list.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const BATCH = 100_000;
const DAY = 86_400_000;

const kept = process.env.BENCH_DB;
const reuse = kept !== undefined && fs.existsSync(kept);
const dir = kept
  ? path.dirname(path.resolve(kept))
  : fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-swipes-'));
const file = kept ? path.resolve(kept) : path.join(dir, 'bench.db');
const db = openDatabase(file);
const k = db.kysely;
const now = reuse
  ? Number(
      (await sql<{ at: number }>`select max("At") as at from "DoorOpeningRecord"`.execute(k)).rows[0]!.at,
    )
  : Date.now();

let t = performance.now();
let seeded = 0;
let built = 0;
if (!reuse) {
  await migrateToLatest(db);
  await seedIfEmpty(db, { mode: 'demo', adminPassword: 'Bench#Admin2026', now });
  seeded = performance.now() - t;

  /** Devices with channels, and holders with cards and live authorisations, as the generator wants them. */
  async function population(areaId: number): Promise<{ devices: SwipeDevice[]; holders: SwipeHolder[] }> {
    const deviceRows = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'Name'])
      .where('AreaId', '=', areaId)
      .execute();
    const channels = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DeviceId', 'Name', 'DoorNumber', 'Direction'])
      .where('AreaId', '=', areaId)
      .execute();
    const devices = deviceRows.map((d) => ({ ...d, channels: channels.filter((c) => c.DeviceId === d.Id) }));
    const byChannel = new Map(
      devices.flatMap((d) => d.channels.map((c) => [c.Id, { device: d, channel: c }] as const)),
    );
    const people = await k
      .selectFrom('CardUser')
      .select(['Id', 'Name', 'CreatedAt', 'ValidFrom', 'ValidTo', 'Disabled', 'UpdatedAt'])
      .where('AreaId', '=', areaId)
      .execute();
    const cards = await k
      .selectFrom('Card')
      .select(['CardUserId', 'CardNumber'])
      .where('AreaId', '=', areaId)
      .where('CardUserId', 'is not', null)
      .execute();
    const auths = await k
      .selectFrom('CardUserLinkChannel')
      .select(['CardUserId', 'ChannelId'])
      .where('AreaId', '=', areaId)
      .where('Revoked', '=', 0)
      .where('IssueStatus', '>=', 0)
      .execute();
    const holders = people
      .map((p) => ({
        id: p.Id,
        name: p.Name,
        cards: cards.filter((c) => c.CardUserId === p.Id).map((c) => c.CardNumber),
        channels: auths.filter((a) => a.CardUserId === p.Id).map((a) => byChannel.get(a.ChannelId)!),
        // Old enough that every holder swipes over the whole window.
        createdAt: Math.min(Number(p.CreatedAt), now - 91 * DAY),
        validFrom: Number(p.ValidFrom),
        validTo: Number(p.ValidTo),
        disabledAt: p.Disabled ? Number(p.UpdatedAt) : null,
      }))
      .filter((h) => h.cards.length && h.channels.length);
    return { devices, holders };
  }

  t = performance.now();
  await k.deleteFrom('DoorOpeningRecordDay').execute();
  await k.deleteFrom('DoorOpeningRecord').execute();
  const random = prng(7);
  const ctx = { areaIds: [1, 2], now, passwordHash: '', scale: 1, sqlite: db.sqlite };
  for (const [areaId, share] of [
    [1, 0.55],
    [2, 0.45],
  ] as const) {
    const { devices, holders } = await population(areaId);
    for (let left = Math.round(ROWS * share); left > 0; left -= BATCH)
      await seedSwipes(db, ctx, random, {
        areaId,
        count: Math.min(BATCH, left),
        holders,
        devices,
        dayCounts: false,
      });
  }
  await sql`insert into "DoorOpeningRecordDay" ("AreaId", "Day", "DeviceId", "Result", "Count")
  select "AreaId", "At" / ${sql.lit(DAY)}, "DeviceId", "Result", count(*) from "DoorOpeningRecord" group by 1, 2, 3, 4`.execute(
    k,
  );
  built = performance.now() - t;
}
const total = Number(
  (await sql<{ n: number }>`select count(*) as n from "DoorOpeningRecord"`.execute(k)).rows[0]!.n,
);
const area1 = Number(
  (await sql<{ n: number }>`select count(*) as n from "DoorOpeningRecord" where "AreaId" = 1`.execute(k))
    .rows[0]!.n,
);

const config = { ...loadConfig({ LOG_LEVEL: 'warn', PORT: '0' }), webDist: '/nonexistent' };
const { app } = await buildApp({ config, db });
const login = await app.inject({
  method: 'POST',
  url: '/api/Auth/login',
  payload: { username: 'acadmin', password: DEMO_PASSWORD },
});
const token = (login.json() as { data: { token: string } }).data.token;

// Filter values seen in real use: the busiest device, a frequent surname, one holder, one card.
const busiest = await k
  .selectFrom('DoorOpeningRecordDay')
  .select(['DeviceId', sql<number>`sum("Count")`.as('n')])
  .where('AreaId', '=', 1)
  .groupBy('DeviceId')
  .orderBy(sql`sum("Count")`, 'desc')
  .executeTakeFirstOrThrow();
const holder = await k
  .selectFrom('DoorOpeningRecord')
  .select(['CardUserId', 'CardNumber'])
  .where('AreaId', '=', 1)
  .where('CardUserId', 'is not', null)
  .executeTakeFirstOrThrow();
const range = { StartTime: String(now - 61 * DAY), EndTime: String(now) };

const cases: [string, Record<string, string>][] = [
  ['no filter', {}],
  ['61-day range', range],
  ['61-day range, failed only', { ...range, Result: 'false' }],
  ['device', { DeviceId: String(busiest.DeviceId) }],
  ['61-day range, device, opened', { ...range, DeviceId: String(busiest.DeviceId), Result: 'true' }],
  ['holder name "王" (a common surname)', { HolderName: '王' }],
  ['holder name "英" (in many given names)', { HolderName: '英' }],
  ['one holder', { CardUserId: String(holder.CardUserId) }],
  ['one card', { CardNumber: holder.CardNumber }],
];

async function measure(url: string): Promise<{ median: number; p95: number; total: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    const reply = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    const elapsed = performance.now() - start;
    const body = reply.json() as { code: number; msg: string; data: { Total: number; Items: unknown[] } };
    if (body.code !== 200) throw new Error(`${url}: ${body.msg}`);
    count = body.data.Total;
    if (i >= 3) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.floor(times.length * 0.95)]!,
    total: count,
  };
}

async function measureService(query: Record<string, string>): Promise<number> {
  const q = DoorOpeningRecordApi.list.query.parse(query);
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    await listSwipes(k, 1, q, (q.PageIndex - 1) * q.PageSize, q.PageSize);
    if (i >= 3) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const ms = (n: number) => n.toFixed(2).padStart(7);
console.log(
  `\nSwipe-record list, SQLite, ${total.toLocaleString('en')} rows (area 1: ${area1.toLocaleString('en')}), ${RUNS} runs each`,
);
console.log(
  reuse
    ? `database reused from ${file}; file ${(fs.statSync(file).size / 1e6).toFixed(0)} MB\n`
    : `database built in ${((seeded + built) / 1000).toFixed(1)} s (demo seed ${(seeded / 1000).toFixed(1)} s, records ${(built / 1000).toFixed(1)} s); file ${(fs.statSync(file).size / 1e6).toFixed(0)} MB\n`,
);
console.log('| filters | page | matching rows | endpoint median ms | endpoint p95 ms | service median ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [label, filters] of cases) {
  const first = await measure(
    `/api/DoorOpeningRecord?${new URLSearchParams({ ...filters, PageSize: '20' })}`,
  );
  const lastPage = Math.max(1, Math.ceil(first.total / 20));
  const pages: [string, number][] = [
    ['1', 1],
    ['middle', Math.max(1, Math.floor(lastPage / 2))],
    ['last', lastPage],
  ];
  for (const [name, pageIndex] of pages) {
    const query = { ...filters, PageSize: '20', PageIndex: String(pageIndex) };
    const r = pageIndex === 1 ? first : await measure(`/api/DoorOpeningRecord?${new URLSearchParams(query)}`);
    const service = await measureService(query);
    console.log(
      `| ${label} | ${name === '1' ? '1' : `${name} (${pageIndex.toLocaleString('en')})`} | ${r.total.toLocaleString('en')} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(service)} |`,
    );
  }
}

await app.close();
await db.close();
if (!kept) fs.rmSync(dir, { recursive: true, force: true });
