// The scripted operator load of the cluster benchmark (bench/cluster.ts): signed-in operator sessions, each a
// loop of API calls (mostly list reads: swipe records, charging orders and sessions, devices, hosts, vehicles,
// holders; a few writes: an operator staff row created), in a process of its own so it does not share the
// benchmark's event loop with the simulated devices. Started by startOperatorLoad(); this file is also the
// child's entry point.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface OperatorLoadJob {
  /** the proxy's base URL */
  base: string;
  sessions: { token: string; area: number }[];
  /** mean pause between a session's calls (0: closed loop, as fast as answered); uniform in [0, 2 × think] */
  thinkMs: number;
  /** stop by itself after this many seconds (null: when told) */
  seconds: number | null;
  /** calls that finish in the first seconds are not counted (the proxy and instances warm up) */
  warmupSeconds: number;
}

export interface Failure {
  /** epoch ms (this machine's clock, shared by every process) */
  start: number;
  end: number;
  what: string;
}

export interface OperatorLoadResult {
  /** counted calls (after the warm-up) */
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  writes: number;
  /** every failed call, warm-up included */
  failures: Failure[];
  /** calls finished per second since the start (warm-up included): ok and failed */
  perSecond: { ok: number; failed: number }[];
  startedAt: number;
  endedAt: number;
}

interface Route {
  name: string;
  share: number;
  method: 'GET' | 'POST';
  path: (page: number) => string;
  body?: (n: number) => unknown;
}

/** The script: what one operator call is, by share. */
const ROUTES: Route[] = [
  {
    name: 'swipe records',
    share: 20,
    method: 'GET',
    path: (p) => `/api/DoorOpeningRecord?PageIndex=${p}&PageSize=20`,
  },
  {
    name: 'charging orders',
    share: 15,
    method: 'GET',
    path: (p) => `/api/ChargeOrder?PageIndex=${p}&PageSize=20`,
  },
  {
    name: 'charging sessions',
    share: 10,
    method: 'GET',
    path: (p) => `/api/ChargeRecord?PageIndex=${p}&PageSize=20`,
  },
  {
    name: 'door controllers',
    share: 15,
    method: 'GET',
    path: (p) => `/api/AccessControlDevice?PageIndex=${p}&PageSize=20`,
  },
  {
    name: 'charging hosts',
    share: 10,
    method: 'GET',
    path: (p) => `/api/ChargeHost?PageIndex=${p}&PageSize=20`,
  },
  { name: 'vehicles', share: 10, method: 'GET', path: (p) => `/api/Vehicle?PageIndex=${p}&PageSize=20` },
  { name: 'card holders', share: 10, method: 'GET', path: (p) => `/api/CardUser?PageIndex=${p}&PageSize=20` },
  { name: 'own user', share: 5, method: 'GET', path: () => '/api/AppUser/Info' },
  {
    name: 'create operator staff',
    share: 5,
    method: 'POST',
    path: () => '/api/OperatorStaff',
    body: (n) => ({ Name: `压测值班员 ${n}`, StaffType: n % 3, Remark: 'bench/cluster.ts' }),
  },
];

export const SCRIPT = ROUTES.map((r) => `${r.share}% ${r.method} ${r.path(1).split('?')[0]} (${r.name})`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function run(job: OperatorLoadJob, stopped: Promise<void>): Promise<OperatorLoadResult> {
  const target = new URL(job.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const total = ROUTES.reduce((s, r) => s + r.share, 0);
  // A fixed pseudo-random sequence: the same script for every run.
  let seed = 19;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = () => {
    let x = random() * total;
    for (const r of ROUTES) if ((x -= r.share) < 0) return r;
    return ROUTES[0]!;
  };
  const call = (route: Route, token: string, area: number, n: number) =>
    new Promise<number>((resolve, reject) => {
      const body = route.body ? JSON.stringify(route.body(n)) : undefined;
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: route.method,
          path: route.path(1 + (n % 3)),
          agent,
          timeout: 30_000,
          headers: {
            authorization: `Bearer ${token}`,
            'x-area-id': String(area),
            ...(body
              ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
              : {}),
          },
        },
        (res) => {
          res.on('error', reject);
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout (30 s)')));
      req.on('error', reject);
      req.end(body);
    });

  let stopping = false;
  void stopped.then(() => (stopping = true));
  const startedAt = Date.now();
  const countFrom = startedAt + job.warmupSeconds * 1000;
  const deadline = job.seconds === null ? Infinity : countFrom + job.seconds * 1000;
  const latencies: number[] = [];
  const failures: Failure[] = [];
  const perSecond: { ok: number; failed: number }[] = [];
  let errors = 0;
  let writes = 0;
  let n = 0;
  const now = () => performance.timeOrigin + performance.now();
  const session = async (s: { token: string; area: number }) => {
    if (job.thinkMs > 0) await new Promise((r) => setTimeout(r, random() * 2 * job.thinkMs));
    while (!stopping && Date.now() < deadline) {
      const route = pick();
      const start = now();
      let failed: string | undefined;
      try {
        const status = await call(route, s.token, s.area, n++);
        if (status < 200 || status > 299) failed = `${route.method} ${route.name}: HTTP ${status}`;
      } catch (error) {
        failed = `${route.method} ${route.name}: ${(error as Error).message}`;
      }
      const end = now();
      const second = Math.floor((end - startedAt) / 1000);
      while (perSecond.length <= second) perSecond.push({ ok: 0, failed: 0 });
      if (failed) {
        failures.push({ start, end, what: failed });
        perSecond[second]!.failed++;
      } else perSecond[second]!.ok++;
      if (end >= countFrom && end <= deadline) {
        latencies.push(end - start);
        if (failed) errors++;
        if (route.method !== 'GET') writes++;
      }
      if (job.thinkMs > 0) await new Promise((r) => setTimeout(r, random() * 2 * job.thinkMs));
    }
  };
  await Promise.all(job.sessions.map(session));
  const endedAt = Date.now();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const seconds = (Math.min(endedAt, deadline) - countFrom) / 1000;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    rps: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? Number.NaN),
    writes,
    failures,
    perSecond,
    startedAt,
    endedAt,
  };
}

export interface OperatorLoad {
  pid: number;
  /** tells the sessions to stop after their call in flight; resolves with the figures */
  stop(): Promise<OperatorLoadResult>;
  /** resolves when the load ends by itself (job.seconds) or after stop() */
  done: Promise<OperatorLoadResult>;
}

/** Runs `job` in a child process (this file). */
export function startOperatorLoad(job: OperatorLoadJob): OperatorLoad {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const done = new Promise<OperatorLoadResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as OperatorLoadResult));
    child.once('exit', (code) => {
      process.removeListener('exit', orphaned);
      reject(new Error(`the operator load exited (${code}) without its figures`));
    });
  });
  child.send(job);
  return {
    pid: child.pid!,
    done,
    stop() {
      if (child.connected) child.send('stop');
      return done;
    },
  };
}

// The child: one job from the parent, figures back, exit.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.on('message', (message) => {
    if (message === 'stop') return stop();
    void run(message as OperatorLoadJob, stopped).then((result) =>
      process.send!(result, () => process.disconnect()),
    );
  });
}
