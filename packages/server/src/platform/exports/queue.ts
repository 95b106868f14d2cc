import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';

/**
 * Export jobs run one at a time in this process, so a burst of exports cannot starve requests.
 * Jobs interrupted by a restart are marked failed at start; expired files are swept every hour.
 */
export class ExportQueue {
  private tail: Promise<void> = Promise.resolve();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dir: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  enqueue(task: () => Promise<void>): void {
    this.tail = this.tail.then(task).catch(this.onError);
  }

  /** Resolves when every job queued so far has finished (tests and shutdown wait on it). */
  idle(): Promise<void> {
    return this.tail;
  }

  async start(): Promise<void> {
    await this.db.kysely
      .updateTable('ExportJob')
      .set({ Status: 'failed', Error: 'interrupted by a server restart', FinishedAt: this.clock.now() })
      .where('Status', 'in', ['pending', 'running'])
      .execute();
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch(this.onError), 3_600_000).unref();
  }

  /** Deletes the files of finished jobs past their expiry and marks the jobs expired. */
  async sweep(): Promise<number> {
    const due = await this.db.kysely
      .selectFrom('ExportJob')
      .select(['Id', 'FileName'])
      .where('Status', '=', 'done')
      .where('ExpiresAt', '<=', this.clock.now())
      .execute();
    for (const job of due) {
      if (job.FileName) await fs.rm(path.join(this.dir, job.FileName), { force: true });
      await this.db.kysely
        .updateTable('ExportJob')
        .set({ Status: 'expired' })
        .where('Id', '=', job.Id)
        .execute();
    }
    return due.length;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.idle();
  }
}
