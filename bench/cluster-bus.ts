/**
 * Fan-out of the cluster bus over PostgreSQL LISTEN/NOTIFY (docs/deployment.md, "Cluster building blocks"):
 * one publishing instance and BENCH_SUBSCRIBERS subscriber instances, each a process of its own with its own
 * PgBus (its own pool and listening connection), as separate Gatehouse instances would be.
 *
 *   0. paced at BENCH_IDLE_RATE messages/s (100) for 5 s: the latency floor, each message nearly alone;
 *   1. paced: BENCH_RATE messages/s for BENCH_SECONDS, each message stamped with the monotonic clock (shared by
 *      every process of one Linux machine); every subscriber records the delay to its delivery: p50, p99, max,
 *      and whether each got every message, in order;
 *   2. the same rate for BENCH_UNBATCHED_SECONDS with one `select pg_notify(…)` per message through the pool
 *      (ten connections), unbatched, for comparison;
 *   3. throughput: BENCH_BURST messages published as fast as the bus takes them; the rate at which every
 *      subscriber received all of them.
 * Usage: node --import tsx bench/cluster-bus.ts   [BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test]
 *        [BENCH_SUBSCRIBERS=3] [BENCH_RATE=5000] [BENCH_SECONDS=10] [BENCH_UNBATCHED_SECONDS=3]
 *        [BENCH_BURST=100000] [BENCH_BYTES=120]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { PgBus, type Json } from '../packages/server/src/platform/cluster/index.ts';
import { loadAverage, machine, percentile, sleep } from './support/measure.ts';

const URL_ =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 100_000);
const IDLE_RATE = Number(process.env.BENCH_IDLE_RATE ?? 100);
const IDLE_SECONDS = 5;
const UNBATCHED_SECONDS = Number(process.env.BENCH_UNBATCHED_SECONDS ?? 3);
const BYTES = Number(process.env.BENCH_BYTES ?? 120);
const CHANNEL = 'bench';

/** Microseconds on the monotonic clock: comparable between processes of one Linux machine. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface Report {
  received: number;
  inOrder: boolean;
  latenciesUs: number[];
  firstUs: number;
  lastUs: number;
}

type ToChild = { reset: true } | { report: true } | { exit: true };
type FromChild = { ready: true } | { report: Report };

// ---- a subscriber instance -------------------------------------------------------------------------------

async function subscriber(namespace: string) {
  const db = openDatabase(URL_);
  const bus = new PgBus({ db, url: URL_, namespace });
  let state: Report = { received: 0, inOrder: true, latenciesUs: [], firstUs: 0, lastUs: 0 };
  let lastSeq = -1;
  bus.subscribe(CHANNEL, (message) => {
    const at = nowUs();
    const m = message as { seq: number; t: number };
    if (state.received === 0) state.firstUs = at;
    state.lastUs = at;
    state.received++;
    if (m.seq <= lastSeq) state.inOrder = false;
    lastSeq = m.seq;
    state.latenciesUs.push(at - m.t);
  });
  await bus.ready();
  process.on('message', (msg: ToChild) => {
    if ('reset' in msg) {
      state = { received: 0, inOrder: true, latenciesUs: [], firstUs: 0, lastUs: 0 };
      lastSeq = -1;
    } else if ('report' in msg) process.send!({ report: state } satisfies FromChild);
    else if ('exit' in msg)
      void bus
        .close()
        .then(() => db.close())
        .then(() => process.exit(0));
  });
  process.send!({ ready: true } satisfies FromChild);
}

// ---- the publisher and the measurements ------------------------------------------------------------------

function ask(child: ChildProcess, msg: ToChild): Promise<Report> {
  return new Promise((resolve) => {
    const onMessage = (m: FromChild) => {
      if ('report' in m) {
        child.off('message', onMessage);
        resolve(m.report);
      }
    };
    child.on('message', onMessage);
    child.send(msg);
  });
}

const pad = 'x'.repeat(Math.max(0, BYTES - 40));
const message = (seq: number): Json => ({ seq, t: nowUs(), pad });

/** Publishes RATE messages per second for `seconds` through `send`, on a 1 ms pacing loop. */
async function paced(
  send: (m: Json) => Promise<unknown>,
  seconds: number,
  rate = RATE,
): Promise<{ sent: number; failed: number }> {
  const total = rate * seconds;
  const start = performance.now();
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<unknown>>();
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    for (; sent < due; sent++) {
      const p = send(message(sent)).catch(() => void failed++);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  return { sent, failed };
}

async function collect(children: ChildProcess[], expected: number, timeoutMs = 20_000): Promise<Report[]> {
  const end = Date.now() + timeoutMs;
  let reports: Report[];
  do {
    await sleep(200);
    reports = await Promise.all(children.map((c) => ask(c, { report: true })));
  } while (reports.some((r) => r.received < expected) && Date.now() < end);
  return reports;
}

const ms = (us: number) => (us / 1000).toFixed(2);

function latencyLine(label: string, reports: Report[], expected: number) {
  const all = reports.flatMap((r) => r.latenciesUs);
  const complete = reports.every((r) => r.received === expected);
  const inOrder = reports.every((r) => r.inOrder);
  console.log(
    `${label}: fan-out p50 ${ms(percentile(all, 50))} ms, p99 ${ms(percentile(all, 99))} ms, max ${ms(percentile(all, 100))} ms; ` +
      `received ${reports.map((r) => r.received).join(' / ')} of ${expected}` +
      `${complete ? '' : ' (INCOMPLETE)'}${inOrder ? ', in order' : ', NOT in publish order'}`,
  );
}

async function main() {
  const namespace = `b${randomBytes(3).toString('hex')}`;
  console.log(
    `Cluster bus fan-out: PostgreSQL LISTEN/NOTIFY, 1 publisher + ${SUBSCRIBERS} subscriber processes, ` +
      `${BYTES}-byte messages; ${machine()}; load average at start ${loadAverage()}`,
  );
  const self = fileURLToPath(import.meta.url);
  const children = Array.from({ length: SUBSCRIBERS }, () =>
    fork(self, ['subscriber', namespace], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(
    children.map(
      (c) => new Promise<void>((resolve) => c.on('message', (m: FromChild) => 'ready' in m && resolve())),
    ),
  );
  const db = openDatabase(URL_);
  const bus = new PgBus({ db, url: URL_, namespace });
  await bus.ready();
  const pg = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db.kysely);
  console.log(`PostgreSQL ${pg.rows[0]?.v}`);

  // 0. The floor: a light load, where each message leaves nearly alone.
  const r0 = await paced((m) => bus.publish(CHANNEL, m), IDLE_SECONDS, IDLE_RATE);
  latencyLine(
    `PgBus, ${IDLE_RATE}/s for ${IDLE_SECONDS} s (light load)`,
    await collect(children, r0.sent),
    r0.sent,
  );
  await Promise.all(children.map((c) => c.send({ reset: true } satisfies ToChild)));
  await sleep(200);

  // 1. Paced, through the bus (batched).
  const before = { ...bus.stats };
  const cpu0 = process.cpuUsage();
  const r1 = await paced((m) => bus.publish(CHANNEL, m), SECONDS);
  const cpu1 = process.cpuUsage(cpu0);
  const statements = bus.stats.statements - before.statements;
  const notifications = bus.stats.notifications - before.notifications;
  const reports1 = await collect(children, r1.sent);
  latencyLine(`PgBus, ${RATE}/s for ${SECONDS} s (batched)`, reports1, r1.sent);
  console.log(
    `  ${statements} statements, ${notifications} NOTIFY for ${r1.sent} messages ` +
      `(${(r1.sent / statements).toFixed(1)} messages a statement); publisher CPU ` +
      `${(((cpu1.user + cpu1.system) / 1e6 / SECONDS) * 100).toFixed(0)} % of a core; failed ${r1.failed}`,
  );

  // 2. Paced, one statement per message (what batching avoids).
  await Promise.all(children.map((c) => c.send({ reset: true } satisfies ToChild)));
  await sleep(200);
  const physical = `${namespace}.${CHANNEL}`;
  // Framed as the bus frames a payload (a foreign tag, so the subscribers take it as another instance's).
  let seq = 0;
  const r2 = await paced(
    (m) =>
      sql`select pg_notify(${physical}, ${JSON.stringify(['unbatch0', seq++, [0, m]])})`.execute(db.kysely),
    UNBATCHED_SECONDS,
  );
  const reports2 = await collect(children, r2.sent);
  latencyLine(
    `one pg_notify per message, ${RATE}/s for ${UNBATCHED_SECONDS} s (unbatched)`,
    reports2,
    r2.sent,
  );

  // 3. Throughput: as fast as the bus takes them, at most 10,000 unconfirmed at a time.
  await Promise.all(children.map((c) => c.send({ reset: true } satisfies ToChild)));
  await sleep(200);
  const t0 = nowUs();
  const window = new Set<Promise<void>>();
  for (let i = 0; i < BURST; i++) {
    const p = bus.publish(CHANNEL, message(i));
    window.add(p);
    void p.finally(() => window.delete(p));
    if (window.size >= 10_000) await Promise.race(window);
    else if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
  }
  await Promise.all(window);
  const published = nowUs();
  const reports3 = await collect(children, BURST, 60_000);
  const lastDelivery = Math.max(...reports3.map((r) => r.lastUs));
  const complete = reports3.every((r) => r.received === BURST && r.inOrder);
  console.log(
    `throughput: ${BURST} messages published in ${ms(published - t0)} ms (${Math.round(BURST / ((published - t0) / 1e6))}/s); ` +
      `every subscriber had all of them after ${ms(lastDelivery - t0)} ms (${Math.round(BURST / ((lastDelivery - t0) / 1e6))}/s each, ` +
      `${Math.round((BURST * SUBSCRIBERS) / ((lastDelivery - t0) / 1e6))}/s delivered in all)${complete ? ', all in order' : ' (INCOMPLETE)'}`,
  );

  console.log(`load average at the end ${loadAverage()}`);
  for (const c of children) c.send({ exit: true } satisfies ToChild);
  await Promise.all(children.map((c) => new Promise((resolve) => c.once('exit', resolve))));
  await bus.close();
  await db.close();
}

if (process.argv[2] === 'subscriber') await subscriber(process.argv[3]!);
else await main();
