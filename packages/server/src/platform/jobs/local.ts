import type { EnqueueOptions, JobPayload, JobQueue, JobWorker } from './queue.ts';

/**
 * The in-process queue (SQLite, one process): jobs run one at a time in enqueue order, so a burst of exports
 * cannot starve requests. Nothing is kept across a restart: the owner of the jobs resumes what its rows say is
 * unfinished (the exports do at start).
 */
export class LocalJobQueue implements JobQueue {
  readonly engine = 'local' as const;
  private readonly workers = new Map<string, JobWorker>();
  private tail: Promise<void> = Promise.resolve();
  private closed = false;
  private seq = 0;

  constructor(private readonly onError: (error: unknown, kind: string) => void) {}

  work<P extends JobPayload>(kind: string, worker: JobWorker<P>): void {
    this.workers.set(kind, worker as unknown as JobWorker);
  }

  // The transaction only matters to a shared queue: here the job's worker waits for the connection anyway.
  async enqueue(kind: string, payload: JobPayload, _options?: EnqueueOptions): Promise<void> {
    const worker = this.workers.get(kind);
    if (!worker) throw new Error(`no worker for job kind ${kind}`);
    if (this.closed) throw new Error('the job queue is closed');
    const id = `local-${++this.seq}`;
    this.tail = this.tail.then(async () => {
      try {
        await worker.run(payload, { id, attempt: 1, signal: new AbortController().signal });
      } catch (error) {
        this.onError(error, kind);
        const reason = error instanceof Error ? error.message : String(error);
        await worker.abandoned?.(payload, reason).catch((e: unknown) => this.onError(e, kind));
      }
    });
  }

  /** Jobs start as soon as they are queued. */
  wake(): void {}

  async start(): Promise<void> {}

  /** Every job queued so far has run, including those queued while waiting. */
  async idle(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }
}
