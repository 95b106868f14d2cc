/**
 * WG door controllers at scale (issue "Door controllers for real", must-show 4). The real server (main.ts, a
 * process of its own, SQLite) drives BENCH_CONTROLLERS simulated WG controllers (packages/wg-simulator, in
 * this process, loopback UDP) that are registered and addressed through the API as an installer would.
 * The controllers record swipes at BENCH_RATE records a second, all together, for BENCH_SECONDS; every record
 * is pushed to the gateway's listener and the gateway polls every controller (WG_POLL) at the same time.
 * Printed:
 *   1. records ingested per second (aim >= 10,000 on SQLite, issue 19; 5,000 before), and how long the backlog took to drain;
 *   2. exactly once: every record the controllers made is stored once (per controller: count, distinct ring
 *      indexes and the highest index equal the controller's), nothing counted as lost;
 *   3. p99 of an authenticated list call (GET /api/DoorOpeningRecord, admin session, X-Area-Id) during the
 *      load, against the same call idle (a paced probe in a process of its own);
 *   4. the server's CPU and memory over the run;
 *   5. the sync time of BENCH_CARDS cards onto one controller: authorisations granted (one BatchGrant of a
 *      department of that many holders onto door 1), then the time until the controller's card store equals
 *      the plan card for card and every authorisation is in issue status 3.
 * Usage: npm run bench:wg   [BENCH_CONTROLLERS=100] [BENCH_RATE=5000] [BENCH_SECONDS=30] [BENCH_CARDS=10000]
 *        [BENCH_WG_POLL=10s]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cardToDisplay, displayToCard } from '@gatehouse/shared';
import { WgSimulator } from '@gatehouse/wg-simulator';
import { parseDuration } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { cardRecordOf, sameCard } from '../packages/server/src/gateways/wg/index.ts';
import { syncPlan } from '../packages/server/src/modules/access-control/index.ts';
import { systemClock } from '../packages/server/src/platform/clock.ts';
import { systemActor } from '../packages/server/src/platform/context.ts';
import {
  api,
  cpuShare,
  formatProbe,
  loadAverage,
  login,
  machine,
  mb,
  ok,
  percentile,
  probeLatency,
  sleep,
  watchServer,
} from './support/measure.ts';
import { freeUdpPort, startBenchServer } from './support/server.ts';

const CONTROLLERS = Number(process.env.BENCH_CONTROLLERS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CARDS = Number(process.env.BENCH_CARDS ?? 10_000);
const POLL = process.env.BENCH_WG_POLL ?? '10s';
const pollSeconds = parseDuration(POLL) ?? 10;
const AREA = 1;
const ZONE = 'Asia/Shanghai';
const ADMIN_PASSWORD = 'Bench#Admin2026';
const DAY = 86_400_000;

console.log(
  `WG ingest benchmark: ${CONTROLLERS} controllers, ${RATE} records/s for ${SECONDS} s, WG_POLL ${POLL}, ` +
    `${CARDS} cards to sync; SQLite (WAL), ${machine()}; load average at start ${loadAverage()}`,
);

// ---- database: the demo (small bulk volume), and the holders whose cards the sync will carry ---------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-wg-'));
const file = path.join(dir, 'bench.db');
const setupDb = openDatabase(file);
await migrateToLatest(setupDb);
const now = Date.now();
await seedIfEmpty(setupDb, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now, scale: 0.01 });
const k = setupDb.kysely;
// Only the benchmark's controllers have an address: the demo's would be polled in vain, and the fixed ports
// they name may belong to a demo or an e2e run on this machine.
await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
const department = await k
  .insertInto('Department')
  .values({ AreaId: AREA, ParentId: null, Name: '同步压测部门', CreatedAt: now, UpdatedAt: now })
  .returning('Id')
  .executeTakeFirstOrThrow();
const sqlite = setupDb.sqlite!;
const insertHolder = sqlite.prepare(
  'insert into CardUser (AreaId, Name, Nation, DepartmentId, ValidFrom, ValidTo, Disabled, CreatedAt, UpdatedAt) values (?, ?, 0, ?, ?, ?, 0, ?, ?)',
);
const insertCard = sqlite.prepare(
  'insert into Card (AreaId, CardNumber, CardType, CardUserId, CreatedAt, UpdatedAt) values (?, ?, 0, ?, ?, ?)',
);
sqlite.transaction(() => {
  for (let i = 0; i < CARDS; i++) {
    const { lastInsertRowid } = insertHolder.run(
      AREA,
      `同步测试${i}`,
      department.Id,
      now - DAY,
      now + 365 * DAY,
      now,
      now,
    );
    // Card numbers far above the demo's.
    insertCard.run(AREA, cardToDisplay(3_900_000_000 + i), lastInsertRowid, now, now);
  }
})();
// Cards of the area's holders (what a swipe at a controller mostly carries), plus strangers.
const knownCards = (
  await k
    .selectFrom('Card')
    .select('CardNumber')
    .where('AreaId', '=', AREA)
    .where('CardUserId', 'is not', null)
    .orderBy('Id')
    .limit(500)
    .execute()
).map((c) => displayToCard(c.CardNumber));
await setupDb.close();

// ---- the server, with the WG gateway listening on a port of its own ------------------------------------------
const listenPort = await freeUdpPort();
const server = await startBenchServer({
  databasePath: file,
  env: {
    SEED: 'demo',
    ADMIN_PASSWORD,
    WG: 'on',
    WG_LISTEN: `127.0.0.1:${listenPort}`,
    WG_POLL: POLL,
  },
});
const watch = watchServer(server, 5000);
const db = openDatabase(file); // the benchmark's own reading connection (WAL: it does not block the server)
const token = await login(server.url, 'admin', ADMIN_PASSWORD);

// ---- the controllers: simulated, registered and addressed through the API ------------------------------------
const serials = Array.from({ length: CONTROLLERS }, (_, i) => 423_100_000 + i + 1);
const perController = Math.ceil((RATE * SECONDS) / CONTROLLERS);
const sim = await WgSimulator.start({
  controllers: serials.map((serial) => ({ serial, recordCapacity: Math.max(10_000, perController * 3) })),
  timeZone: ZONE,
});
const registered = ok(
  await api<{ Id: number; SerialNumber: string }[]>(server.url, 'POST', '/api/DeviceRegistration', {
    token,
    body: { SerialNumbers: serials.join(','), Protocol: 0, AreaId: AREA },
  }),
  'register controllers',
);
const deviceIds = registered.map((d) => d.Id);
for (const d of registered) {
  const { host, port } = sim.address(Number(d.SerialNumber));
  ok(
    await api(server.url, 'PUT', '/api/AccessControlDevice', {
      token,
      area: AREA,
      body: { Id: d.Id, Name: `压测控制器${d.SerialNumber}`, Ip: host, Port: port },
    }),
    `address controller ${d.SerialNumber}`,
  );
}
// The gateway takes new controllers at its next poll and points their listener at itself.
const configuredBy = Date.now() + 60_000 + 3000 * pollSeconds;
while ([...sim.controllers.values()].some((c) => c.listener.port !== listenPort)) {
  if (Date.now() > configuredBy) throw new Error('the gateway did not configure every controller in time');
  await sleep(200);
}
console.log(
  `\n${CONTROLLERS} controllers registered, addressed and configured (listener set) by the gateway.`,
);

const listUrl = `${server.url}/api/DoorOpeningRecord?PageIndex=1&PageSize=20`;
const auth = { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) };
const idleBefore = await probeLatency(listUrl, auth, { rate: 10, seconds: 15 });
console.log(`idle list call: ${formatProbe(idleBefore)}  (load ${loadAverage()})`);

// ---- the load: swipes on every controller, pushed and polled at once -----------------------------------------
const storedStatement = db.sqlite!.prepare(
  `select count(*) as n from DoorOpeningRecord where DeviceId in (${deviceIds.join(',')})`,
);
const storedCount = () => (storedStatement.get() as { n: number }).n;
const controllers = [...sim.controllers.values()];
const generated = () => controllers.reduce((sum, c) => sum + c.lastIndex, 0);
let next = 0;
const act = (random: number) => {
  const c = controllers[next++ % controllers.length]!;
  const door = 1 + (next % c.doors);
  if (random < 0.75) c.swipe(knownCards[next % knownCards.length]!, door, 1);
  else if (random < 0.95) c.swipe(10_000_000 + (next % 5000), door, 1);
  else if (random < 0.98) c.pressButton(door);
  else c.setDoorSensor(door, !c.doorOpen[door - 1]);
};
const receivedBefore = sim.stats.received;
const started = performance.now();
let made = 0;
const ticker = setInterval(() => {
  const due = Math.min(RATE * SECONDS, Math.floor((RATE * (performance.now() - started)) / 1000));
  for (; made < due; made++) act(Math.random());
}, 5);
const probe = probeLatency(listUrl, auth, { rate: 10, seconds: Math.max(5, SECONDS - 2) });
const perSecond: number[] = [];
let last = 0;
for (let s = 1; s <= SECONDS; s++) {
  await sleep(started + s * 1000 - performance.now());
  const n = storedCount();
  perSecond.push(n - last);
  last = n;
}
clearInterval(ticker);
for (; made < RATE * SECONDS; made++) act(Math.random());
const during = await probe;
const total = generated();
const storedInWindow = storedCount();
const windowSeconds = (performance.now() - started) / 1000;
// Pushes lost on the way (a full socket buffer) wait for the next poll.
const drainBy = Date.now() + 120_000 + 3000 * pollSeconds;
let stored = storedInWindow;
while (stored < total && Date.now() < drainBy) {
  await sleep(100);
  stored = storedCount();
}
const drainedSeconds = (performance.now() - started) / 1000;
const pollRequests = sim.stats.received - receivedBefore;

// ---- exactly once -----------------------------------------------------------------------------------------------
const perDevice = db
  .sqlite!.prepare(
    `select DeviceId as id, count(*) as n, count(distinct RecordIndex) as d, min(RecordIndex) as lo, max(RecordIndex) as hi
     from DoorOpeningRecord where DeviceId in (${deviceIds.join(',')}) group by DeviceId`,
  )
  .all() as { id: number; n: number; d: number; lo: number; hi: number }[];
const lost = (
  db
    .sqlite!.prepare(
      `select coalesce(sum(LostRecords), 0) as n from AccessControlRecordCursor where DeviceId in (${deviceIds.join(',')})`,
    )
    .get() as { n: number }
).n;
const serialOf = new Map(registered.map((d) => [d.Id, Number(d.SerialNumber)]));
const mismatched = deviceIds.filter((id) => {
  const row = perDevice.find((r) => r.id === id);
  const want = sim.controller(serialOf.get(id)!).lastIndex;
  return !row || row.n !== want || row.d !== want || row.lo !== 1 || row.hi !== want;
});
const exactlyOnce = stored === total && mismatched.length === 0 && lost === 0;
// What differs, for the first few controllers that do: stored count, distinct indexes, lowest and highest index,
// the controller's own last index and the collection cursor.
for (const id of mismatched.slice(0, 5)) {
  const row = perDevice.find((r) => r.id === id);
  const cursor = db
    .sqlite!.prepare('select NextIndex from AccessControlRecordCursor where DeviceId = ?')
    .get(id) as { NextIndex: number } | undefined;
  console.log(
    `  controller ${serialOf.get(id)}: stored ${row?.n ?? 0} (distinct ${row?.d ?? 0}, ${row?.lo ?? '-'}..${row?.hi ?? '-'}), made ${sim.controller(serialOf.get(id)!).lastIndex}, cursor ${cursor?.NextIndex ?? '-'}`,
  );
}

const idleAfter = await probeLatency(listUrl, auth, { rate: 10, seconds: 15 });

// ---- 10,000 cards onto one controller ----------------------------------------------------------------------------
const syncDevice = registered[0]!;
const syncController = sim.controller(Number(syncDevice.SerialNumber));
const channel = await db.kysely
  .selectFrom('AccessControlChannel')
  .select('Id')
  .where('DeviceId', '=', syncDevice.Id)
  .where('DoorNumber', '=', 1)
  .executeTakeFirstOrThrow();
const issuedStatement = db.sqlite!.prepare(
  'select count(*) as n from CardUserLinkChannel where DeviceId = ? and IssueStatus = 3',
);
const grantStarted = performance.now();
const grant = ok(
  await api<{ Granted: number }>(server.url, 'POST', '/api/CardUserLinkChannel/BatchGrant', {
    token,
    area: AREA,
    body: { DepartmentId: department.Id, ChannelIds: [channel.Id] },
  }),
  'batch grant',
);
const grantMs = performance.now() - grantStarted;
const syncBy = Date.now() + 15 * 60_000;
let issued = 0;
while (Date.now() < syncBy) {
  issued = (issuedStatement.get(syncDevice.Id) as { n: number }).n;
  if (issued >= grant.Granted && syncController.cardCount >= grant.Granted) break;
  await sleep(100);
}
const syncSeconds = (performance.now() - grantStarted) / 1000;
// Card for card: what the controller holds equals what the authorisations ask (the sync test's check).
const plan = await syncPlan(
  { db, clock: systemClock, lang: 'en', actor: systemActor('bench'), areaId: AREA },
  syncDevice.Id,
);
const held = syncController.cards();
const storeEqualsPlan =
  held.length === plan.cards.size &&
  held.every((c) => {
    const want = plan.cards.get(c.card);
    return (
      !!want &&
      sameCard({ card: c.card, from: c.from, to: c.to, doors: c.doors, pin: c.pin }, cardRecordOf(want, ZONE))
    );
  });

const samples = await watch.stop();

// ---- report ---------------------------------------------------------------------------------------------------------
const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en');
console.log(
  `\nIngest (${CONTROLLERS} controllers, offered ${RATE.toLocaleString('en')} records/s for ${SECONDS} s)`,
);
console.log('| figure | value |');
console.log('|---|---|');
console.log(`| records made by the controllers | ${total.toLocaleString('en')} |`);
console.log(
  `| stored by the end of the window | ${storedInWindow.toLocaleString('en')} (${rate(storedInWindow, windowSeconds)}/s) |`,
);
console.log(
  `| stored per second during the window: median / min / max | ${percentile(perSecond, 50)} / ${Math.min(...perSecond)} / ${Math.max(...perSecond)} |`,
);
console.log(
  `| all stored after | ${drainedSeconds.toFixed(1)} s: **${rate(stored, drainedSeconds)} records/s** end to end (aim >= 10,000) |`,
);
console.log(
  `| pushes sent / requests the controllers answered (polls, reads) | ${sim.stats.pushed} / ${pollRequests} |`,
);
console.log(
  `| exactly once | ${exactlyOnce ? 'yes' : 'NO'}: ${stored.toLocaleString('en')} stored of ${total.toLocaleString('en')}, ${mismatched.length} controllers differ, ${lost} counted lost |`,
);
console.log(`| list call idle before | ${formatProbe(idleBefore)} |`);
console.log(`| list call during the load | ${formatProbe(during)} |`);
console.log(`| list call idle after | ${formatProbe(idleAfter)} |`);
console.log(
  `| ${CARDS.toLocaleString('en')} cards: BatchGrant call | ${(grantMs / 1000).toFixed(1)} s (${grant.Granted} granted) |`,
);
console.log(
  `| ${CARDS.toLocaleString('en')} cards: grant to all in status 3 and on the controller | ${syncSeconds.toFixed(1)} s; ${issued} in status 3, controller holds ${held.length}, store equals plan: ${storeEqualsPlan ? 'yes' : 'NO'} |`,
);
console.log(`| load average at the end | ${loadAverage()} |`);

console.log('\nServer process (sampled every 5 s)');
console.log('| t (s) | RSS MB | heap used MB | CPU (% of one core) since last row |');
console.log('|---|---|---|---|');
for (let i = 0; i < samples.length; i += Math.max(1, Math.floor(samples.length / 20))) {
  const s = samples[i]!;
  const prev = samples[Math.max(0, i - 1)]!;
  console.log(
    `| ${((s.at - samples[0]!.at) / 1000).toFixed(0)} | ${mb(s.memory.rss)} | ${mb(s.memory.heapUsed)} | ${i ? cpuShare(prev, s).toFixed(0) : '-'} |`,
  );
}
const warnings = server
  .output()
  .split('\n')
  .filter((l) => /"level":(40|50|60)/.test(l));
if (warnings.length)
  console.log(`\nserver warnings/errors: ${warnings.length}; first: ${warnings[0]!.slice(0, 400)}`);
if (process.env.BENCH_DUMP) fs.writeFileSync(process.env.BENCH_DUMP, server.output());

await sim.close();
await server.stop();
await db.close();
if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
if (!exactlyOnce || !storeEqualsPlan) process.exitCode = 1;
