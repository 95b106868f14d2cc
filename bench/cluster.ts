/**
 * Several instances (issue 19, Must show 2 and 3). Gatehouse instances (main.ts, child processes, each with its
 * own PORT, INSTANCE_ID and WG_LISTEN) on one fresh PostgreSQL database, behind HAProxy with the shipped
 * deploy/haproxy.cfg (bench/support/cluster.ts):
 *   1. throughput: the same scripted operator load (BENCH_SESSIONS signed-in sessions, closed loop: each calls
 *      again as soon as answered; bench/support/operator-load.ts names the calls) for BENCH_SECONDS through
 *      the proxy in front of one, two and three instances: calls/s, p50/p99, errors, and the CPU each part used
 *      (instances, HAProxy, this database's PostgreSQL backends, the load generator) per call;
 *   2. kill: three instances, BENCH_CONTROLLERS simulated WG controllers (one WgSimulator, loopback UDP) swiped
 *      BENCH_SWIPES times a second in all, BENCH_CHARGERS simulated OCPP charge points (connected through the
 *      proxy) each charging a session, the same operator sessions at a human pace (a pause of BENCH_THINK_MS
 *      on average between calls), BENCH_EXPORTS export jobs just created; the instance holding the most
 *      devices is SIGKILLed. Measured: operator errors (and whether each was a call in flight at the kill), ms
 *      until its controllers' leases are held by another instance and their listeners point at it, ms until
 *      its charge points are online on another instance, every swipe stored exactly once per controller
 *      (count and distinct record indexes equal to the simulator's), no session closed once the offline grace
 *      (BENCH_GRACE, given to the instances as OCPP_OFFLINE_GRACE) has passed since the kill, every export job
 *      done with exactly one file.
 * The demo seed (SEED=demo) has 23 WG controllers and 9 OCPP hosts at any DEMO_SCALE (its bulk records scale,
 * its devices do not): the benchmark registers its own controllers and hosts through the API and gives its
 * charge points' vehicles fresh cards.
 * Prints a table and one final JSON line with every figure. Needs PostgreSQL and haproxy.
 * Usage: npm run bench:cluster   [BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres] [BENCH_SECONDS=30]
 *        [BENCH_WARMUP=5] [BENCH_SESSIONS=200] [BENCH_INSTANCES=1,2,3] [BENCH_PHASES=throughput,kill]
 *        [BENCH_CONTROLLERS=100] [BENCH_CHARGERS=100] [BENCH_SWIPES=100] [BENCH_THINK_MS=3000]
 *        [BENCH_EXPORTS=30] [BENCH_GRACE=60] [BENCH_DEMO_SCALE=0.02]
 */
import os from 'node:os';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../packages/server/src/db/database.ts';
import { setOcppPassword } from '../packages/server/src/gateways/ocpp/index.ts';
import { Leases } from '../packages/server/src/platform/cluster/index.ts';
import { systemClock } from '../packages/server/src/platform/clock.ts';
import {
  cpuMs,
  freshDatabase,
  ready,
  startInstance,
  startProxy,
  stopInstance,
  within,
  type Instance,
  type Proxy,
} from './support/cluster.ts';
import { api, loadAverage, login, machine, ok, sleep } from './support/measure.ts';
import {
  SCRIPT,
  startOperatorLoad,
  type OperatorLoadJob,
  type OperatorLoadResult,
} from './support/operator-load.ts';

const env = process.env;
const PG_URL = env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const WARMUP = Number(env.BENCH_WARMUP ?? 5);
const SESSIONS = Number(env.BENCH_SESSIONS ?? 200);
const COUNTS = (env.BENCH_INSTANCES ?? '1,2,3').split(',').map(Number);
const PHASES = new Set((env.BENCH_PHASES ?? 'throughput,kill').split(','));
const CONTROLLERS = Number(env.BENCH_CONTROLLERS ?? 100);
const CHARGERS = Number(env.BENCH_CHARGERS ?? 100);
const SWIPES = Number(env.BENCH_SWIPES ?? 100);
const THINK_MS = Number(env.BENCH_THINK_MS ?? 3000);
const EXPORTS = Number(env.BENCH_EXPORTS ?? 30);
const GRACE = Number(env.BENCH_GRACE ?? 60);
const DEMO_SCALE = env.BENCH_DEMO_SCALE ?? '0.02';
const ADMIN_PASSWORD = 'Bench#Admin2026';
const AREA = 1;
const OCPP_PASSWORD = 'bench-cluster-ocpp-password';
const IDS = ['gh1', 'gh2', 'gh3'];

const figures: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAverageAtStart: loadAverage(),
  sessions: SESSIONS,
  script: SCRIPT,
};
const log = (text: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);
log(
  `Cluster benchmark: ${SESSIONS} operator sessions, instances ${COUNTS.join('/')} for ${SECONDS} s each; kill ` +
    `with ${CONTROLLERS} WG controllers (${SWIPES} swipes/s), ${CHARGERS} charge points, ${EXPORTS} exports; ` +
    `${machine()}; load average ${loadAverage()}`,
);

const database = await freshDatabase(PG_URL, 'gh_bench_cluster');
const instances: Instance[] = [];
let proxy: Proxy | undefined;
let db: Db | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
const instanceEnv = {
  DEMO_SCALE,
  ADMIN_PASSWORD,
  OCPP_OFFLINE_GRACE: `${GRACE}s`,
};

async function addInstance(): Promise<Instance> {
  const instance = await startInstance(IDS[instances.length]!, database.url, instanceEnv);
  instances.push(instance);
  const ms = await ready(instance);
  log(`${instance.id} ready in ${(ms / 1000).toFixed(1)} s (port ${instance.port}, WG ${instance.wgPort})`);
  return instance;
}

const live = () => instances.filter((i) => i.alive());

/** Failed calls grouped by what failed and by their moment against the kill: count, first and last start. */
function summarise(failures: OperatorLoadResult['failures'], killedAt: number, exitedAt: number) {
  const groups = new Map<string, { count: number; firstStartMs: number; lastStartMs: number }>();
  for (const f of failures) {
    const when = f.end < killedAt ? 'before' : f.start < exitedAt ? 'in flight' : 'after';
    const key = `${when}: ${f.what}`;
    const g = groups.get(key) ?? { count: 0, firstStartMs: Infinity, lastStartMs: -Infinity };
    g.count++;
    g.firstStartMs = Math.min(g.firstStartMs, Math.round(f.start - killedAt));
    g.lastStartMs = Math.max(g.lastStartMs, Math.round(f.start - killedAt));
    groups.set(key, g);
  }
  return Object.fromEntries(groups);
}

/** HAProxy's lines about servers going down or up (stderr with -db), stamped when read: ms from the kill. */
const proxyLines: { at: number; line: string }[] = [];
function watchProxy(p: Proxy) {
  let seen = 0;
  const timer = setInterval(() => {
    const text = p.output();
    for (const line of text.slice(seen).split('\n'))
      if (/ is (DOWN|UP)|no server available/.test(line))
        proxyLines.push({ at: Date.now(), line: line.trim() });
    seen = text.lastIndexOf('\n') + 1;
  }, 100);
  cleanups.push(() => clearInterval(timer));
}
function proxyEvents(_output: string, killedAt: number) {
  return proxyLines.map((l) => `${l.at - killedAt} ms: ${l.line.replace(/^\[WARNING\]\s+\(\d+\) : /, '')}`);
}

try {
  // ---- the first instance migrates and seeds; the benchmark's devices and sessions ---------------------------
  const first = await addInstance();
  db = openDatabase(database.url);
  const k = db.kysely;
  // The demo's controllers have no simulator here: only the benchmark's are contacted.
  await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
  const admin = await login(first.base, 'admin', ADMIN_PASSWORD);
  const call = <T>(method: string, url: string, body?: unknown) =>
    api<T>(first.base, method, url, { token: admin, area: AREA, body });

  // Door controllers, registered as an installer would (addressed at the kill phase).
  const serials = Array.from({ length: CONTROLLERS }, (_, i) => 423_190_000 + i + 1);
  const registered: { Id: number; SerialNumber: string }[] = [];
  for (let i = 0; i < serials.length; i += 50)
    registered.push(
      ...ok(
        await call<{ Id: number; SerialNumber: string }[]>('POST', '/api/DeviceRegistration', {
          SerialNumbers: serials.slice(i, i + 50).join(','),
          Protocol: 0,
          AreaId: AREA,
        }),
        'register controllers',
      ),
    );
  // Charging hosts of one socket in a zone selling temporary charging, each with an OCPP password, and one
  // vehicle with a card of its own per host.
  const zone = await k
    .selectFrom('ParkArea')
    .innerJoin('ParkAreaChargeRule', 'ParkAreaChargeRule.ParkAreaId', 'ParkArea.Id')
    .innerJoin('ChargeRule', 'ChargeRule.Id', 'ParkAreaChargeRule.ChargeRuleId')
    .select('ParkArea.Id')
    .where('ParkArea.AreaId', '=', AREA)
    .where('ChargeRule.ChargeType', '=', 3)
    .where('ChargeRule.Disabled', '=', 0)
    .where('ChargeRule.MaxDurationMinutes', 'is', null)
    .orderBy('ParkArea.Id')
    .executeTakeFirstOrThrow();
  const hosts: { id: number; serial: string; card: string }[] = [];
  for (let i = 0; i < CHARGERS; i++) {
    const serial = `BENCHCL${String(i + 1).padStart(4, '0')}`;
    const host = ok(
      await call<{ Id: number }>('POST', '/api/ChargeHost', {
        SerialNumber: serial,
        Name: `集群压测充电主机 ${i + 1}`,
        ParkAreaId: zone.Id,
        PortCount: 1,
        ChargingSystemType: 2,
        Endpoint: 'https://api.ev-cloud.example.cn/v2/stations',
        Password: `sk-${serial.toLowerCase()}`,
      }),
      `create host ${serial}`,
    );
    await setOcppPassword(db, host.Id, OCPP_PASSWORD);
    hosts.push({ id: host.Id, serial, card: `98${String(76_000_000 + i).padStart(8, '0')}` });
  }
  const now = Date.now();
  await k
    .insertInto('Vehicle')
    .values(
      hosts.map((h, i) => ({
        AreaId: AREA,
        Plate: `压测${String(i + 1).padStart(4, '0')}`,
        CardNumber: h.card,
        Disabled: 0,
        CreatedAt: now,
        UpdatedAt: now,
      })),
    )
    .execute();
  log(`${registered.length} WG controllers registered, ${hosts.length} OCPP hosts with vehicles`);

  // Operator sessions: signed in once, used on every instance (sessions live in the database). Four logins at
  // a time: the login throttle counts an attempt when it starts, and a burst over its limit is refused (429).
  const sessions: OperatorLoadJob['sessions'] = [];
  for (let i = 0; i < SESSIONS; i += 4)
    sessions.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(4, SESSIONS - i) }, async (_, j) => ({
          token: await login(first.base, 'admin', ADMIN_PASSWORD),
          area: 1 + ((i + j) % 2),
        })),
      )),
    );
  for (const area of [1, 2])
    for (const url of ['/api/DoorOpeningRecord', '/api/ChargeOrder', '/api/ChargeRecord', '/api/CardUser'])
      ok(
        await api(first.base, 'GET', url, { token: sessions[area - 1]!.token, area }),
        `${url} area ${area}`,
      );
  log(`${sessions.length} operator sessions signed in`);

  // ---- 1. throughput of one, two, three instances --------------------------------------------------------
  const throughput: Record<string, unknown>[] = [];
  if (PHASES.has('throughput'))
    for (const n of COUNTS) {
      while (live().length < n) await addInstance();
      const behind = live().slice(0, n);
      proxy = await startProxy(behind);
      await sleep(2000);
      const loadAtStart = loadAverage();
      const load = startOperatorLoad({
        base: proxy.base,
        sessions,
        thinkMs: 0,
        seconds: SECONDS,
        warmupSeconds: WARMUP,
      });
      // CPU of each part from the end of the warm-up to the end.
      const pgPids = async () =>
        (
          await sql<{
            pid: number;
          }>`select pid from pg_stat_activity where datname = ${database.name}`.execute(k)
        ).rows.map((r) => r.pid);
      const sample = async () => ({
        instances: behind.reduce((s, i) => s + cpuMs(i.child.pid!), 0),
        haproxy: cpuMs(proxy!.child.pid!),
        load: cpuMs(load.pid),
        postgres: new Map((await pgPids()).map((pid) => [pid, cpuMs(pid)])),
      });
      await sleep(WARMUP * 1000);
      const before = await sample();
      const result = await load.done;
      const after = await sample();
      const pgMs = [...after.postgres].reduce((s, [pid, ms]) => s + ms - (before.postgres.get(pid) ?? 0), 0);
      const cpu = {
        instances: after.instances - before.instances,
        haproxy: after.haproxy - before.haproxy,
        postgres: pgMs,
        load: after.load - before.load,
      };
      const total = cpu.instances + cpu.haproxy + cpu.postgres + cpu.load;
      const row = {
        instances: n,
        rps: result.rps,
        requests: result.requests,
        p50: result.p50,
        p90: result.p90,
        p99: result.p99,
        max: result.max,
        errors: result.errors,
        writes: result.writes,
        /** CPU seconds per second of the run: cores busy, per part */
        cores: Object.fromEntries(
          Object.entries({ ...cpu, total }).map(([key, ms]) => [
            key,
            Math.round((ms / 1000 / result.seconds) * 100) / 100,
          ]),
        ),
        /** CPU ms per call, per part */
        cpuMsPerCall: Object.fromEntries(
          Object.entries({ ...cpu, total }).map(([key, ms]) => [
            key,
            Math.round((ms / Math.max(1, result.requests)) * 100) / 100,
          ]),
        ),
        loadAverage: `${loadAtStart} → ${loadAverage()}`,
        failures: result.failures.slice(0, 5).map((f) => f.what),
      };
      throughput.push(row);
      log(
        `${n} instance(s): ${result.rps} calls/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ` +
          `${result.errors}; cores busy ${JSON.stringify(row.cores)}; load ${row.loadAverage}`,
      );
      await proxy.stop();
      proxy = undefined;
    }
  figures.throughput = throughput;

  // ---- 2. the kill ----------------------------------------------------------------------------------------
  if (PHASES.has('kill')) {
    while (live().length < 3) await addInstance();
    proxy = await startProxy(live());
    watchProxy(proxy);
    const front = proxy.base;
    const wgPortOf = new Map(instances.map((i) => [i.id, i.wgPort]));

    // Controllers pointed at the simulator and shared out among the three, listeners on their drivers.
    const sim = await WgSimulator.start({
      controllers: serials.map((serial) => ({ serial, recordCapacity: 100_000 })),
    });
    cleanups.push(() => sim.close());
    for (const d of registered) {
      const { host, port } = sim.address(Number(d.SerialNumber));
      await k
        .updateTable('AccessControlDevice')
        .set({ Ip: host, Port: port })
        .where('Id', '=', d.Id)
        .execute();
    }
    const leases = new Leases(db, systemClock);
    const holders = async () => {
      const at = Date.now();
      const byKey = new Map(
        (await leases.list('wg'))
          .filter((l) => l.holder !== null && l.expiresAt > at)
          .map((l) => [l.key, l.holder]),
      );
      return registered.map((d) => ({
        id: d.Id,
        serial: Number(d.SerialNumber),
        holder: byKey.get(String(d.Id)) ?? null,
      }));
    };
    const driven = (h: { serial: number; holder: string | null }) =>
      h.holder !== null && sim.controller(h.serial).listener.port === wgPortOf.get(h.holder);
    const sharedMs = await within(
      async () => {
        const held = await holders();
        const ids = live().map((i) => i.id);
        return (
          held.every((h) => h.holder !== null && ids.includes(h.holder) && driven(h)) &&
          ids.every((id) => held.some((h) => h.holder === id))
        );
      },
      120_000,
      'controllers shared out and their listeners pointed',
      250,
    );
    log(
      `${registered.length} controllers shared out, listeners pointed, in ${(sharedMs / 1000).toFixed(1)} s`,
    );

    // Charge points through the proxy, each charging one session.
    const points: { host: (typeof hosts)[number]; cp: ChargePoint; transactionId: number }[] = [];
    cleanups.push(() =>
      Promise.all(points.map((p) => p.cp.close().catch(() => undefined))).then(() => undefined),
    );
    for (let i = 0; i < hosts.length; i += 10)
      await Promise.all(
        hosts.slice(i, i + 10).map(async (host) => {
          const cp = new ChargePoint({
            url: `${front.replace(/^http/, 'ws')}/ocpp`,
            id: host.serial,
            password: OCPP_PASSWORD,
            connectors: 1,
            timers: false,
          });
          await cp.goOnline();
          await within(async () => cp.bootStatus === 'Accepted', 30_000, `${host.serial} booted`);
          await cp.plugIn(1, { soc: 0.2 });
          const started = await cp.swipe(1, host.card);
          if (started.status !== 'Accepted' || started.transactionId === undefined)
            throw new Error(`${host.serial}: the card was not accepted (${started.status})`);
          points.push({ host, cp, transactionId: started.transactionId });
        }),
      );
    const hostIds = hosts.map((h) => h.id);
    const hostRows = () =>
      k
        .selectFrom('ChargeHost')
        .select(['Id', 'OcppOnline', 'OcppInstance'])
        .where('Id', 'in', hostIds)
        .execute();
    await within(
      async () => (await hostRows()).every((h) => h.OcppOnline === 1 && h.OcppInstance !== null),
      30_000,
      'charge points online',
      100,
    );
    log(`${points.length} charge points online through the proxy, each charging`);

    // The load: swipes, meter values every 10 s, the operator sessions at a human pace.
    const controllers = registered.map((d) => Number(d.SerialNumber));
    let swiped = 0;
    const swipingFrom = performance.now();
    const swiping = setInterval(() => {
      const due = Math.floor((SWIPES * (performance.now() - swipingFrom)) / 1000);
      for (; swiped < due; swiped++)
        sim.swipe(controllers[swiped % controllers.length]!, 7000 + (swiped % 50), 1);
    }, 10);
    cleanups.push(() => clearInterval(swiping));
    const metering = setInterval(() => {
      for (const p of points) void p.cp.advance(10).catch(() => undefined);
    }, 10_000);
    cleanups.push(() => clearInterval(metering));
    const load = startOperatorLoad({
      base: front,
      sessions,
      thinkMs: THINK_MS,
      seconds: null,
      warmupSeconds: 0,
    });
    await sleep(20_000);

    // Export jobs, created through the proxy just before the kill.
    const resources = ['Vehicle', 'CardUser', 'AccessControlDevice', 'Department', 'Role'];
    const jobIds: number[] = [];
    for (let i = 0; i < EXPORTS; i++)
      jobIds.push(
        ok(
          await api<{ Id: number }>(front, 'POST', '/api/ExportJob', {
            token: admin,
            area: AREA,
            body: { Resource: resources[i % resources.length], Query: {} },
          }),
          'create an export job',
        ).Id,
      );

    // The victim: the instance holding the most of the benchmark's controllers and charge points.
    const heldBefore = await holders();
    const hostsBefore = await hostRows();
    const holding = new Map(live().map((i) => [i.id, { controllers: 0, chargePoints: 0 }]));
    for (const h of heldBefore) if (h.holder) holding.get(h.holder)!.controllers++;
    for (const h of hostsBefore) if (h.OcppInstance) holding.get(h.OcppInstance)!.chargePoints++;
    const [victimId] = [...holding.entries()].sort(
      (x, y) => y[1].controllers + y[1].chargePoints - (x[1].controllers + x[1].chargePoints),
    )[0]!;
    const victim = instances.find((i) => i.id === victimId)!;
    const victimControllers = heldBefore.filter((h) => h.holder === victimId);
    const victimHosts = hostsBefore.filter((h) => h.OcppInstance === victimId).map((h) => h.Id);
    const energyBefore = new Map(
      (
        await k
          .selectFrom('ChargeRecord')
          .select(['Id', 'EnergyWh'])
          .where(
            'Id',
            'in',
            points.map((p) => p.transactionId),
          )
          .execute()
      ).map((r) => [r.Id, r.EnergyWh]),
    );
    const loadAtKill = loadAverage();
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    // The process is gone (its sockets reset) when its exit is seen, not when the signal is sent.
    const exitedAt = Date.now();
    log(
      `SIGKILL ${victimId} (held ${victimControllers.length} controllers, ${victimHosts.length} charge points; ` +
        `holdings ${JSON.stringify(Object.fromEntries(holding))}); load ${loadAtKill}`,
    );
    const exportsAtKill = await k
      .selectFrom('ExportJob')
      .select(['Status', sql<number>`count(*)`.as('n')])
      .where('Id', 'in', jobIds)
      .groupBy('Status')
      .execute();

    const since = () => Date.now() - killedAt;
    const survivors = live().map((i) => i.id);
    const taken = (what: string, check: () => Promise<boolean>) =>
      within(check, 90_000, what, 50).then(
        () => since(),
        () => null,
      );
    const [leasesTakenMs, listenersTakenMs, chargePointsMs] = await Promise.all([
      taken('victim controllers leased by another instance', async () =>
        (await holders())
          .filter((h) => victimControllers.some((v) => v.id === h.id))
          .every((h) => h.holder !== null && survivors.includes(h.holder)),
      ),
      taken('victim controllers pointed at another instance', async () =>
        (await holders())
          .filter((h) => victimControllers.some((v) => v.id === h.id))
          .every((h) => h.holder !== null && survivors.includes(h.holder) && driven(h)),
      ),
      taken('victim charge points online on another instance', async () =>
        (await hostRows())
          .filter((h) => victimHosts.includes(h.Id))
          .every((h) => h.OcppOnline === 1 && h.OcppInstance !== null && survivors.includes(h.OcppInstance)),
      ),
    ]);
    log(
      `taken over: controllers leased ${leasesTakenMs} ms, listeners pointed ${listenersTakenMs} ms, charge ` +
        `points online elsewhere ${chargePointsMs} ms after the kill`,
    );

    // The load goes on a while after the takeover, then stops.
    await sleep(15_000);
    const operator: OperatorLoadResult = await load.stop();
    clearInterval(swiping);
    const inFlight = operator.failures.filter((f) => f.start < exitedAt && f.end >= killedAt);
    const afterKill = operator.failures.filter((f) => f.start >= exitedAt);
    const beforeKill = operator.failures.filter((f) => f.end < killedAt);
    log(
      `operator load: ${operator.requests} calls, ${operator.errors} failed (${inFlight.length} in flight at the ` +
        `kill, ${afterKill.length} started after it, ${beforeKill.length} before it)`,
    );

    // Swipes: every one stored once per controller.
    const expected = new Map(registered.map((d) => [d.Id, sim.controller(Number(d.SerialNumber)).lastIndex]));
    const stored = async () =>
      k
        .selectFrom('DoorOpeningRecord')
        .select([
          'DeviceId',
          sql<number>`count(*)`.as('n'),
          sql<number>`count(distinct "RecordIndex")`.as('d'),
        ])
        .where(
          'DeviceId',
          'in',
          registered.map((d) => d.Id),
        )
        .where('RecordIndex', 'is not', null)
        .groupBy('DeviceId')
        .execute();
    const collectedMs = await within(
      async () => {
        const got = await stored();
        return registered.every(
          (d) => Number(got.find((g) => g.DeviceId === d.Id)?.n ?? 0) >= expected.get(d.Id)!,
        );
      },
      120_000,
      'every swipe collected',
      100,
    ).catch(() => null);
    await sleep(3000);
    const final = await stored();
    const wrong = registered.filter((d) => {
      const g = final.find((x) => x.DeviceId === d.Id);
      return Number(g?.n ?? 0) !== expected.get(d.Id) || Number(g?.d ?? 0) !== expected.get(d.Id);
    });
    const swipesMade = [...expected.values()].reduce((a, b) => a + b, 0);
    const swipesStored = final.reduce((a, g) => a + Number(g.n), 0);
    log(
      `swipes: ${swipesMade} made, ${swipesStored} stored; controllers not exactly once: ${wrong.length}` +
        ` (collected ${collectedMs === null ? 'not within 120 s' : `${Math.round(collectedMs)} ms after the stop`})`,
    );

    // Exports: each done, one file each.
    const exportsDoneMs = await within(
      async () => {
        const rows = await k.selectFrom('ExportJob').select('Status').where('Id', 'in', jobIds).execute();
        return rows.every((r) => r.Status === 'done' || r.Status === 'failed');
      },
      240_000,
      'export jobs finished',
      200,
    ).then(
      () => since(),
      () => null,
    );
    const jobs = await k
      .selectFrom('ExportJob')
      .select(['Id', 'Status', 'Error'])
      .where('Id', 'in', jobIds)
      .execute();
    const files = await k
      .selectFrom('ExportFile')
      .select(['JobId', sql<number>`count(*)`.as('n')])
      .where('JobId', 'in', jobIds)
      .groupBy('JobId')
      .execute();
    const exportsOnce =
      jobs.every((j) => j.Status === 'done') &&
      jobIds.every((id) => Number(files.find((f) => f.JobId === id)?.n ?? 0) === 1);
    log(
      `exports: ${jobs.filter((j) => j.Status === 'done').length}/${jobIds.length} done, files ${files.length}, ` +
        `exactly once ${exportsOnce} (all finished ${exportsDoneMs} ms after the kill)`,
    );

    // Sessions: none closed once the offline grace has passed since the kill, and still metered.
    await sleep(Math.max(0, killedAt + (GRACE + 20) * 1000 - Date.now()));
    clearInterval(metering);
    await Promise.all(points.map((p) => p.cp.advance(10).catch(() => undefined)));
    await sleep(1000);
    const records = await k
      .selectFrom('ChargeRecord')
      .select(['Id', 'EndAt', 'StopReason', 'EnergyWh'])
      .where(
        'Id',
        'in',
        points.map((p) => p.transactionId),
      )
      .execute();
    const closed = records.filter((r) => r.EndAt !== null);
    const victimTx = new Set(
      points.filter((p) => victimHosts.includes(p.host.id)).map((p) => p.transactionId),
    );
    const victimMetered = records.filter(
      (r) => victimTx.has(r.Id) && r.EnergyWh > (energyBefore.get(r.Id) ?? Number.MAX_SAFE_INTEGER),
    ).length;
    log(
      `charging: ${records.length} sessions, ${closed.length} closed ${since()} ms after the kill (grace ${GRACE} s); ` +
        `the victim's ${victimTx.size} sessions metered on since: ${victimMetered}`,
    );

    figures.kill = {
      victim: victimId,
      exitSeenMsAfterSignal: exitedAt - killedAt,
      holdings: Object.fromEntries(holding),
      loadAverageAtKill: loadAtKill,
      loadAverageAfter: loadAverage(),
      controllers: CONTROLLERS,
      victimControllers: victimControllers.length,
      controllerLeasesTakenMs: leasesTakenMs,
      controllerListenersTakenMs: listenersTakenMs,
      chargePoints: points.length,
      victimChargePoints: victimHosts.length,
      chargePointsOnlineElsewhereMs: chargePointsMs,
      operator: {
        sessions: SESSIONS,
        thinkMs: THINK_MS,
        calls: operator.requests,
        rps: operator.rps,
        p50: operator.p50,
        p99: operator.p99,
        max: operator.max,
        errors: operator.errors,
        /** started before the victim's exit was seen, ended after the signal */
        errorsInFlightAtKill: inFlight.length,
        errorsStartedAfterKill: afterKill.length,
        errorsBeforeKill: beforeKill.length,
        /** failed calls by what failed and when: before the kill, in flight at it, started after it */
        failures: summarise(operator.failures, killedAt, exitedAt),
        perSecondAroundKill: operator.perSecond.slice(
          Math.max(0, Math.floor((killedAt - operator.startedAt) / 1000) - 3),
          Math.floor((killedAt - operator.startedAt) / 1000) + 10,
        ),
      },
      /** HAProxy's server state changes (its health checks), ms from the kill */
      proxyEvents: proxyEvents(proxy.output(), killedAt),
      swipes: {
        rate: SWIPES,
        made: swipesMade,
        stored: swipesStored,
        controllersNotExactlyOnce: wrong.length,
        collectedAfterStopMs: collectedMs === null ? null : Math.round(collectedMs),
      },
      exports: {
        jobs: jobIds.length,
        atKill: Object.fromEntries(exportsAtKill.map((r) => [r.Status, Number(r.n)])),
        done: jobs.filter((j) => j.Status === 'done').length,
        files: files.length,
        exactlyOnce: exportsOnce,
        allFinishedMsAfterKill: exportsDoneMs,
        errors: jobs.filter((j) => j.Error).map((j) => j.Error),
      },
      charging: {
        sessions: records.length,
        closedAfterGrace: closed.length,
        closedReasons: closed.map((r) => r.StopReason),
        checkedMsAfterKill: since(),
        graceSeconds: GRACE,
        victimSessions: victimTx.size,
        victimSessionsMeteredAfterKill: victimMetered,
      },
    };
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await proxy?.stop();
  await Promise.all(instances.map(stopInstance));
  await db?.close();
  await database.drop();
}

// ---- report ------------------------------------------------------------------------------------------------
const rows = (figures.throughput ?? []) as {
  instances: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cores: Record<string, number>;
  cpuMsPerCall: Record<string, number>;
  loadAverage: string;
}[];
if (rows.length) {
  console.log(
    `\n| instances | calls/s | p50 ms | p99 ms | errors | cores busy: instances / HAProxy / PostgreSQL / load generator / total | CPU ms per call (total) | load average |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.instances} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.cores.instances} / ${r.cores.haproxy} / ` +
        `${r.cores.postgres} / ${r.cores.load} / ${r.cores.total} | ${r.cpuMsPerCall.total} | ${r.loadAverage} |`,
    );
  const one = rows.find((r) => r.instances === 1);
  if (one)
    for (const r of rows)
      if (r !== one)
        console.log(`${r.instances} instances / 1: ${(r.rps / one.rps).toFixed(2)}x the calls per second`);
}
const kill = figures.kill as Record<string, unknown> | undefined;
if (kill) {
  console.log('\n| kill of the busiest of three | figure |');
  console.log('|---|---|');
  const flat = (prefix: string, o: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(o)) {
      if (value && typeof value === 'object' && !Array.isArray(value))
        flat(`${prefix}${key}.`, value as Record<string, unknown>);
      else console.log(`| ${prefix}${key} | ${JSON.stringify(value)} |`);
    }
  };
  flat('', kill);
}
figures.loadAverageAtEnd = loadAverage();
figures.cores = os.cpus().length;
console.log(JSON.stringify(figures));
