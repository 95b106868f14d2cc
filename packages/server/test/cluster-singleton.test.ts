import { spawn, type ChildProcess } from 'node:child_process';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { ManualClock } from '../src/platform/clock.ts';
import {
  clusterMigration,
  Leases,
  SINGLETON_KIND,
  SingletonRunner,
  type SingletonTaskContext,
} from '../src/platform/cluster/index.ts';
import {
  childDatabase,
  childDbKinds,
  childMessage,
  killHard,
  type ChildDatabase,
} from './support/child-db.ts';

const TTL = 30_000;
const TICK = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(childDbKinds)('[%s] cluster singleton (manual clock, ticks by hand)', (kind) => {
  let database: ChildDatabase;
  let db: Db;
  let clock: ManualClock;
  beforeAll(async () => {
    database = await childDatabase(kind, 'singleton');
    db = database.open();
    await clusterMigration.up(db.kysely as unknown as Kysely<unknown>, { dialect: db.dialect });
    clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  /** A runner whose task records who ran it, at what time and epoch. */
  function runner(
    name: string,
    holder: string,
    runs: string[],
    task?: (ctx: SingletonTaskContext) => Promise<void>,
  ) {
    const base = clock.now(); // run times are labelled from the runner's creation
    return new SingletonRunner({
      leases: new Leases(db, clock),
      clock,
      name,
      holder,
      ttlMs: TTL,
      everyMs: TICK,
      task: async (ctx) => {
        runs.push(`${ctx.holder}@${(clock.now() - base) / 1000}s#${ctx.epoch}`);
        await task?.(ctx);
      },
    });
  }

  it('runs the task on one instance only, every period, while three instances tick', async () => {
    const runs: string[] = [];
    const [a, b, c] = [runner('sweep', 'a', runs), runner('sweep', 'b', runs), runner('sweep', 'c', runs)];
    for (let round = 0; round < 6; round++) {
      // The order of the ticks changes every round: whoever got the lease first keeps it.
      const order = round % 2 ? [c, b, a] : [a, b, c];
      for (const r of order) await r.tick();
      expect([a.holding, b.holding, c.holding]).toEqual([true, false, false]);
      clock.advance(TICK);
    }
    expect(runs).toEqual([0, 10, 20, 30, 40, 50].map((s) => `a@${s}s#1`));
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });

  it('is taken over within one lease term after the holder stops renewing, not before its lease runs out', async () => {
    const runs: string[] = [];
    const [a, b] = [runner('expiry', 'a', runs), runner('expiry', 'b', runs)];
    const t0 = clock.now();
    expect((await a.tick()).holding).toBe(true); // a renews at t0 for the last time, then goes silent
    const lastRenewal = clock.now();
    const seconds = () => (clock.now() - t0) / 1000;
    let takenAt: number | undefined;
    for (let i = 0; i < 6 && takenAt === undefined; i++) {
      clock.advance(TICK);
      if ((await b.tick()).holding) takenAt = seconds();
    }
    // a's lease ran to lastRenewal + 30 s; its first missed renewal was at +10 s; b took it at +30 s.
    expect(takenAt).toBe(30);
    expect(clock.now() - lastRenewal).toBe(TTL);
    expect(clock.now() - (lastRenewal + TICK)).toBeLessThanOrEqual(TTL);
    expect(b.epoch).toBe(2);
    expect(runs).toEqual(['a@0s#1', 'b@30s#2']);
    // a wakes up: its renewal fails, it does not run the task, and it is a standby now.
    expect(await a.tick()).toEqual({ holding: false, ran: false });
    expect(a.epoch).toBeNull();
    await Promise.all([a.stop(), b.stop()]);
  });

  it('aborts the former holder’s running task as soon as it learns the lease is lost', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let signal: AbortSignal | undefined;
    const runs: string[] = [];
    const a = runner('long', 'a', runs, async (ctx) => {
      signal = ctx.signal;
      await blocked;
    });
    const b = runner('long', 'b', runs);
    const firstRun = a.tick(); // starts the long task and waits for it
    await sleep(50);
    expect(signal?.aborted).toBe(false);
    clock.advance(TTL); // a paused: no renewal in a whole term
    expect((await b.tick()).holding).toBe(true);
    expect((await a.tick()).holding).toBe(false);
    expect(signal?.aborted).toBe(true);
    release();
    await firstRun;
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a stopped runner aborts its task and releases the lease: a standby takes over at its next tick', async () => {
    const runs: string[] = [];
    let signal: AbortSignal | undefined;
    const a = runner('stop', 'a', runs, async (ctx) => {
      signal = ctx.signal;
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    });
    const b = runner('stop', 'b', runs);
    void a.tick();
    await sleep(50);
    expect((await b.tick()).holding).toBe(false);
    await a.stop();
    expect(signal?.aborted).toBe(true);
    expect(await new Leases(db, clock).holderOf(SINGLETON_KIND, 'stop')).toBeNull();
    expect((await b.tick()).holding).toBe(true); // same instant: no wait for the term
    expect(await a.tick()).toEqual({ holding: false, ran: false });
    await b.stop();
  });

  it('stops acting on its own once it cannot renew for a whole term (database unreachable)', async () => {
    const leases = new Leases(db, clock);
    let down = false;
    // The same leases, with renewals failing as they would with the database unreachable.
    const flaky = Object.create(leases) as Leases;
    flaky.renew = (...args) =>
      down ? Promise.reject(new Error('connection refused')) : leases.renew(...args);
    const errors: string[] = [];
    const runs: string[] = [];
    const a = new SingletonRunner({
      leases: flaky,
      clock,
      name: 'cutoff',
      holder: 'a',
      ttlMs: TTL,
      everyMs: TICK,
      task: () => void runs.push(`a@${clock.now()}`),
      onError: (e, phase) => errors.push(`${phase}: ${(e as Error).message}`),
    });
    expect((await a.tick()).holding).toBe(true);
    down = true;
    clock.advance(TICK);
    expect((await a.tick()).holding).toBe(true); // within its term: still the holder, and runs
    clock.advance(TICK);
    expect((await a.tick()).holding).toBe(true);
    clock.advance(TICK); // the term since the last successful renewal is over
    expect((await a.tick()).holding).toBe(false);
    expect(runs).toHaveLength(3);
    expect(errors[0]).toBe('lease: connection refused');
    down = false;
    await a.stop();
  });
});

/**
 * The same with real processes and real time: a runner in a child process holds the lease and writes a row
 * per run under its epoch; the child is killed (SIGKILL) or stopped, and the runner in the test process takes
 * over. Lease term 1.5 s, ticks every 0.5 s, task every 0.1 s.
 */
const CHILD_TTL = 1500;
const CHILD_TICK = 500;
const childCode = (name: string) => `
import { openDatabase } from ${JSON.stringify(new URL('../src/db/database.ts', import.meta.url).href)};
import { systemClock } from ${JSON.stringify(new URL('../src/platform/clock.ts', import.meta.url).href)};
import { Leases, SingletonRunner } from ${JSON.stringify(new URL('../src/platform/cluster/index.ts', import.meta.url).href)};
import { sql } from 'kysely';
const [url, pgSchema] = JSON.parse(process.env.CLUSTER_DB);
const db = openDatabase(url, pgSchema ? { pgSchema } : {});
const leases = new Leases(db, systemClock);
const runner = new SingletonRunner({
  leases, clock: systemClock, name: ${JSON.stringify(name)}, holder: 'child', ttlMs: ${CHILD_TTL}, tickMs: ${CHILD_TICK}, everyMs: 100,
  task: async ({ epoch }) => {
    await sql\`insert into "Ran" ("Holder", "At") select 'child', \${Date.now()} where \${leases.whereLeaseCurrent('singleton', ${JSON.stringify(name)}, epoch)}\`.execute(db.kysely);
    process.send({ ran: epoch });
  },
}).start();
process.on('message', async (m) => {
  if (m === 'stop') { await runner.stop(); process.send({ stopped: true }); }
});
`;

describe.each(childDbKinds)('[%s] cluster singleton across processes', (kind) => {
  let database: ChildDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await childDatabase(kind, 'singleton_proc');
    db = database.open();
    await clusterMigration.up(db.kysely as unknown as Kysely<unknown>, { dialect: db.dialect });
    await sql`create table "Ran" ("Holder" text not null, "At" bigint not null)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  function startChild(name: string): ChildProcess {
    const args = kind === 'sqlite' ? [database.args[0]] : database.args;
    return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', childCode(name)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...process.env, CLUSTER_DB: JSON.stringify(args) },
    });
  }

  /** The standby in this process: a row per run, fenced by its epoch like the child's. */
  function standby(name: string) {
    const leases = new Leases(db, { now: () => Date.now() });
    return new SingletonRunner({
      leases,
      clock: { now: () => Date.now() },
      name,
      holder: 'standby',
      ttlMs: CHILD_TTL,
      tickMs: CHILD_TICK,
      everyMs: 100,
      task: async ({ epoch }) => {
        await sql`insert into "Ran" ("Holder", "At") select 'standby', ${Date.now()} where ${leases.whereLeaseCurrent(SINGLETON_KIND, name, epoch)}`.execute(
          db.kysely,
        );
      },
    });
  }

  const rows = async () =>
    (
      await sql<{ Holder: string; At: number }>`select "Holder", "At" from "Ran" order by "At"`.execute(
        db.kysely,
      )
    ).rows.map((r) => ({ holder: r.Holder, at: Number(r.At) }));

  async function firstStandbyRun(since: number, within: number): Promise<number | undefined> {
    const end = Date.now() + within;
    while (Date.now() < end) {
      const run = (await rows()).find((r) => r.holder === 'standby' && r.at >= since);
      if (run) return run.at;
      await sleep(20);
    }
    return undefined;
  }

  it('takes over within one lease term (plus a tick) when the holder is killed with SIGKILL', async () => {
    await sql`delete from "Ran"`.execute(db.kysely);
    const child = startChild('kill');
    const b = standby('kill');
    try {
      await childMessage(child, (m) => ((m as { ran?: number }).ran ? true : undefined));
      b.start();
      await sleep(800); // the standby ticks against the live holder: it must not run
      expect((await rows()).some((r) => r.holder === 'standby')).toBe(false);
      const killedAt = Date.now();
      await killHard(child);
      const takenAt = await firstStandbyRun(killedAt, CHILD_TTL + CHILD_TICK + 2000);
      expect(takenAt).toBeDefined();
      const takeover = takenAt! - killedAt;
      console.log(
        `[${kind}] singleton: holder SIGKILLed, standby ran after ${takeover} ms (term ${CHILD_TTL} ms, tick ${CHILD_TICK} ms)`,
      );
      // At most a term after its last renewal, plus a tick of the standby (and slack for a loaded machine).
      expect(takeover).toBeLessThanOrEqual(CHILD_TTL + CHILD_TICK + 750);
      // One holder at a time: every child row precedes every standby row.
      const all = await rows();
      const lastChild = Math.max(...all.filter((r) => r.holder === 'child').map((r) => r.at));
      const firstStandby = Math.min(...all.filter((r) => r.holder === 'standby').map((r) => r.at));
      expect(lastChild).toBeLessThan(firstStandby);
    } finally {
      await killHard(child);
      await b.stop();
    }
  });

  it('takes over within a tick when the holder stops gracefully (its lease released)', async () => {
    await sql`delete from "Ran"`.execute(db.kysely);
    const child = startChild('graceful');
    const b = standby('graceful');
    try {
      await childMessage(child, (m) => ((m as { ran?: number }).ran ? true : undefined));
      b.start();
      await sleep(300);
      const stopped = childMessage(child, (m) => ((m as { stopped?: boolean }).stopped ? true : undefined));
      child.send('stop');
      await stopped;
      const stoppedAt = Date.now();
      const takenAt = await firstStandbyRun(stoppedAt - 50, CHILD_TICK + 2000);
      expect(takenAt).toBeDefined();
      console.log(`[${kind}] singleton: holder stopped, standby ran after ${takenAt! - stoppedAt} ms`);
      // Under 1 s: without the release the standby could not have it before the lease ran out, at least a term
      // after the last renewal, which was at most a tick before the stop.
      expect(takenAt! - stoppedAt).toBeLessThanOrEqual(CHILD_TICK + 250);
      const all = await rows();
      expect(all.filter((r) => r.holder === 'child' && r.at > takenAt!)).toEqual([]);
    } finally {
      await killHard(child);
      await b.stop();
    }
  });
});
