import { CompiledQuery, sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import {
  DEFAULT_JOB_TIMINGS,
  type EnqueueOptions,
  type JobPayload,
  type JobQueue,
  type JobTimings,
  type JobWorker,
} from './queue.ts';

/** The queue of jobs a kind's queue gives up (pg-boss's dead-letter queue), handled by JobWorker.abandoned. */
export const abandonedQueue = (kind: string) => `${kind}__abandoned`;

export interface PgBossQueueOptions {
  /**
   * The schema of pg-boss's tables; default the application's own (`current_schema()`), so every test schema
   * has a queue of its own and a deployment's tables stay together. pg-boss's names are lower case (job, queue,
   * version, schedule, subscription, archive, j<hash> partitions) and never meet Gatehouse's PascalCase tables.
   */
  schema?: string;
  timings?: Partial<JobTimings>;
  onError: (error: unknown, kind?: string) => void;
}

/**
 * pg-boss's way to the database: the application's pool (its search path, its 10 connections), one pooled
 * connection per statement. pg-boss's maintenance sends `BEGIN; …; COMMIT` as one text: when such a text fails
 * half-way the connection is left inside an aborted transaction, so it is rolled back before going back to
 * the pool. Inside a caller's transaction (EnqueueOptions.trx) statements run in that transaction.
 */
function executorOf(k: Kysely<Database>, inTransaction: boolean): PgBoss.Db {
  const run = async (text: string, values: unknown[] | undefined) => {
    const query = CompiledQuery.raw(text, values ?? []);
    if (inTransaction) return { rows: (await k.executeQuery(query)).rows as unknown[] };
    return k.connection().execute(async (connection) => {
      try {
        return { rows: (await connection.executeQuery(query)).rows as unknown[] };
      } catch (error) {
        if (/\bBEGIN\b/i.test(text))
          await connection.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => undefined);
        throw error;
      }
    });
  };
  return { executeSql: (text, values) => run(text, values) };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The PostgreSQL queue: pg-boss 10 stores the jobs, hands each to one instance (`FOR UPDATE SKIP LOCKED`),
 * fails an attempt that outlived its expiry (its instance is presumed dead) in its maintenance, retries it on
 * whichever instance polls next, gives it up after `retryLimit` retries into a dead-letter queue, and archives
 * finished jobs. The loop that takes jobs is ours (fetch, run, complete or fail), one job at a time per kind
 * and instance, so closing waits exactly for the job in hand and an enqueue wakes this instance at once.
 */
export class PgBossJobQueue implements JobQueue {
  readonly engine = 'pg-boss' as const;
  readonly timings: JobTimings;
  private boss: PgBoss | undefined;
  private schema = '';
  private readonly workers = new Map<string, JobWorker>();
  private readonly wakers = new Map<string, AbortController>();
  /** Kinds enqueued while their loop was fetching: fetch again instead of sleeping. */
  private readonly nudged = new Set<string>();
  private loops: Promise<void>[] = [];
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly options: PgBossQueueOptions,
  ) {
    this.timings = { ...DEFAULT_JOB_TIMINGS, ...options.timings };
  }

  work<P extends JobPayload>(kind: string, worker: JobWorker<P>): void {
    if (this.boss) throw new Error('register job workers before start()');
    this.workers.set(kind, worker as unknown as JobWorker);
  }

  async start(): Promise<void> {
    if (this.boss) return;
    this.schema =
      this.options.schema ??
      (await sql<{ name: string }>`select current_schema() as name`.execute(this.db.kysely)).rows[0]!.name;
    const t = this.timings;
    const boss = new PgBoss({
      db: executorOf(this.db.kysely, false),
      schema: this.schema,
      migrate: true,
      supervise: true,
      // No cron schedules: periodic work runs under the cluster's singleton leases.
      schedule: false,
      maintenanceIntervalSeconds: t.maintenanceSeconds,
    });
    boss.on('error', (error) => this.options.onError(error));
    await boss.start();
    // Instances starting together on a new database would deadlock in pg-boss's create_queue (each creates
    // the queue's partition): queues are created one instance at a time, under a lock held by a transaction
    // open meanwhile (the creations themselves run on other connections of the pool).
    await this.db.kysely.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('gatehouse.jobs:' || ${this.schema}))`.execute(trx);
      await this.createQueues(boss);
    });
    this.boss = boss;
    for (const [kind, worker] of this.workers) {
      this.loops.push(this.loop(kind, (payload, job) => worker.run(payload, job)));
      this.loops.push(
        this.loop(abandonedQueue(kind), async (payload, job) => {
          await worker.abandoned?.(payload, job.reason);
        }),
      );
    }
  }

  /** Each worker's queue and its dead-letter queue, created or brought to these timings. */
  private async createQueues(boss: PgBoss): Promise<void> {
    const t = this.timings;
    for (const kind of this.workers.keys()) {
      const dead = abandonedQueue(kind);
      const deadOptions = { name: dead, retryLimit: 5, retryDelay: 1, expireInSeconds: t.expireSeconds };
      await boss.createQueue(dead, deadOptions);
      await boss.updateQueue(dead, deadOptions);
      const options = {
        name: kind,
        retryLimit: t.retryLimit,
        retryDelay: t.retryDelaySeconds,
        expireInSeconds: t.expireSeconds,
        deadLetter: dead,
      };
      // Created once per database; the timings of the starting instance apply from now on.
      await boss.createQueue(kind, options);
      await boss.updateQueue(kind, options);
    }
  }

  async enqueue(kind: string, payload: JobPayload, options: EnqueueOptions = {}): Promise<void> {
    const boss = this.boss;
    if (!boss || this.stopping) throw new Error('the job queue is not running');
    if (!this.workers.has(kind)) throw new Error(`no worker for job kind ${kind}`);
    await boss.send(kind, payload, options.trx ? { db: executorOf(options.trx, true) } : {});
    // Inside a transaction the job is not visible before the commit: the caller wakes the loop then.
    if (!options.trx) this.wake(kind);
  }

  /** This instance looks for a job of the kind now (another may win it: SKIP LOCKED decides). */
  wake(kind: string): void {
    this.nudged.add(kind);
    this.wakers.get(kind)?.abort();
  }

  private async loop(
    kind: string,
    handle: (
      payload: JobPayload,
      job: { id: string; attempt: number; signal: AbortSignal; reason: string },
    ) => Promise<void>,
  ): Promise<void> {
    const boss = this.boss!;
    const pollMs = this.timings.pollSeconds * 1000;
    while (!this.stopping) {
      let job: PgBoss.JobWithMetadata<JobPayload> | undefined;
      this.nudged.delete(kind);
      try {
        [job] = await boss.fetch<JobPayload>(kind, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        this.options.onError(error, kind);
      }
      if (!job) {
        if (this.nudged.has(kind)) continue;
        const waker = new AbortController();
        this.wakers.set(kind, waker);
        await sleep(pollMs, waker.signal);
        continue;
      }
      // Past its expiry the library hands the job to another attempt: say so to the worker.
      const expiry = new AbortController();
      const timer = setTimeout(() => expiry.abort(), job.expireInSeconds * 1000);
      try {
        await handle(job.data, {
          id: job.id,
          attempt: job.retryCount + 1,
          signal: expiry.signal,
          reason: reasonOf(job.output),
        });
        await boss.complete(kind, job.id);
      } catch (error) {
        this.options.onError(error, kind);
        await boss
          .fail(kind, job.id, { message: error instanceof Error ? error.message : String(error) })
          .catch((e: unknown) => this.options.onError(e, kind));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** Every job of our kinds (their dead letters included) finished, on whichever instance. */
  async idle(): Promise<void> {
    if (!this.boss) return;
    const names = [...this.workers.keys()].flatMap((kind) => [kind, abandonedQueue(kind)]);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(`${this.schema}.job`)}
        where name = any(${names}) and state < 'completed'`.execute(this.db.kysely);
      if (Number(rows[0]?.n ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error('job queue not idle after 120 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Takes no new job, waits for the ones in hand, stops the library's maintenance. */
  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const waker of this.wakers.values()) waker.abort();
    await Promise.all(this.loops);
    await this.boss?.stop({ graceful: false, close: false, wait: true });
  }
}

/** The message a given-up job left (pg-boss stores a failed job's error as its output). */
function reasonOf(output: unknown): string {
  const value = (output as { value?: { message?: unknown }; message?: unknown } | null) ?? null;
  const message = value?.value?.message ?? value?.message;
  return typeof message === 'string' ? message : '';
}
