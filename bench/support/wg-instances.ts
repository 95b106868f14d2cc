// bench:wg's servers and its verdict (bench/wg-ingest.ts): one main.ts, or BENCH_INSTANCES of them on one
// PostgreSQL database sharing the controllers out by lease (docs/deployment.md, "Door controllers across
// instances"), the kill -9 of the busiest during the burst (BENCH_KILL_AFTER) and the time until the survivors
// drive its controllers; then the exactly-once check over every controller.
import type { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import type { Db } from '../../packages/server/src/db/database.ts';
import { Leases } from '../../packages/server/src/platform/cluster/index.ts';
import { systemClock } from '../../packages/server/src/platform/clock.ts';
import { sleep } from './measure.ts';
import { freeUdpPort, startBenchServer, type BenchServer } from './server.ts';

export interface WgInstance {
  /** INSTANCE_ID (gh1, gh2, …), or `single` for the one server of a default run (which keeps its own id). */
  id: string;
  /** Its WG listener's UDP port: a controller it drives pushes there. */
  wgPort: number;
  server: BenchServer;
}

/** A controller as the bench registered it. */
export interface BenchController {
  id: number;
  serial: number;
}

/**
 * `count` servers on `databaseUrl`, each with a WG listener of its own, started one after the other (the first
 * migrates and seeds; two at once would race for it). Several are named gh1, gh2, … so the lease table says who
 * drives what.
 */
export async function startWgInstances(
  count: number,
  databaseUrl: string,
  env: Record<string, string>,
): Promise<WgInstance[]> {
  const instances: WgInstance[] = [];
  for (let n = 1; n <= count; n++) {
    const wgPort = await freeUdpPort();
    const id = count > 1 ? `gh${n}` : 'single';
    const server = await startBenchServer({
      databasePath: databaseUrl,
      env: { ...env, WG_LISTEN: `127.0.0.1:${wgPort}`, ...(count > 1 ? { INSTANCE_ID: id } : {}) },
    });
    instances.push({ id, wgPort, server });
  }
  return instances;
}

/**
 * Who drives each controller now: the holder of its unexpired lease, provided the controller pushes to that
 * instance's listener (the takeover is complete only once the listener was re-pointed too). One instance on
 * SQLite holds no leases: there the listener alone says it.
 */
export async function driversOf(
  db: Db,
  sim: WgSimulator,
  controllers: readonly BenchController[],
  instances: readonly WgInstance[],
): Promise<Map<number, string | null>> {
  const portOf = new Map(instances.map((i) => [i.id, i.wgPort]));
  const at = Date.now();
  const holder = new Map(
    instances.length === 1
      ? controllers.map((c) => [String(c.id), instances[0]!.id])
      : (await new Leases(db, systemClock).list('wg'))
          .filter((l) => l.holder !== null && l.expiresAt > at)
          .map((l) => [l.key, l.holder!]),
  );
  return new Map(
    controllers.map((c) => {
      const h = holder.get(String(c.id));
      const driven = h !== undefined && sim.controller(c.serial).listener.port === portOf.get(h);
      return [c.id, driven ? h : null];
    }),
  );
}

/**
 * Waits until every controller is driven by one of `instances` (listener pointed) and they are shared out as
 * the balance promises (counts differing by at most one: the second instance's first rounds take its share
 * from the first); throws after `ms`. Resolves with how many each drives.
 */
export async function waitDriven(
  db: Db,
  sim: WgSimulator,
  controllers: readonly BenchController[],
  instances: readonly WgInstance[],
  ms: number,
): Promise<Map<string, number>> {
  const by = Date.now() + ms;
  for (;;) {
    const drivers = [...(await driversOf(db, sim, controllers, instances)).values()];
    const counts = new Map(instances.map((i) => [i.id, drivers.filter((d) => d === i.id).length]));
    const balanced = Math.max(...counts.values()) - Math.min(...counts.values()) <= 1;
    if (balanced && drivers.every((d) => d !== null)) return counts;
    if (Date.now() > by)
      throw new Error(
        `the gateways did not configure and share out every controller in time: ${JSON.stringify(Object.fromEntries(counts))}`,
      );
    await sleep(200);
  }
}

export interface Takeover {
  victim: WgInstance;
  /** The controllers it drove at the kill. */
  controllers: number;
  /** When the signal was sent (performance.now()). */
  killedAt: number;
  /** From the kill until every one of them is driven by a survivor; null if not within the wait. */
  seconds: Promise<number | null>;
}

/**
 * kill -9 of the instance driving the most controllers (on a tie, not `spare`: the one the operator's calls
 * and socket go to), then, in the background, the time until the survivors drive every controller it drove.
 */
export async function killBusiest(
  db: Db,
  sim: WgSimulator,
  controllers: readonly BenchController[],
  instances: readonly WgInstance[],
  spare: WgInstance,
): Promise<Takeover> {
  const drivers = await driversOf(db, sim, controllers, instances);
  const count = (i: WgInstance) => [...drivers.values()].filter((d) => d === i.id).length;
  const victim = [...instances].sort(
    (a, b) => count(b) - count(a) || Number(a === spare) - Number(b === spare),
  )[0]!;
  const its = controllers.filter((c) => drivers.get(c.id) === victim.id);
  const killedAt = performance.now();
  process.kill(victim.server.pid, 'SIGKILL');
  const survivors = instances.filter((i) => i !== victim);
  const seconds = (async () => {
    // The lease term (20 s) and the registry's window of live instances, a round, and the listener's re-pointing.
    const by = killedAt + 180_000;
    while (performance.now() < by) {
      const now = await driversOf(db, sim, its, survivors);
      if ([...now.values()].every((d) => d !== null)) return (performance.now() - killedAt) / 1000;
      await sleep(100);
    }
    return null;
  })();
  return { victim, controllers: its.length, killedAt, seconds };
}

export interface ExactlyOnce {
  holds: boolean;
  /** rows beyond one per record */
  duplicates: number;
  /** records made and not stored */
  missing: number;
  /** controllers whose rows differ from their ring */
  mismatched: number;
  /** records the cursors counted as lost */
  countedLost: number;
}

/**
 * Every record stored once, for every controller: its count, its distinct ring indexes and its highest index
 * equal the controller's last index (so none twice, none missing), and no cursor counted records lost. Prints
 * what differs for the first few controllers that do.
 */
export async function checkExactlyOnce(
  db: Db,
  sim: WgSimulator,
  controllers: readonly BenchController[],
): Promise<ExactlyOnce> {
  const ids = controllers.map((c) => c.id);
  const perDevice = new Map(
    (
      await db.kysely
        .selectFrom('DoorOpeningRecord')
        .select((eb) => [
          'DeviceId as id',
          eb.fn.countAll().as('n'),
          sql<number>`count(distinct "RecordIndex")`.as('d'),
          eb.fn.min('RecordIndex').as('lo'),
          eb.fn.max('RecordIndex').as('hi'),
        ])
        .where('DeviceId', 'in', ids)
        .groupBy('DeviceId')
        .execute()
    ).map((r) => [r.id, { n: Number(r.n), d: Number(r.d), lo: Number(r.lo), hi: Number(r.hi) }]),
  );
  const countedLost = Number(
    (
      await db.kysely
        .selectFrom('AccessControlRecordCursor')
        .select(sql<number>`coalesce(sum("LostRecords"), 0)`.as('n'))
        .where('DeviceId', 'in', ids)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const made = (c: BenchController) => sim.controller(c.serial).lastIndex;
  const rows = [...perDevice.values()];
  const stored = rows.reduce((sum, r) => sum + r.n, 0);
  const distinct = rows.reduce((sum, r) => sum + r.d, 0);
  const total = controllers.reduce((sum, c) => sum + made(c), 0);
  const mismatched = controllers.filter((c) => {
    const row = perDevice.get(c.id);
    return !row || row.n !== made(c) || row.d !== made(c) || row.lo !== 1 || row.hi !== made(c);
  });
  for (const c of mismatched.slice(0, 5)) {
    const row = perDevice.get(c.id);
    const cursor = await db.kysely
      .selectFrom('AccessControlRecordCursor')
      .select('NextIndex')
      .where('DeviceId', '=', c.id)
      .executeTakeFirst();
    console.log(
      `  controller ${c.serial}: stored ${row?.n ?? 0} (distinct ${row?.d ?? 0}, ${row?.lo ?? '-'}..${row?.hi ?? '-'}), made ${made(c)}, cursor ${cursor?.NextIndex ?? '-'}`,
    );
  }
  return {
    holds: stored === total && mismatched.length === 0 && countedLost === 0,
    duplicates: stored - distinct,
    missing: Math.max(0, total - distinct),
    mismatched: mismatched.length,
    countedLost,
  };
}
