import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { instanceId } from '../cluster/instances.ts';
import { Leases } from '../cluster/leases.ts';
import { SingletonRunner } from '../cluster/singleton.ts';
import { openJobQueue, type JobQueue, type JobTimings } from '../jobs/index.ts';
import { abandonExportJob, runExportJob, type ExportDeps, type ExportJobPayload } from './run.ts';

export const EXPORT_JOB_KIND = 'export';
/** How often finished exports past their retention are expired (their files deleted). */
export const EXPORT_EXPIRY_EVERY_MS = 3_600_000;
const EXPIRY_TASK = 'export-expiry';

export interface ExportQueueOptions extends ExportDeps {
  /** The job queue; default the database's (openJobQueue: in-process on SQLite, pg-boss on PostgreSQL). */
  jobs?: JobQueue;
  /** PostgreSQL: shorter job timings for tests. */
  timings?: Partial<JobTimings>;
  /**
   * Runs a periodic task once across the cluster (the cluster node's singleton, when the app has one). Without
   * it: a timer on SQLite (one process), a SingletonRunner of its own on PostgreSQL.
   */
  singleton?: (name: string, everyMs: number, task: () => Promise<void>) => void;
  /** This instance's id, holder of the expiry's lease (default cluster/instanceId()). */
  instanceId?: string;
}

/**
 * Export jobs on the job queue (platform/jobs): a job is an ExportJob row's id, done by whichever instance
 * takes it (runExportJob); the finished workbook goes to the database (files.ts); finished jobs past their
 * retention are expired once across the cluster (sweep). On SQLite the queue is in this process, so jobs a
 * restart interrupted are resumed at start; on PostgreSQL the queue is shared and survives any instance.
 */
export class ExportQueue {
  readonly jobs: JobQueue;
  private timer: NodeJS.Timeout | undefined;
  private runner: SingletonRunner | undefined;

  constructor(private readonly options: ExportQueueOptions) {
    this.jobs =
      options.jobs ??
      openJobQueue(options.db, {
        onError: (error, kind) => options.log.error({ err: error, kind }, 'job queue'),
        ...(options.timings ? { timings: options.timings } : {}),
      });
    this.jobs.work<ExportJobPayload & Record<string, number>>(EXPORT_JOB_KIND, {
      run: (payload, run) => runExportJob(options, payload.jobId, run),
      abandoned: (payload, reason) => abandonExportJob(options, payload.jobId, reason),
    });
  }

  async start(): Promise<void> {
    await this.jobs.start();
    if (this.jobs.engine === 'local') {
      // One process: whatever its previous life left pending or running is nobody's but ours. Each job is
      // claimed again as a retry would be (runExportJob), with the caller's grants as they are now.
      const unfinished = await this.options.db.kysely
        .selectFrom('ExportJob')
        .select('Id')
        .where('Status', 'in', ['pending', 'running'])
        .orderBy('Id')
        .execute();
      for (const job of unfinished) await this.jobs.enqueue(EXPORT_JOB_KIND, { jobId: job.Id });
    }
    this.startExpiry();
  }

  /** Queues the export of these ExportJob rows, inside the transaction that created them. */
  async enqueue(jobIds: number[], trx?: Kysely<Database>): Promise<void> {
    for (const jobId of jobIds) await this.jobs.enqueue(EXPORT_JOB_KIND, { jobId }, trx ? { trx } : {});
  }

  /** After the transaction that enqueued jobs committed: this instance looks for them now. */
  wake(): void {
    this.jobs.wake(EXPORT_JOB_KIND);
  }

  /** Resolves when no export job is waiting or running (tests). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  /**
   * Expires finished jobs past their retention: marks them expired and deletes their files, in one
   * transaction. Conditional on `done`, so two sweeps (or a sweep and a delete) count each job once.
   */
  async sweep(): Promise<number> {
    const now = this.options.clock.now();
    return this.options.db.kysely.transaction().execute(async (trx) => {
      const expired = await trx
        .updateTable('ExportJob')
        .set({ Status: 'expired' })
        .where('Status', '=', 'done')
        .where('ExpiresAt', '<=', now)
        .returning('Id')
        .execute();
      const ids = expired.map((row) => row.Id);
      for (let i = 0; i < ids.length; i += 500)
        await trx
          .deleteFrom('ExportFile')
          .where('JobId', 'in', ids.slice(i, i + 500))
          .execute();
      return ids.length;
    });
  }

  private startExpiry(): void {
    const { db, clock, log } = this.options;
    const task = async () => {
      await this.sweep();
    };
    if (this.options.singleton) {
      this.options.singleton(EXPIRY_TASK, EXPORT_EXPIRY_EVERY_MS, task);
    } else if (db.dialect === 'postgres') {
      this.runner = new SingletonRunner({
        leases: new Leases(db, clock),
        clock,
        name: EXPIRY_TASK,
        holder: this.options.instanceId ?? instanceId(),
        ttlMs: 60_000,
        everyMs: EXPORT_EXPIRY_EVERY_MS,
        task,
        onError: (error, phase) => log.error({ err: error, phase }, 'export expiry'),
      }).start();
    } else {
      void task().catch((error: unknown) => log.error({ err: error }, 'export expiry'));
      this.timer = setInterval(
        () => void task().catch((error: unknown) => log.error({ err: error }, 'export expiry')),
        EXPORT_EXPIRY_EVERY_MS,
      ).unref();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.runner?.stop();
    await this.jobs.close();
  }
}
