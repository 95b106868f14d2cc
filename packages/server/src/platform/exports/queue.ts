import { DEFAULT_LANG, isLang, translate } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { removeExportFile } from './files.ts';

/**
 * Export jobs run one at a time in this process, so a burst of exports cannot starve requests.
 * Jobs interrupted by a restart (a crash, a kill) are marked failed at start and whatever they had
 * written is removed; expired files are swept every hour.
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
    // Failed rather than run again: the list has changed since the operator asked, and the operator who
    // reads "interrupted" exports again from the list screen with the filters they want now.
    const interrupted = await this.db.kysely
      .selectFrom('ExportJob')
      .select(['Id', 'FileName', 'Lang'])
      .where('Status', 'in', ['pending', 'running'])
      .execute();
    for (const job of interrupted) {
      // The name a running job recorded: its partial file (or a complete one the job never marked done).
      if (job.FileName) await removeExportFile(this.dir, job.FileName);
      await this.db.kysely
        .updateTable('ExportJob')
        .set({
          Status: 'failed',
          FileName: null,
          Error: translate(isLang(job.Lang) ? job.Lang : DEFAULT_LANG, 'error.exportInterrupted'),
          FinishedAt: this.clock.now(),
        })
        .where('Id', '=', job.Id)
        .execute();
    }
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
      if (job.FileName) await removeExportFile(this.dir, job.FileName);
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
