/**
 * WG door controllers at scale (issues "Door controllers for real", must-show 4, and 32). The real server (main.ts,
 * a process of its own) on DATABASE_URL (a fresh SQLite file, or a fresh schema in the PostgreSQL database named,
 * dropped afterwards) drives BENCH_CONTROLLERS simulated WG controllers (packages/wg-simulator, in this process,
 * loopback UDP) that are registered and addressed through the API as an installer would. The controllers record
 * swipes at BENCH_RATE records a second, all together, for BENCH_SECONDS (the burst); every record is pushed to the
 * gateway's listener and the gateway polls every controller (WG_POLL) at the same time. Measured:
 *   1. records ingested per second (aim: 10,000 offered by 200 controllers for 30 s stored within 35 s), and how
 *      long the backlog took to drain;
 *   2. exactly once: every record the controllers made is stored once (per controller: count, distinct ring
 *      indexes and the highest index equal the controller's), nothing counted as lost;
 *   3. an operator's swipe list (GET /api/DoorOpeningRecord, admin session, X-Area-Id) during the burst against
 *      the same call idle (a paced probe in a process of its own);
 *   4. the live hub during the burst: a browser's socket (GET /api/hub, signed in as the operator) receives each
 *      record's event; its latency is from the moment the controller made the record to the event's arrival;
 *   5. the server's CPU and memory over the run;
 *   6. the sync time of BENCH_CARDS cards onto one controller: authorisations granted (one BatchGrant of a
 *      department of that many holders onto door 1), then the time until the controller's card store equals
 *      the plan card for card and every authorisation is in issue status 3.
 * BENCH_INSTANCES=2 (PostgreSQL only): that many servers on the database, each with its own port and WG
 * listener, sharing the controllers out by lease; the operator's calls and socket go to the first.
 * BENCH_KILL_AFTER=S (with several instances): S seconds into the burst the instance driving the most
 * controllers is killed (SIGKILL) and the burst goes on; a survivor takes its controllers over (their leases run
 * out, it polls what the killed one left in their rings and re-points their listeners at itself), and the
 * operator's calls and socket move to a survivor. The exactly-once check covers every controller.
 * Usage: npm run bench:wg   [DATABASE_URL=/path/new.db | postgres://…/database] [BENCH_CONTROLLERS=100]
 *        [BENCH_RATE=5000] [BENCH_SECONDS=30] [BENCH_CARDS=10000] [BENCH_WG_POLL=10s] [BENCH_KEEP=1]
 *        [BENCH_INSTANCES=1] [BENCH_KILL_AFTER=S]
 * The last line is JSON: {"database","controllers","offered" (records the controllers made), "seconds" (from the
 * burst's start until all were stored), "stored" (rows stored), "perSecond" (stored / seconds), "duplicates"
 * (rows beyond one per record), "lost" (records made and not stored), "listP50Ms", "listP99Ms" (the operator's
 * list calls during the burst), "hubP99Ms" (the browser socket's latency during the burst), "instances",
 * "killedAt" (seconds into the burst; null: no kill), "takeoverSeconds" (from the kill until the survivors drive
 * every controller the killed instance drove: leases held and listeners pointed; null: no kill, or not within
 * 3 minutes)}. It exits non-zero unless every record was stored exactly once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HUB_PATH, cardToDisplay, displayToCard } from '@gatehouse/shared';
import { WgSimulator } from '@gatehouse/wg-simulator';
import WebSocket from 'ws';
import { parseDuration } from '../packages/server/src/config.ts';
import { isPostgresUrl } from '../packages/server/src/db/database.ts';
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
import { benchDatabase } from './support/database.ts';
import {
  checkExactlyOnce,
  killBusiest,
  startWgInstances,
  waitDriven,
  type Takeover,
} from './support/wg-instances.ts';

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
/** The idle probes' length: 15 s, shorter for a smoke run of a few seconds. */
const IDLE_PROBE_SECONDS = Math.min(15, Math.max(3, Math.round(SECONDS / 2)));

const GIVEN_URL = process.env.DATABASE_URL;
const POSTGRES = GIVEN_URL !== undefined && isPostgresUrl(GIVEN_URL);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const KILL_AFTER = process.env.BENCH_KILL_AFTER === undefined ? null : Number(process.env.BENCH_KILL_AFTER);
// Several instances share controllers through PostgreSQL's leases; SQLite is one process by definition.
if (!Number.isInteger(INSTANCES) || INSTANCES < 1) throw new Error('BENCH_INSTANCES: a whole number >= 1');
if (INSTANCES > 1 && !POSTGRES)
  throw new Error('BENCH_INSTANCES > 1 needs PostgreSQL: give DATABASE_URL=postgres://…/database');
if (KILL_AFTER !== null && (INSTANCES < 2 || !(KILL_AFTER >= 0 && KILL_AFTER < SECONDS)))
  throw new Error('BENCH_KILL_AFTER=S needs BENCH_INSTANCES >= 2 and 0 <= S < BENCH_SECONDS');

console.log(
  `WG ingest benchmark: ${CONTROLLERS} controllers, ${RATE} records/s for ${SECONDS} s, WG_POLL ${POLL}, ` +
    `${CARDS} cards to sync; ${POSTGRES ? 'PostgreSQL' : 'SQLite (WAL)'}, ${machine()}; load average at start ${loadAverage()}` +
    (INSTANCES > 1 ? `; ${INSTANCES} instances` : '') +
    (KILL_AFTER !== null ? `, the busiest killed ${KILL_AFTER} s into the burst` : ''),
);

// ---- database: the demo (small bulk volume), and the holders whose cards the sync will carry ---------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-wg-'));
// Where the server and this process read and write: the run's SQLite file or PostgreSQL schema
// (bench/support/database.ts).
const target = await benchDatabase({ given: GIVEN_URL, dir, bench: 'bench:wg', schemaPrefix: 'bench_wg' });
const setupDb = target.open();
await migrateToLatest(setupDb);
const now = Date.now();
await seedIfEmpty(setupDb, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now, scale: 0.01 });
const k = setupDb.kysely;
// Only the benchmark's controllers have an address: the demo's would be polled in vain, and the fixed ports
// they name may belong to a demo or an e2e run on this machine.
await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
// With several instances the demo's are disabled too: the balance shares out every enabled controller, so one
// instance's share could be the demo's 23 without an address and the other's every controller of the bench.
if (INSTANCES > 1) await k.updateTable('AccessControlDevice').set({ Disabled: 1 }).execute();
const department = await k
  .insertInto('Department')
  .values({ AreaId: AREA, ParentId: null, Name: '同步压测部门', CreatedAt: now, UpdatedAt: now })
  .returning('Id')
  .executeTakeFirstOrThrow();
// The holders and their cards, in batches (both databases).
for (let i = 0; i < CARDS; i += 500) {
  const n = Math.min(500, CARDS - i);
  const holders = await k
    .insertInto('CardUser')
    .values(
      Array.from({ length: n }, (_, j) => ({
        AreaId: AREA,
        Name: `同步测试${i + j}`,
        Nation: 0,
        DepartmentId: department.Id,
        ValidFrom: now - DAY,
        ValidTo: now + 365 * DAY,
        Disabled: 0,
        CreatedAt: now,
        UpdatedAt: now,
      })),
    )
    .returning('Id')
    .execute();
  await k
    .insertInto('Card')
    .values(
      holders.map((h, j) => ({
        AreaId: AREA,
        // Card numbers far above the demo's.
        CardNumber: cardToDisplay(3_900_000_000 + i + j),
        CardType: 0,
        CardUserId: h.Id,
        CreatedAt: now,
        UpdatedAt: now,
      })),
    )
    .execute();
}
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

// ---- the servers, each with the WG gateway listening on a port of its own -------------------------------------
const instances = await startWgInstances(INSTANCES, target.url, {
  SEED: 'demo',
  ADMIN_PASSWORD,
  WG: 'on',
  WG_POLL: POLL,
  EXPORT_DIR: path.join(dir, 'exports'),
});
const watches = instances.map((i) => watchServer(i.server, 5000));
let takeover: Takeover | undefined;
/** Where the operator's calls go: the first instance, or a survivor once it was killed. */
const front = () => instances.find((i) => i !== takeover?.victim)!.server;
// The benchmark's own reading connection (SQLite WAL: it does not block the server).
const db = target.open();
const token = await login(front().url, 'admin', ADMIN_PASSWORD);

// ---- the controllers: simulated, registered and addressed through the API ------------------------------------
const serials = Array.from({ length: CONTROLLERS }, (_, i) => 423_100_000 + i + 1);
const perController = Math.ceil((RATE * SECONDS) / CONTROLLERS);
const sim = await WgSimulator.start({
  controllers: serials.map((serial) => ({ serial, recordCapacity: Math.max(10_000, perController * 3) })),
  timeZone: ZONE,
});
const registered = ok(
  await api<{ Id: number; SerialNumber: string }[]>(front().url, 'POST', '/api/DeviceRegistration', {
    token,
    body: { SerialNumbers: serials.join(','), Protocol: 0, AreaId: AREA },
  }),
  'register controllers',
);
const deviceIds = registered.map((d) => d.Id);
for (const d of registered) {
  const { host, port } = sim.address(Number(d.SerialNumber));
  ok(
    await api(front().url, 'PUT', '/api/AccessControlDevice', {
      token,
      area: AREA,
      body: { Id: d.Id, Name: `压测控制器${d.SerialNumber}`, Ip: host, Port: port },
    }),
    `address controller ${d.SerialNumber}`,
  );
}
const benchControllers = registered.map((d) => ({ id: d.Id, serial: Number(d.SerialNumber) }));
// The gateway takes new controllers at its next poll and points their listener at itself (with several
// instances: the one holding the controller's lease, once the first rounds have shared them out).
const shares = await waitDriven(db, sim, benchControllers, instances, 60_000 + 3000 * pollSeconds);
console.log(
  `\n${CONTROLLERS} controllers registered, addressed and configured (listener set) by the gateway` +
    (INSTANCES > 1 ? `s: ${[...shares].map(([id, n]) => `${id} drives ${n}`).join(', ')}.` : '.'),
);

const listUrl = () => `${front().url}/api/DoorOpeningRecord?PageIndex=1&PageSize=20`;
const auth = { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) };
const idleBefore = await probeLatency(listUrl(), auth, { rate: 10, seconds: IDLE_PROBE_SECONDS });
console.log(`idle list call: ${formatProbe(idleBefore)}  (load ${loadAverage()})`);

// ---- the load: swipes on every controller, pushed and polled at once -----------------------------------------
const storedCount = async () =>
  Number(
    (
      await db.kysely
        .selectFrom('DoorOpeningRecord')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('DeviceId', 'in', deviceIds)
        .executeTakeFirstOrThrow()
    ).n,
  );
const controllers = [...sim.controllers.values()];
const generated = () => controllers.reduce((sum, c) => sum + c.lastIndex, 0);
/** When each record was made (Date.now()), by controller serial and ring index: the hub's latency starts there. */
const madeAt = new Map<number, number[]>(controllers.map((c) => [c.serial, []]));
let next = 0;
const act = (random: number) => {
  const c = controllers[next++ % controllers.length]!;
  const door = 1 + (next % c.doors);
  const before = c.lastIndex;
  if (random < 0.75) c.swipe(knownCards[next % knownCards.length]!, door, 1);
  else if (random < 0.95) c.swipe(10_000_000 + (next % 5000), door, 1);
  else if (random < 0.98) c.pressButton(door);
  else c.setDoorSensor(door, !c.doorOpen[door - 1]);
  const at = Date.now();
  const times = madeAt.get(c.serial)!;
  for (let index = before + 1; index <= c.lastIndex; index++) times[index] = at;
};

// ---- a browser on the live hub: every record's event, timed from when its controller made it -----------------
const serialOfDevice = new Map(registered.map((d) => [d.Id, Number(d.SerialNumber)]));
const hubLatencies: number[] = [];
let hubEvents = 0;
let hubClosing = false;
let hub: WebSocket | undefined;
const onHubEvent = (data: Buffer) => {
  const arrived = Date.now();
  const event = JSON.parse(data.toString()) as {
    Type: string;
    DeviceId?: number;
    RecordIndex?: number | null;
  };
  if ((event.Type !== 'Swipe' && event.Type !== 'DoorAlarm') || event.RecordIndex == null) return;
  const serial = serialOfDevice.get(event.DeviceId!);
  const made = serial === undefined ? undefined : madeAt.get(serial)?.[event.RecordIndex];
  if (made === undefined) return;
  hubEvents++;
  hubLatencies.push(arrived - made);
};
const connectHub = () =>
  new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`${front().url.replace('http', 'ws')}${HUB_PATH}?AreaId=${AREA}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    hub = socket;
    socket.on('message', onHubEvent);
    socket.on('error', reject);
    socket.once('open', () => resolve());
    // Its instance was killed (BENCH_KILL_AFTER): the browser comes back on a survivor, as an operator's would.
    socket.once('close', () => {
      if (!hubClosing) setTimeout(() => void connectHub().catch(() => undefined), 500);
    });
  });
await connectHub();
const receivedBefore = sim.stats.received;
const started = performance.now();
let made = 0;
const ticker = setInterval(() => {
  const due = Math.min(RATE * SECONDS, Math.floor((RATE * (performance.now() - started)) / 1000));
  for (; made < due; made++) act(Math.random());
}, 5);
const probe = probeLatency(listUrl(), auth, { rate: 10, seconds: Math.max(5, SECONDS - 2) });
const killing =
  KILL_AFTER === null
    ? undefined
    : sleep(started + KILL_AFTER * 1000 - performance.now()).then(async () => {
        takeover = await killBusiest(db, sim, benchControllers, instances, instances[0]!);
        // The moment of the signal (this process may be late to wake under load: the figure is what happened).
        const killedAt = (takeover.killedAt - started) / 1000;
        console.log(
          `${killedAt.toFixed(1)} s into the burst: SIGKILL ${takeover.victim.id} (drove ${takeover.controllers} of ${CONTROLLERS} controllers)`,
        );
        return { killedAt, takeoverSeconds: await takeover.seconds };
      });
const perSecond: number[] = [];
let last = 0;
for (let s = 1; s <= SECONDS; s++) {
  await sleep(started + s * 1000 - performance.now());
  const n = await storedCount();
  perSecond.push(n - last);
  last = n;
}
clearInterval(ticker);
for (; made < RATE * SECONDS; made++) act(Math.random());
const during = await probe;
const total = generated();
const storedInWindow = await storedCount();
const windowSeconds = (performance.now() - started) / 1000;
// Pushes lost on the way (a full socket buffer) wait for the next poll.
const drainBy = Date.now() + 120_000 + 3000 * pollSeconds;
let stored = storedInWindow;
while (stored < total && Date.now() < drainBy) {
  await sleep(100);
  stored = await storedCount();
}
const drainedSeconds = (performance.now() - started) / 1000;
const pollRequests = sim.stats.received - receivedBefore;
const kill = await killing;
if (kill)
  console.log(
    `taken over: the survivors drive the killed instance's controllers ${kill.takeoverSeconds?.toFixed(1) ?? 'NOT within 3 min'} s after the kill`,
  );
// The events of the last records stored are on their way to the browser still.
await sleep(1000);
hubClosing = true;
hub?.close();
const hubP99 = percentile(hubLatencies, 99);

// ---- exactly once -----------------------------------------------------------------------------------------------
// What differs is printed for the first few controllers that do: stored count, distinct indexes, lowest and
// highest index, the controller's own last index and the collection cursor.
const once = await checkExactlyOnce(db, sim, benchControllers);
const exactlyOnce = once.holds;

const idleAfter = await probeLatency(listUrl(), auth, { rate: 10, seconds: IDLE_PROBE_SECONDS });

// ---- 10,000 cards onto one controller ----------------------------------------------------------------------------
const syncDevice = registered[0]!;
const syncController = sim.controller(Number(syncDevice.SerialNumber));
const channel = await db.kysely
  .selectFrom('AccessControlChannel')
  .select('Id')
  .where('DeviceId', '=', syncDevice.Id)
  .where('DoorNumber', '=', 1)
  .executeTakeFirstOrThrow();
const issuedCount = async (deviceId: number) =>
  Number(
    (
      await db.kysely
        .selectFrom('CardUserLinkChannel')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('DeviceId', '=', deviceId)
        .where('IssueStatus', '=', 3)
        .executeTakeFirstOrThrow()
    ).n,
  );
const grantStarted = performance.now();
const grant = ok(
  await api<{ Granted: number }>(front().url, 'POST', '/api/CardUserLinkChannel/BatchGrant', {
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
  issued = await issuedCount(syncDevice.Id);
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
  `| exactly once | ${exactlyOnce ? 'yes' : 'NO'}: ${stored.toLocaleString('en')} stored of ${total.toLocaleString('en')}, ${once.mismatched} controllers differ, ${once.countedLost} counted lost |`,
);
console.log(`| list call idle before | ${formatProbe(idleBefore)} |`);
console.log(`| list call during the load | ${formatProbe(during)} |`);
console.log(`| list call idle after | ${formatProbe(idleAfter)} |`);
console.log(
  `| live hub, a browser's socket: event after the record was made | ${hubEvents.toLocaleString('en')} events of ${total.toLocaleString('en')} records; p50 ${percentile(hubLatencies, 50).toFixed(0)} ms, p99 ${hubP99.toFixed(0)} ms, max ${percentile(hubLatencies, 100).toFixed(0)} ms |`,
);
console.log(
  `| ${CARDS.toLocaleString('en')} cards: BatchGrant call | ${(grantMs / 1000).toFixed(1)} s (${grant.Granted} granted) |`,
);
console.log(
  `| ${CARDS.toLocaleString('en')} cards: grant to all in status 3 and on the controller | ${syncSeconds.toFixed(1)} s; ${issued} in status 3, controller holds ${held.length}, store equals plan: ${storeEqualsPlan ? 'yes' : 'NO'} |`,
);
console.log(`| load average at the end | ${loadAverage()} |`);

for (const [n, instance] of instances.entries()) {
  const samples = await watches[n]!.stop();
  const name = INSTANCES > 1 ? ` ${instance.id}${instance === takeover?.victim ? ' (killed)' : ''}` : '';
  console.log(`\nServer process${name} (sampled every 5 s)`);
  console.log('| t (s) | RSS MB | heap used MB | CPU (% of one core) since last row |');
  console.log('|---|---|---|---|');
  for (let i = 0; i < samples.length; i += Math.max(1, Math.floor(samples.length / 20))) {
    const s = samples[i]!;
    const prev = samples[Math.max(0, i - 1)]!;
    console.log(
      `| ${((s.at - samples[0]!.at) / 1000).toFixed(0)} | ${mb(s.memory.rss)} | ${mb(s.memory.heapUsed)} | ${i ? cpuShare(prev, s).toFixed(0) : '-'} |`,
    );
  }
  const warnings = instance.server
    .output()
    .split('\n')
    .filter((l) => /"level":(40|50|60)/.test(l));
  if (warnings.length)
    console.log(`\nserver${name} warnings/errors: ${warnings.length}; first: ${warnings[0]!.slice(0, 400)}`);
}
// BENCH_DUMP=file: every server's output, one after the other (file.gh1, file.gh2 with several).
for (const i of instances)
  if (process.env.BENCH_DUMP)
    fs.writeFileSync(process.env.BENCH_DUMP + (INSTANCES > 1 ? `.${i.id}` : ''), i.server.output());

await sim.close();
for (const i of instances) await i.server.stop();
await db.close();
if (!process.env.BENCH_KEEP) {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}
// What the run did, in one line a reader and a script can compare.
const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : null);
console.log(
  JSON.stringify({
    database: POSTGRES ? 'postgres' : 'sqlite',
    controllers: CONTROLLERS,
    offered: total,
    seconds: round(drainedSeconds),
    stored,
    perSecond: Math.round(stored / drainedSeconds),
    duplicates: once.duplicates,
    lost: once.missing,
    listP50Ms: during.p50,
    listP99Ms: during.p99,
    hubP99Ms: round(hubP99),
    instances: INSTANCES,
    killedAt: kill ? round(kill.killedAt) : null,
    takeoverSeconds: kill?.takeoverSeconds != null ? round(kill.takeoverSeconds) : null,
  }),
);
if (!exactlyOnce || !storeEqualsPlan || (kill && kill.takeoverSeconds === null)) process.exitCode = 1;
