/**
 * Soak (issue "Hold under attack and faults", item 5): BENCH_SESSIONS scripted operator sessions for
 * BENCH_MINUTES against the real server (main.ts, a process of its own, SQLite, the full demo at
 * BENCH_DEMO_SCALE). Each session logs in as a demo user, loads what the web app loads after login, then
 * loops over what that user's screens do, with think time between steps: lists with filters and pages,
 * details, its own objects created, changed and deleted, exports queued, polled and downloaded, and a few
 * calls the server must refuse (another area, a permission the user lacks). Sessions start spread over the
 * first 30 s and log out at the end.
 * Printed: every call's status against what was expected (aim: 0 errors, i.e. no 5xx and no non-2xx that is
 * not an intended refusal), latency percentiles overall and per kind of call, and per minute the calls, the
 * errors, p99 and the server's RSS, heap and CPU.
 * Usage: npm run bench:soak   [BENCH_SESSIONS=200] [BENCH_MINUTES=10] [BENCH_THINK=1-5 (seconds)]
 *        [BENCH_DEMO_SCALE=1]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD } from '../packages/server/src/demo/catalog.ts';
import {
  api,
  cpuShare,
  loadAverage,
  machine,
  mb,
  percentile,
  sleep,
  type CallOptions,
  type Reply,
} from './support/measure.ts';
import { startBenchServer, type ServerSample } from './support/server.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const [THINK_MIN, THINK_MAX] = (process.env.BENCH_THINK ?? '1-5').split('-').map((s) => Number(s) * 1000) as [
  number,
  number,
];
const DEMO_SCALE = process.env.BENCH_DEMO_SCALE ?? '1';
const RAMP_MS = Math.min(30_000, (MINUTES * 60_000) / 4);
const DAY = 86_400_000;

console.log(
  `Soak: ${SESSIONS} operator sessions for ${MINUTES} min, think time ${THINK_MIN / 1000}–${THINK_MAX / 1000} s, ` +
    `demo scale ${DEMO_SCALE}; SQLite (WAL), ${machine()}; load average at start ${loadAverage()}`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-soak-'));
const t = performance.now();
const server = await startBenchServer({
  databasePath: path.join(dir, 'soak.db'),
  env: { SEED: 'demo', DEMO_SCALE, ADMIN_PASSWORD: 'Soak#Admin2026' },
  timeoutMs: 300_000,
});
console.log(`server seeded and listening after ${((performance.now() - t) / 1000).toFixed(0)} s`);

// ---- bookkeeping: every call against what was expected ------------------------------------------------------
interface Minute {
  calls: number;
  errors: number;
  refusals: number;
  ms: number[];
}
const minutes: Minute[] = [];
const byKind = new Map<string, number[]>();
const errors = new Map<string, number>();
const statuses = new Map<number, number>();
let refusals = 0;
let calls = 0;
let started = 0;

const minute = () => {
  const i = Math.floor((performance.now() - started) / 60_000);
  while (minutes.length <= i) minutes.push({ calls: 0, errors: 0, refusals: 0, ms: [] });
  return minutes[i]!;
};
/** "GET /api/CardUser/:Id": the kind of call, for the per-kind percentiles. */
const kindOf = (method: string, url: string) => `${method} ${url.split('?')[0]!.replace(/\/\d+/g, '/:Id')}`;

class Session {
  token = '';
  area = 1;
  seq = 0;
  constructor(
    readonly n: number,
    readonly role: Role,
  ) {}

  /** One call; a status outside `expect` is an error (200 only, unless a refusal is the point). */
  async call<T = unknown>(
    method: string,
    url: string,
    options: Omit<CallOptions, 'token'> = {},
    expect: number[] = [200],
  ): Promise<Reply<T> | undefined> {
    const kind = kindOf(method, url);
    const m = minute();
    let reply: Reply<T>;
    try {
      reply = await api<T>(server.url, method, url, { token: this.token, area: this.area, ...options });
    } catch (error) {
      calls++;
      m.calls++;
      m.errors++;
      const key = `${kind}: ${String(error).slice(0, 100)}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
      return undefined;
    }
    calls++;
    m.calls++;
    m.ms.push(reply.ms);
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    const kindMs = byKind.get(kind) ?? [];
    if (kindMs.length === 0) byKind.set(kind, kindMs);
    kindMs.push(reply.ms);
    if (!expect.includes(reply.status)) {
      m.errors++;
      const key = `${kind} -> ${reply.status} ${reply.msg.slice(0, 100)} (${this.role.user})`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
      return undefined;
    }
    if (reply.status !== 200) {
      refusals++;
      m.refusals++;
    }
    return reply;
  }

  async list<T = { Id: number }>(url: string, query: CallOptions['query'] = {}): Promise<T[]> {
    const reply = await this.call<{ Items: T[] }>('GET', url, {
      query: { PageIndex: 1, PageSize: 20, ...query },
    });
    return reply?.data.Items ?? [];
  }

  /** A list, then the detail of one of its rows, as a click on a row does. */
  async browse(url: string, query: CallOptions['query'] = {}): Promise<void> {
    const items = await this.list(url, { PageIndex: 1 + Math.floor(Math.random() * 3), ...query });
    const item = pick(items);
    // Another operator (another session of the same user) may have deleted the row since it was listed.
    if (item) await this.call('GET', `${url}/${item.Id}`, {}, [200, 404]);
  }

  /** A unique name for an object of this session's own. */
  name(prefix: string): string {
    return `${prefix}-${this.n}-${++this.seq}`;
  }
}

type Action = [weight: number, run: (s: Session) => Promise<void>];
interface Role {
  user: string;
  sessions: number;
  /** areas the user may switch between */
  areas: number[];
  actions: Action[];
}

const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const iso = (ms: number) => new Date(ms).toISOString();
const lastDays = (days: number) => ({ StartTime: iso(Date.now() - days * DAY), EndTime: iso(Date.now()) });
const SURNAMES = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚';
const chineseName = (n: number) =>
  `${SURNAMES[n % SURNAMES.length]}${GIVEN[(n * 7) % GIVEN.length]}${GIVEN[(n * 13 + 5) % GIVEN.length]}`;
let plates = 0;

/** Queue an export, wait for it as the export screen does, download it. */
async function exportFlow(s: Session, resource: string, query: Record<string, string>): Promise<void> {
  const job = await s.call<{ Id: number }>('POST', '/api/ExportJob', {
    body: { Resource: resource, Query: query },
  });
  if (!job) return;
  for (let i = 0; i < 60; i++) {
    await sleep(1000);
    const state = await s.call<{ Status: string }>('GET', `/api/ExportJob/${job.data.Id}`);
    if (!state || state.data.Status === 'failed') return;
    if (state.data.Status === 'done') {
      await s.call('GET', `/api/ExportJob/${job.data.Id}/Download`);
      return;
    }
  }
}

const accessControl: Action[] = [
  [4, (s) => s.browse('/api/CardUser', pick([{}, { Keyword: '王' }, { Name: '李' }, { Disabled: false }]))],
  [
    4,
    async (s) =>
      void (await s.list('/api/DoorOpeningRecord', {
        ...lastDays(7),
        PageIndex: 1 + Math.floor(Math.random() * 20),
      })),
  ],
  [2, async (s) => void (await s.list('/api/DoorOpeningRecord', { ...lastDays(1), Result: false }))],
  [2, (s) => s.browse('/api/CardUserLinkChannel')],
  [1, async (s) => void (await s.call('GET', '/api/CardUserLinkChannel/DeviceStatusCounts'))],
  [1, (s) => s.browse('/api/AccessControlDevice')],
  [1, async (s) => void (await s.list('/api/AccessControlChannel'))],
  [1, (s) => s.browse('/api/Card')],
  [1, (s) => s.browse('/api/ChangeRecord')],
  [
    2,
    async (s) => {
      const base = { ValidFrom: iso(Date.now() - DAY), ValidTo: iso(Date.now() + 180 * DAY) };
      const created = await s.call<{ Id: number }>('POST', '/api/CardUser', {
        body: { Name: chineseName(s.n + s.seq++), Remark: s.name('soak'), ...base },
      });
      if (!created) return;
      await sleep(THINK_MIN);
      await s.call('PUT', '/api/CardUser', {
        body: { Id: created.data.Id, Name: chineseName(s.n + s.seq++), Phone: '13800138000', ...base },
      });
      await s.call('GET', `/api/CardUser/${created.data.Id}`);
      await s.call('DELETE', `/api/CardUser/${created.data.Id}`);
    },
  ],
];

const garage: Action[] = [
  [3, (s) => s.browse('/api/ChargeOrder', pick([lastDays(7), lastDays(30), { PaymentState: 1 }]))],
  [3, (s) => s.browse('/api/ChargeRecord', lastDays(7))],
  [2, (s) => s.browse('/api/ParkOrder', lastDays(7))],
  [
    3,
    async (s) => {
      const host = pick(await s.list('/api/ChargeHost'));
      if (host) await s.call('GET', '/api/ChargeEquipment/Grid', { query: { ChargeHostId: host.Id } });
    },
  ],
  [1, async (s) => void (await s.list('/api/ChargeEquipment', { StateGroup: 'occupied' }))],
  [1, async (s) => void (await s.call('GET', '/api/GarageDashboard'))],
  [2, (s) => s.browse('/api/Vehicle')],
  [1, (s) => s.browse('/api/ForcedOutageRecord')],
  [1, (s) => s.browse('/api/ChargeRule')],
  [
    2,
    async (s) => {
      // 琼Z plus five base-36 digits: unique across sessions and far from the demo's plates.
      const plate = `琼Z${(++plates).toString(36).toUpperCase().padStart(5, '0')}`;
      const created = await s.call<{ Id: number }>('POST', '/api/Vehicle', {
        body: { Plate: plate, OwnerName: chineseName(s.n), Phone: '13900139000' },
      });
      if (!created) return;
      await sleep(THINK_MIN);
      await s.call('PUT', '/api/Vehicle', {
        body: { Id: created.data.Id, Plate: plate, OwnerName: chineseName(s.n + 1), Remark: s.name('soak') },
      });
      await s.call('DELETE', `/api/Vehicle/${created.data.Id}`);
    },
  ],
];

/** Create, rename, delete: the CRUD of a simple named list. */
const named =
  (url: string, extra: Record<string, unknown> = {}) =>
  async (s: Session) => {
    const created = await s.call<{ Id: number }>('POST', url, { body: { Name: s.name('压测'), ...extra } });
    if (!created) return;
    await sleep(THINK_MIN);
    await s.call('PUT', url, { body: { Id: created.data.Id, Name: s.name('压测改'), ...extra } });
    await s.call('DELETE', `${url}/${created.data.Id}`);
  };

const ROLES: Role[] = [
  {
    user: 'acadmin',
    sessions: 30,
    areas: [1, 2],
    actions: [...accessControl, [1, (s) => exportFlow(s, 'CardUser', {})]],
  },
  {
    user: 'acuser',
    sessions: 30,
    areas: [1],
    // acuser operates area 1 only: area 2 must be refused.
    actions: [
      ...accessControl,
      [1, async (s) => void (await s.call('GET', '/api/CardUser', { area: 2 }, [403]))],
    ],
  },
  {
    user: 'bikeadmin',
    sessions: 30,
    areas: [1, 2],
    actions: [...garage, [1, (s) => exportFlow(s, 'ChargeOrder', lastDays(3) as Record<string, string>)]],
  },
  { user: 'bikeuser', sessions: 30, areas: [1], actions: garage },
  {
    user: 'deptadmin',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, async (s) => void (await s.call('GET', '/api/Department/Tree'))],
      [2, (s) => s.browse('/api/Department')],
      [2, named('/api/Department')],
    ],
  },
  {
    user: 'deptuser',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, async (s) => void (await s.call('GET', '/api/Department/Tree'))],
      [2, (s) => s.browse('/api/Department')],
      // Read-only: a create must be refused.
      [
        1,
        async (s) => void (await s.call('POST', '/api/Department', { body: { Name: s.name('x') } }, [403])),
      ],
    ],
  },
  {
    user: 'groupadmin',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [2, (s) => s.browse('/api/PeopleGroup')],
      [2, (s) => s.browse('/api/PeopleType')],
      [1, named('/api/PeopleGroup')],
      [1, named('/api/PeopleType')],
    ],
  },
  {
    user: 'useradmin',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, (s) => s.browse('/api/AppUser', pick([{}, { Keyword: 'admin' }]))],
      [1, async (s) => void (await s.call('GET', '/api/AppUser/Locks'))],
      [1, async (s) => void (await s.call('GET', '/api/Options/Roles'))],
    ],
  },
  {
    user: 'operatorconfig',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, (s) => s.browse('/api/OperatorStaff')],
      [1, named('/api/OperatorStaff', { StaffType: 0 })],
    ],
  },
  {
    user: 'superadmin',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, (s) => s.browse('/api/AuditLog')],
      [1, (s) => s.browse('/api/DeviceRegistration')],
      [1, (s) => s.browse('/api/CardRegistration')],
      [1, async (s) => void (await s.call('GET', '/api/Settings'))],
      [1, (s) => s.browse('/api/AreaInfo')],
    ],
  },
  {
    user: 'roleadmin',
    sessions: 5,
    areas: [1, 2],
    actions: [
      [2, (s) => s.browse('/api/Role')],
      [1, async (s) => void (await s.call('GET', '/api/Resource/Tree'))],
    ],
  },
  {
    user: 'areaadmin',
    sessions: 5,
    areas: [1, 2],
    actions: [
      [2, (s) => s.browse('/api/AreaInfo')],
      [1, async (s) => void (await s.call('GET', '/api/AreaInfo/Users', { query: { Id: s.area } }))],
    ],
  },
  {
    user: 'exporter',
    sessions: 10,
    areas: [1, 2],
    actions: [
      [3, async (s) => void (await s.list('/api/ExportJob'))],
      [
        1,
        async (s) => {
          const done = (await s.list<{ Id: number; Status: string }>('/api/ExportJob')).filter(
            (j) => j.Status === 'done',
          );
          const job = pick(done);
          if (job) await s.call('GET', `/api/ExportJob/${job.Id}/Download`);
        },
      ],
    ],
  },
];

/** Sessions by role in proportion to the table above, SESSIONS in all. */
const roleTotal = ROLES.reduce((sum, r) => sum + r.sessions, 0);
const sessions: Session[] = Array.from({ length: SESSIONS }, (_, n) => {
  let slot = ((n * roleTotal) / SESSIONS) % roleTotal;
  const role = ROLES.find((r) => (slot -= r.sessions) < 0) ?? ROLES[0]!;
  return new Session(n, role);
});

async function run(s: Session, end: number): Promise<void> {
  await sleep((RAMP_MS * s.n) / SESSIONS);
  const logged = await s.call<{ token: string }>('POST', '/api/Auth/login', {
    body: { username: s.role.user, password: DEMO_PASSWORD },
  });
  if (!logged) return;
  s.token = logged.data.token;
  // What the web app loads after login.
  await s.call('GET', '/api/AppUser/Info');
  await s.call('GET', '/api/Auth/Resource');
  await s.call('GET', '/api/Settings/Public');
  const weights = s.role.actions.reduce((sum, [w]) => sum + w, 0);
  while (performance.now() < end) {
    if (Math.random() < 0.05) s.area = pick(s.role.areas)!;
    let r = Math.random() * weights;
    const action = s.role.actions.find(([w]) => (r -= w) < 0) ?? s.role.actions[0]!;
    await action[1](s);
    await sleep(THINK_MIN + Math.random() * (THINK_MAX - THINK_MIN));
  }
  await s.call('POST', '/api/Auth/logout');
}

// ---- the run, with the server sampled every 10 s --------------------------------------------------------------
const samples: ServerSample[] = [await server.sample()];
const sampler = setInterval(
  () =>
    void server.sample().then(
      (s) => samples.push(s),
      () => undefined,
    ),
  10_000,
);
started = performance.now();
const end = started + MINUTES * 60_000;
await Promise.all(sessions.map((s) => run(s, end)));
clearInterval(sampler);
samples.push(await server.sample());
const elapsed = (performance.now() - started) / 1000;

// ---- report ---------------------------------------------------------------------------------------------------------
const all = minutes.flatMap((m) => m.ms);
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
console.log(`\n| figure | value |`);
console.log('|---|---|');
console.log(`| sessions / duration | ${SESSIONS} / ${(elapsed / 60).toFixed(1)} min |`);
console.log(`| calls | ${calls.toLocaleString('en')} (${(calls / elapsed).toFixed(0)}/s) |`);
console.log(`| errors (unexpected status or no answer) | **${errorCount}**, of which 5xx: ${fiveXx} |`);
console.log(`| intended refusals answered as expected | ${refusals} |`);
console.log(
  `| statuses | ${[...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ')} |`,
);
console.log(
  `| latency, all calls | p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms, **p99 ${percentile(all, 99).toFixed(0)} ms**, max ${percentile(all, 100).toFixed(0)} ms |`,
);
console.log(`| load average at the end | ${loadAverage()} |`);
if (errors.size) {
  console.log('\nErrors:');
  for (const [key, n] of [...errors].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${n} x ${key}`);
}

console.log('\nPer minute');
console.log(
  '| minute | calls | errors | refusals | p50 ms | p99 ms | server RSS MB | heap used MB | server CPU % of one core |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
minutes.forEach((m, i) => {
  const at = started + (i + 1) * 60_000;
  // The server sample nearest the end of this minute, and the CPU it used during the minute.
  const nearest = (time: number) =>
    samples.reduce((best, s) => (Math.abs(s.at - time) < Math.abs(best.at - time) ? s : best), samples[0]!);
  const sample = nearest(performance.timeOrigin + at);
  const before = nearest(performance.timeOrigin + at - 60_000);
  console.log(
    `| ${i + 1} | ${m.calls} | ${m.errors} | ${m.refusals} | ${percentile(m.ms, 50).toFixed(0)} | ${percentile(m.ms, 99).toFixed(0)} | ${mb(sample.memory.rss)} | ${mb(sample.memory.heapUsed)} | ${sample === before ? '-' : cpuShare(before, sample).toFixed(0)} |`,
  );
});

console.log('\nSlowest kinds of call (p99)');
console.log('| call | count | p50 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|');
for (const [kind, ms] of [...byKind]
  .sort((a, b) => percentile(b[1], 99) - percentile(a[1], 99))
  .slice(0, 12)) {
  console.log(
    `| ${kind} | ${ms.length} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${percentile(ms, 100).toFixed(0)} |`,
  );
}
const warnings = server
  .output()
  .split('\n')
  .filter((l) => /"level":(50|60)/.test(l));
if (warnings.length)
  console.log(`\nserver errors logged: ${warnings.length}; first: ${warnings[0]!.slice(0, 400)}`);

await server.stop();
fs.rmSync(dir, { recursive: true, force: true });
if (errorCount > 0) process.exitCode = 1;
