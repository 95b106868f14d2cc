import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Background jobs (docs/deployment.md, "Background jobs"): work asked for by a request and done later, by
 * whichever instance takes it. A job is a kind (a worker registered under that name) and a small JSON payload
 * that names what to do (an ExportJob's id), never a context held in memory: the worker rebuilds whatever it
 * needs from the database, so any instance can run it, now or after a restart.
 *
 * Two implementations behind this interface (`openJobQueue` picks by database):
 * - SQLite (one process): `LocalJobQueue`, in this process, one job at a time; what a restart loses is the
 *   owner's to resume (the exports resume their pending jobs at start).
 * - PostgreSQL (several instances): `PgBossJobQueue`, pg-boss 10 in the application's schema. Each job is
 *   taken by one instance (`FOR UPDATE SKIP LOCKED`); a job whose instance died (or that ran past its expiry)
 *   is failed by the library's maintenance and retried by another instance, and given up after its retries.
 *
 * Either way a job may run more than once for one `enqueue` (a retry after its instance died, an attempt that
 * ran past its expiry while the next one started): a worker makes its effect idempotent (a conditional UPDATE
 * on the row it works for) so a second attempt cannot do the work twice.
 */

/** A job's payload: a small JSON object naming what to do (the worker loads the rest). */
export type JobPayload = Record<string, string | number | boolean | null>;

export interface JobRun {
  /** The queue's id of the job (the same across its attempts). */
  id: string;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
  /**
   * Aborted when this attempt has run past its expiry: the queue may already have handed the job to another
   * attempt. Check it before a long step; the worker's conditional writes stay the guarantee.
   */
  signal: AbortSignal;
}

export interface JobWorker<P extends JobPayload = JobPayload> {
  /**
   * Does the job. Throwing asks for a retry (PostgreSQL, up to the retry limit) or gives the job up (SQLite);
   * failures the worker has recorded itself (a refused export) should return normally.
   */
  run(payload: P, job: JobRun): Promise<void>;
  /**
   * The queue has given the job up: its last attempt threw, or its instance died on it and no retry is left.
   * Records the failure where users see it (conditionally: an attempt may have finished after all).
   */
  abandoned?(payload: P, reason: string): Promise<void>;
}

export interface EnqueueOptions {
  /**
   * The caller's transaction: on PostgreSQL the job is inserted in it, so it exists exactly when the rows it
   * works for are committed. In-process, the job is queued at once and its worker finds the rows once the
   * transaction has committed (SQLite's single connection makes it wait), or nothing if it rolled back.
   */
  trx?: Kysely<Database>;
}

export interface JobQueue {
  readonly engine: 'local' | 'pg-boss';
  /** Registers the worker of a kind; before start(). */
  work<P extends JobPayload>(kind: string, worker: JobWorker<P>): void;
  enqueue(kind: string, payload: JobPayload, options?: EnqueueOptions): Promise<void>;
  /**
   * Jobs of the kind were committed (enqueued with `trx`): this instance looks for them now rather than at its
   * next poll. Without `trx`, enqueue does it itself.
   */
  wake(kind: string): void;
  /** Creates what the queue needs (pg-boss: its tables and queues) and starts the workers. */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones (a graceful stop hands unfinished ones back). */
  close(): Promise<void>;
  /**
   * Resolves when no job of a registered kind is waiting or running (tests): in-process, this process's queue;
   * on PostgreSQL, the shared queue (every instance's).
   */
  idle(): Promise<void>;
}

/** How long a PostgreSQL job may run before it counts as abandoned, and how fast that is noticed. */
export interface JobTimings {
  /** An attempt running longer is failed and retried (its instance is presumed dead): pg-boss `expireInSeconds`. */
  expireSeconds: number;
  /** How often the library's maintenance looks for expired attempts (one instance at a time). */
  maintenanceSeconds: number;
  /** How often each instance's worker polls for a job when idle (an enqueue on this instance wakes it at once). */
  pollSeconds: number;
  /** Retries after the first attempt; then the job is given up (JobWorker.abandoned). */
  retryLimit: number;
  retryDelaySeconds: number;
}

/**
 * Production timings. An attempt whose instance died is failed at most expire + 2 × maintenance after it
 * started (maintenance runs once per interval across the cluster, so two runs are at most two intervals
 * apart), and a retry starts on another instance within one poll: 60 + 30 + 1 = 91 s. Exports of at most
 * 3,000 rows take a few seconds, so 60 s is ample headroom before a live attempt would count as dead.
 */
export const DEFAULT_JOB_TIMINGS: JobTimings = {
  expireSeconds: 60,
  maintenanceSeconds: 15,
  pollSeconds: 1,
  retryLimit: 2,
  retryDelaySeconds: 0,
};

/** The bound the timings above give: an abandoned attempt's job is running again within this long. */
export function recoveryBoundSeconds(t: JobTimings): number {
  return t.expireSeconds + 2 * t.maintenanceSeconds + t.pollSeconds + t.retryDelaySeconds;
}
