/**
 * OCPP 1.6J charge points at scale (issue "Chargers for real", must-show 5). The real server (main.ts, a
 * process of its own) on DATABASE_URL (a fresh SQLite file, or a fresh schema in the PostgreSQL database named,
 * dropped afterwards) with BENCH_CPS charging-API hosts of BENCH_CONNECTORS sockets each, created and given
 * their OCPP passwords through the API as an operator would. Every charge point is an ocpp-rpc client
 * in strict mode (every call and answer checked against the official 1.6 schemas) in this process:
 *   1. all connect at once (a mass reconnect): connect time per charge point and until the last, with one
 *      operator login timed in the middle of it (argon2 verifies each handshake);
 *   2. BootNotification, StatusNotification of every connector, and a transaction on BENCH_CHARGING of them,
 *      each with a card of its own (a vehicle of the area per charging connector: the central system rightly
 *      refuses a card already in a session elsewhere), in a zone without a power budget (the bench measures
 *      messages, not the budget's refusals);
 *   3. for BENCH_SECONDS, every connector sends a StatusNotification and a MeterValues (energy register and
 *      power; with its transactionId when charging) every BENCH_INTERVAL seconds, each at its own phase, plus
 *      a Heartbeat per charge point at the interval the server gave: messages handled per second, call
 *      round-trip times, failures;
 *   4. p99 of GET /api/ChargeEquipment/Grid (one host's socket grid, bikeadmin session, X-Area-Id) during the
 *      load against the same call idle (a paced probe in a process of its own);
 *   5. the server's RSS, heap and CPU over the run.
 * Usage: npm run bench:ocpp   [DATABASE_URL=/path/new.db | postgres://…/database] [BENCH_CPS=1000]
 *        [BENCH_CONNECTORS=10] [BENCH_INTERVAL=10] [BENCH_SECONDS=300]
 *        [BENCH_CHARGING=1] (share of connectors with a running transaction)
 * The last line is JSON, what the run did: {"database" (sqlite or postgres), "chargePoints" (connected and
 * booted), "connectors" (per charge point), "transactions" (accepted and still running at the end),
 * "messagesPerSecond" (handled in the steady state), "p99Ms" (call round trip then), "failed" (refused starts,
 * failed calls, calls still unanswered when the charge points close, and failed connections), "serverCpuPercent"
 * (of one core, over the steady load)}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The simulator package's own client library (hoisted from packages/ocpp-simulator): bare clients give the
// benchmark exact control of what is sent and when.
import { RPCClient, createRPCError } from 'ocpp-rpc';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { DEMO_PASSWORD } from '../packages/server/src/demo/catalog.ts';
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
import { startBenchServer } from './support/server.ts';

const CPS = Number(process.env.BENCH_CPS ?? 1000);
const CONNECTORS = Number(process.env.BENCH_CONNECTORS ?? 10);
const INTERVAL = Number(process.env.BENCH_INTERVAL ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const CHARGING = Number(process.env.BENCH_CHARGING ?? 1);
const AREA = 1;
const ADMIN_PASSWORD = 'Bench#Admin2026';
const ROW_SECONDS = 30;
/** The idle probes' length: 15 s, shorter for a smoke run of a few seconds. */
const IDLE_PROBE_SECONDS = Math.min(15, Math.max(3, Math.round(SECONDS / 4)));

/** Connectors of each charge point that start a transaction (the first ones). */
const CHARGING_CONNECTORS = Math.round(CONNECTORS * CHARGING);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-ocpp-'));
// Where the server and this process read and write: the run's SQLite file or PostgreSQL schema
// (bench/support/database.ts).
const target = await benchDatabase({
  given: process.env.DATABASE_URL,
  dir,
  bench: 'bench:ocpp',
  schemaPrefix: 'bench_ocpp',
});
console.log(
  `OCPP load benchmark: ${CPS} charge points x ${CONNECTORS} connectors, StatusNotification + MeterValues every ` +
    `${INTERVAL} s per connector for ${SECONDS} s, ${CHARGING_CONNECTORS} of each charge point's connectors to ` +
    `charge, each with a card of its own; ${target.postgres ? 'PostgreSQL' : 'SQLite (WAL)'}, ${machine()}; load average at start ${loadAverage()}`,
);

// ---- database: the demo (small bulk volume); a zone that sells charging and the cards riders swipe ----------
const setupDb = target.open();
await migrateToLatest(setupDb);
await seedIfEmpty(setupDb, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.01 });
const zones = await setupDb.kysely
  .selectFrom('ParkArea')
  .innerJoin('ParkAreaChargeRule', 'ParkAreaChargeRule.ParkAreaId', 'ParkArea.Id')
  .innerJoin('ChargeRule', 'ChargeRule.Id', 'ParkAreaChargeRule.ChargeRuleId')
  .select(['ParkArea.Id', 'ChargeRule.MaxPowerW', 'ChargeRule.FullPowerW', 'ChargeRule.MaxDurationMinutes'])
  .where('ParkArea.AreaId', '=', AREA)
  .where('ChargeRule.ChargeType', '=', 3)
  .where('ChargeRule.Disabled', '=', 0)
  .orderBy('ParkArea.Id')
  .execute();
// A zone whose temporary rule lets a session run the whole benchmark at an ordinary e-bike power.
const zone = zones.find((z) => z.MaxDurationMinutes === null || z.MaxDurationMinutes > SECONDS / 60 + 10);
if (!zone) throw new Error('the demo has no zone of area 1 selling temporary charging');
const powerW = Math.max((zone.FullPowerW ?? 0) + 50, Math.min(zone.MaxPowerW ?? 1000, 250) - 10);
// No power budget on the zone: thousands of sessions at once would reach any feeder's, and the starts past it
// would be refused (zoneBudget) instead of measured.
await setupDb.kysely.updateTable('ParkArea').set({ PowerBudgetW: null }).where('Id', '=', zone.Id).execute();
// A card for every charging connector: one vehicle each, card numbers far from the demo's (96xxxxxxxx).
const cards = Array.from({ length: CPS * CHARGING_CONNECTORS }, (_, i) => `96${String(i).padStart(8, '0')}`);
const seededAt = Date.now();
for (let i = 0; i < cards.length; i += 500)
  await setupDb.kysely
    .insertInto('Vehicle')
    .values(
      cards.slice(i, i + 500).map((CardNumber, j) => ({
        AreaId: AREA,
        Plate: `压测${String(i + j + 1).padStart(6, '0')}`,
        CardNumber,
        Disabled: 0,
        CreatedAt: seededAt,
        UpdatedAt: seededAt,
      })),
    )
    .execute();
await setupDb.close();

// ---- the server -----------------------------------------------------------------------------------------------
const server = await startBenchServer({
  databasePath: target.url,
  // Beside the run's files: startBenchServer's default (the database file's folder) means nothing for a URL.
  env: { SEED: 'demo', ADMIN_PASSWORD, EXPORT_DIR: path.join(dir, 'exports') },
});
const watch = watchServer(server, 5000);
const token = await login(server.url, 'bikeadmin', DEMO_PASSWORD);
const call = <T>(method: string, url: string, body: unknown) =>
  api<T>(server.url, method, url, { token, area: AREA, body });

// ---- hosts and their passwords, through the API ---------------------------------------------------------------
const hosts: { id: number; serial: string; password: string }[] = [];
let t = performance.now();
const setup = async (i: number) => {
  const serial = `BENCH${String(i + 1).padStart(5, '0')}`;
  const host = ok(
    await call<{ Id: number }>('POST', '/api/ChargeHost', {
      SerialNumber: serial,
      Name: `压测充电主机 ${i + 1}`,
      ParkAreaId: zone.Id,
      PortCount: CONNECTORS,
      ChargingSystemType: 2,
      Endpoint: 'https://api.ev-cloud.example.cn/v2/stations',
      Password: `sk-${serial.toLowerCase()}`,
    }),
    `create host ${serial}`,
  );
  const { Password } = ok(
    await call<{ Password: string }>('POST', '/api/ChargeHost/SetOcppPassword', { Id: host.Id }),
    `OCPP password of ${serial}`,
  );
  hosts.push({ id: host.Id, serial, password: Password });
};
for (let i = 0; i < CPS; i += 8)
  await Promise.all(Array.from({ length: Math.min(8, CPS - i) }, (_, j) => setup(i + j)));
hosts.sort((a, b) => a.id - b.id);
console.log(
  `\n${CPS} hosts created with their OCPP passwords through the API in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const gridUrl = `${server.url}/api/ChargeEquipment/Grid?ChargeHostId=${hosts[0]!.id}`;
const auth = { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) };
const idleGrid = await probeLatency(gridUrl, auth, { rate: 10, seconds: IDLE_PROBE_SECONDS });
console.log(`idle grid call: ${formatProbe(idleGrid)}  (load ${loadAverage()})`);

// ---- the charge points -----------------------------------------------------------------------------------------
interface Connector {
  id: number;
  transactionId: number | undefined;
  registerWh: number;
  nextAt: number;
  /** its previous report is still on the way */
  inFlight: boolean;
}
interface Point {
  serial: string;
  client: RPCClient;
  connectors: Connector[];
  heartbeatSeconds: number;
  nextHeartbeatAt: number;
}

const latencies: number[] = [];
let completed = 0;
let failed = 0;
const failures = new Map<string, number>();
/** Calls the central system made to the charge points, by action (its configuration pass, a safety stop…). */
const serverCalls = new Map<string, number>();
const iso = () => new Date().toISOString();

async function send(point: Point, action: string, payload: Record<string, unknown>): Promise<unknown> {
  const started = performance.now();
  try {
    const answer = await point.client.call(action, payload);
    latencies.push(performance.now() - started);
    completed++;
    return answer;
  } catch (error) {
    failed++;
    const key = `${action}: ${String(error).slice(0, 120)}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
    return undefined;
  }
}

function createPoint(host: { serial: string; password: string }): Point {
  const client = new RPCClient({
    endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
    identity: host.serial,
    password: host.password,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
    callTimeoutMs: 60_000,
  } as ConstructorParameters<typeof RPCClient>[0]);
  // What the central system may ask of a charge point here: a safety stop is refused (the powers are chosen
  // not to cross a rule; any such call is counted), the rest is not implemented by this bench client.
  client.handle(async ({ method }) => {
    const action = method ?? '(none)';
    serverCalls.set(action, (serverCalls.get(action) ?? 0) + 1);
    if (method === 'RemoteStopTransaction') return { status: 'Rejected' };
    throw createRPCError('NotImplemented');
  });
  return {
    serial: host.serial,
    client,
    connectors: Array.from({ length: CONNECTORS }, (_, i) => ({
      id: i + 1,
      transactionId: undefined,
      registerWh: 1000 * (i + 1),
      nextAt: 0,
      inFlight: false,
    })),
    heartbeatSeconds: 60,
    nextHeartbeatAt: 0,
  };
}

const points = hosts.map(createPoint);
// 1. Mass connect, with an operator logging in meanwhile.
const connectMs: number[] = [];
const connectErrors: string[] = [];
t = performance.now();
const connecting = Promise.all(
  points.map(async (p) => {
    const started = performance.now();
    try {
      await p.client.connect();
      connectMs.push(performance.now() - started);
    } catch (error) {
      connectErrors.push(`${p.serial}: ${String(error).slice(0, 120)}`);
    }
  }),
);
await sleep(Math.min(2000, CPS * 2));
const loginStarted = performance.now();
await login(server.url, 'bikeuser', DEMO_PASSWORD);
const loginDuringConnectMs = performance.now() - loginStarted;
await connecting;
const connectAllSeconds = (performance.now() - t) / 1000;
const online = points.filter((p) => p.client.state === RPCClient.OPEN);
console.log(
  `connected ${online.length}/${CPS} in ${connectAllSeconds.toFixed(1)} s (p50 ${(percentile(connectMs, 50) / 1000).toFixed(1)} s, ` +
    `p99 ${(percentile(connectMs, 99) / 1000).toFixed(1)} s each); an operator login during it took ${(loginDuringConnectMs / 1000).toFixed(1)} s` +
    (connectErrors.length ? `; failures: ${connectErrors.slice(0, 3).join('; ')}` : ''),
);

// 2. Boot, report every connector, start the transactions.
t = performance.now();
let started = 0;
let refused = 0;
const refusals = new Map<string, number>();
let booted = 0;
await Promise.all(
  online.map(async (p, pointIndex) => {
    const boot = (await send(p, 'BootNotification', {
      chargePointVendor: 'Gatehouse bench',
      chargePointModel: 'EBike-10',
      firmwareVersion: '1.0.0',
    })) as { status: string; interval: number } | undefined;
    if (boot?.status !== 'Accepted') return;
    booted++;
    if (boot.interval > 0) p.heartbeatSeconds = boot.interval;
    await send(p, 'StatusNotification', {
      connectorId: 0,
      errorCode: 'NoError',
      status: 'Available',
      timestamp: iso(),
    });
    for (const c of p.connectors) {
      await send(p, 'StatusNotification', {
        connectorId: c.id,
        errorCode: 'NoError',
        status: 'Available',
        timestamp: iso(),
      });
      if (c.id > CHARGING_CONNECTORS) continue;
      await send(p, 'StatusNotification', {
        connectorId: c.id,
        errorCode: 'NoError',
        status: 'Preparing',
        timestamp: iso(),
      });
      const conf = (await send(p, 'StartTransaction', {
        connectorId: c.id,
        // The connector's own card: never one already in a session.
        idTag: cards[pointIndex * CHARGING_CONNECTORS + c.id - 1]!,
        meterStart: Math.round(c.registerWh),
        timestamp: iso(),
      })) as { transactionId: number; idTagInfo: { status: string } } | undefined;
      if (conf?.idTagInfo.status === 'Accepted') {
        c.transactionId = conf.transactionId;
        started++;
        await send(p, 'StatusNotification', {
          connectorId: c.id,
          errorCode: 'NoError',
          status: 'Charging',
          timestamp: iso(),
        });
      } else {
        refused++;
        const why = conf?.idTagInfo.status ?? 'no answer';
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
      }
    }
  }),
);
console.log(
  `booted and reported in ${((performance.now() - t) / 1000).toFixed(1)} s: ${booted} booted, ${started} transactions running, ${refused} refused` +
    (refusals.size ? ` (${[...refusals].map(([k, n]) => `${n}x ${k}`).join(', ')})` : ''),
);

// 3. The steady load: each connector every INTERVAL s at its own phase, a heartbeat per charge point.
const loadStarted = Date.now();
for (const p of online) {
  p.nextHeartbeatAt = loadStarted + Math.random() * p.heartbeatSeconds * 1000;
  for (const c of p.connectors) c.nextAt = loadStarted + Math.random() * INTERVAL * 1000;
}
const report = async (p: Point, c: Connector) => {
  c.inFlight = true;
  const charging = c.transactionId !== undefined;
  c.registerWh += charging ? (powerW * INTERVAL) / 3600 : 0;
  await send(p, 'StatusNotification', {
    connectorId: c.id,
    errorCode: 'NoError',
    status: charging ? 'Charging' : 'Available',
    timestamp: iso(),
  });
  const timestamp = iso();
  await send(p, 'MeterValues', {
    connectorId: c.id,
    ...(charging ? { transactionId: c.transactionId } : {}),
    meterValue: [
      {
        timestamp,
        sampledValue: [
          {
            value: String(Math.round(c.registerWh)),
            context: 'Sample.Periodic',
            measurand: 'Energy.Active.Import.Register',
            unit: 'Wh',
          },
          {
            value: String(charging ? powerW : 0),
            context: 'Sample.Periodic',
            measurand: 'Power.Active.Import',
            unit: 'W',
          },
        ],
      },
    ],
  });
  c.inFlight = false;
};
let skipped = 0;
const loadLatencyIndex = latencies.length;
const scheduler = setInterval(() => {
  const now = Date.now();
  for (const p of online) {
    if (p.nextHeartbeatAt <= now) {
      p.nextHeartbeatAt += p.heartbeatSeconds * 1000;
      void send(p, 'Heartbeat', {});
    }
    for (const c of p.connectors) {
      if (c.nextAt > now) continue;
      c.nextAt += INTERVAL * 1000;
      // A connector whose previous report is still on the way skips a beat (counted), as a charger would
      // not queue samples without end: a server that cannot keep up shows here.
      if (c.inFlight) skipped++;
      else void report(p, c);
    }
  }
}, 50);

const probeStart = Math.min(INTERVAL * 2, Math.max(0, SECONDS - 20));
const probeSeconds = Math.max(5, Math.min(60, SECONDS - probeStart - 5));
let loadGrid: Promise<Awaited<ReturnType<typeof probeLatency>>> | undefined;
const rows: string[] = [];
const clientCpu0 = process.cpuUsage();
let lastCompleted = completed;
let lastLatencyIndex = latencies.length;
let lastFailed = failed;
let lastSample = await server.sample();
const totals = { messages: 0, seconds: 0 };
/** The server's CPU over the steady state (after the first interval, when every connector has reported once). */
let steadyFrom: Awaited<ReturnType<typeof server.sample>> | undefined;
let steadyTo = lastSample;
for (let s = ROW_SECONDS; s <= SECONDS + ROW_SECONDS - 1; s += ROW_SECONDS) {
  const end = Math.min(s, SECONDS);
  if (!loadGrid && end > probeStart) {
    await sleep(loadStarted + probeStart * 1000 - Date.now());
    loadGrid = probeLatency(gridUrl, auth, { rate: 10, seconds: probeSeconds });
  }
  await sleep(loadStarted + end * 1000 - Date.now());
  const sample = await server.sample();
  const window = (sample.at - lastSample.at) / 1000;
  const done = completed - lastCompleted;
  const slice = latencies.slice(lastLatencyIndex);
  rows.push(
    `| ${end} | ${Math.round(done / window).toLocaleString('en')} | ${percentile(slice, 50).toFixed(0)} | ${percentile(slice, 99).toFixed(0)} | ${failed - lastFailed} | ${mb(sample.memory.rss)} | ${mb(sample.memory.heapUsed)} | ${cpuShare(lastSample, sample).toFixed(0)} |`,
  );
  if (end > INTERVAL) {
    totals.messages += done;
    totals.seconds += window;
    steadyFrom ??= lastSample;
    steadyTo = sample;
  }
  lastCompleted = completed;
  lastLatencyIndex = latencies.length;
  lastFailed = failed;
  lastSample = sample;
  if (end === SECONDS) break;
}
clearInterval(scheduler);
const clientCpu = process.cpuUsage(clientCpu0);
// Reports on the way are answered before the charge points go (closing would abort them).
for (let wait = 0; wait < 300 && online.some((p) => p.connectors.some((c) => c.inFlight)); wait++)
  await sleep(100);
const failedInLoad = failed;
const failuresInLoad = [...failures];
const duringGrid = await loadGrid!;
const steadyLatencies = latencies.slice(loadLatencyIndex);

// What the server holds after the run: sessions running and metered.
const db = target.open();
const sessions = (await db.kysely
  .selectFrom('ChargeRecord')
  .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
  .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
  .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('ChargeRecord.EnergyWh').as('wh')])
  .where('ChargeHost.SerialNumber', 'like', 'BENCH%')
  .where('ChargeRecord.EndAt', 'is', null)
  .executeTakeFirstOrThrow()) as { n: number; wh: number };
await db.close();

await Promise.all(online.map((p) => p.client.close({ force: true }).catch(() => undefined)));
await sleep(2000);
const idleGridAfter = await probeLatency(gridUrl, auth, { rate: 10, seconds: IDLE_PROBE_SECONDS });
const samples = await watch.stop();

// ---- report ---------------------------------------------------------------------------------------------------------
const messagesPerSecond = Math.round(totals.messages / Math.max(1, totals.seconds));
const serverCpuPercent = cpuShare(steadyFrom ?? samples[0]!, steadyFrom ? steadyTo : samples.at(-1)!);
const expected = (online.length * CONNECTORS * 2) / INTERVAL + online.length / 60;
console.log(
  `\nEvery ${ROW_SECONDS} s of the load (messages answered by the server; round trips seen by the charge points)`,
);
console.log(
  '| t (s) | messages/s | p50 ms | p99 ms | failed | server RSS MB | heap used MB | server CPU % of one core |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log('\n| figure | value |');
console.log('|---|---|');
console.log(
  `| mass connect of ${CPS} (argon2 per handshake) | ${online.length} connected in ${connectAllSeconds.toFixed(1)} s; each p50 ${(percentile(connectMs, 50) / 1000).toFixed(1)} s, p99 ${(percentile(connectMs, 99) / 1000).toFixed(1)} s; ${connectErrors.length} failed |`,
);
console.log(`| operator login during the mass connect | ${(loginDuringConnectMs / 1000).toFixed(2)} s |`);
console.log(
  `| transactions running | ${started} (refused ${refused}); open sessions in the database at the end: ${sessions.n}, ${Math.round(Number(sessions.wh)).toLocaleString('en')} Wh metered |`,
);
console.log(
  `| messages handled, steady state | **${messagesPerSecond.toLocaleString('en')}/s** (offered about ${Math.round(expected).toLocaleString('en')}/s) |`,
);
console.log(
  `| call round trip during the load | p50 ${percentile(steadyLatencies, 50).toFixed(0)} ms, p99 ${percentile(steadyLatencies, 99).toFixed(0)} ms, max ${percentile(steadyLatencies, 100).toFixed(0)} ms |`,
);
console.log(
  `| failed calls | ${failedInLoad}${
    failuresInLoad.length
      ? ` (${failuresInLoad
          .slice(0, 3)
          .map(([k, n]) => `${n}x ${k}`)
          .join('; ')})`
      : ''
  } |`,
);
// Calls still unanswered 30 s after the load, aborted when the charge points closed: never answered, so the JSON
// line's "failed" counts them (a backlog the server had not worked off).
console.log(
  `| calls unanswered when the charge points closed (30 s after the load) | ${(failed - failedInLoad).toLocaleString('en')} |`,
);
console.log(`| server CPU over the steady state | ${serverCpuPercent.toFixed(0)}% of one core |`);
console.log(`| reports skipped (the previous one of the connector still unanswered) | ${skipped} |`);
console.log(
  `| calls from the server, by action | ${
    [...serverCalls].map(([method, n]) => `${method} ${n.toLocaleString('en')}`).join(', ') || 'none'
  } |`,
);
console.log(`| grid call idle before | ${formatProbe(idleGrid)} |`);
console.log(`| grid call during the load | ${formatProbe(duringGrid)} |`);
console.log(`| grid call idle after (charge points gone) | ${formatProbe(idleGridAfter)} |`);
console.log(
  `| server memory | RSS ${mb(Math.min(...samples.map((s) => s.memory.rss)))}–${mb(Math.max(...samples.map((s) => s.memory.rss)))} MB, heap used up to ${mb(Math.max(...samples.map((s) => s.memory.heapUsed)))} MB |`,
);
console.log(
  `| load generator CPU (this process) | ${(((clientCpu.user + clientCpu.system) / 1000 / (SECONDS * 1000)) * 100).toFixed(0)}% of one core |`,
);
console.log(`| load average at the end | ${loadAverage()} |`);
const warnings = server
  .output()
  .split('\n')
  .filter((l) => /"level":(40|50|60)/.test(l) && !l.includes('web app not built'));
if (warnings.length)
  console.log(`\nserver warnings/errors: ${warnings.length}; first: ${warnings[0]!.slice(0, 400)}`);

await server.stop();
await target.drop();
fs.rmSync(dir, { recursive: true, force: true });

// What the run did, in one line a reader and a script can compare: transactions are those accepted and still
// running at the end (the database's open sessions on the bench's hosts), failed every refusal and error.
const transactions = Math.min(started, Number(sessions.n));
console.log(
  JSON.stringify({
    database: target.postgres ? 'postgres' : 'sqlite',
    chargePoints: booted,
    connectors: CONNECTORS,
    transactions,
    messagesPerSecond,
    p99Ms: Math.round(percentile(steadyLatencies, 99) * 10) / 10,
    failed: refused + failed + connectErrors.length,
    serverCpuPercent: Math.round(serverCpuPercent * 10) / 10,
  }),
);
