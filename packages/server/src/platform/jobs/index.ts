import type { Db } from '../../db/database.ts';
import { LocalJobQueue } from './local.ts';
import { PgBossJobQueue } from './pg-boss.ts';
import type { JobQueue, JobTimings } from './queue.ts';

export { LocalJobQueue } from './local.ts';
export { PgBossJobQueue, abandonedQueue, type PgBossQueueOptions } from './pg-boss.ts';
export {
  DEFAULT_JOB_TIMINGS,
  recoveryBoundSeconds,
  type EnqueueOptions,
  type JobPayload,
  type JobQueue,
  type JobRun,
  type JobTimings,
  type JobWorker,
} from './queue.ts';

export interface JobQueueOptions {
  onError: (error: unknown, kind?: string) => void;
  /** PostgreSQL only: shorter timings for tests; production uses DEFAULT_JOB_TIMINGS. */
  timings?: Partial<JobTimings>;
}

/** The queue for a database: in this process on SQLite, pg-boss shared by every instance on PostgreSQL. */
export function openJobQueue(db: Db, options: JobQueueOptions): JobQueue {
  if (db.dialect === 'postgres')
    return new PgBossJobQueue(db, {
      onError: options.onError,
      ...(options.timings ? { timings: options.timings } : {}),
    });
  return new LocalJobQueue(options.onError);
}
