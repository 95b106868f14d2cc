import type { Clock } from '../clock.ts';
import type { Leases } from './leases.ts';

/**
 * A periodic task run once across the cluster (the liveness sweeper, export expiry, sweeps): every instance
 * runs a SingletonRunner for the task, and only the holder of the lease ('singleton', name) runs it.
 *
 * - The runner ticks every `tickMs` (a third of the lease term by default). Holding, it renews; not
 *   holding, it tries to acquire, which succeeds once the holder's lease expired or was released. A holder
 *   that stops renewing (killed, paused, cut off from the database) misses its renewal at most one tick after
 *   its last one and its lease runs out a term after that one: a standby ticking every third of a term takes
 *   over within one term of the first missed renewal.
 * - The task gets the tenure's epoch (to fence its writes with `whereLeaseCurrent`/`assertLease`) and an
 *   AbortSignal aborted as soon as the runner knows the lease is lost or it is stopped.
 * - A runner that cannot reach the database to renew counts its lease as lost once its own view of the term
 *   (from the last renewal it sent) has run out, and aborts the task: by then another instance may hold it.
 * - `stop()` aborts the task, waits for it and releases the lease, so a standby takes over at its next tick
 *   instead of a term later.
 * - When the lease changes hands the new holder runs the task at once (the last run time is not shared):
 *   the tasks this is for are sweeps, where one extra run is harmless.
 */

export const SINGLETON_KIND = 'singleton';

export interface SingletonTaskContext {
  name: string;
  holder: string;
  epoch: number;
  /** Aborted when the lease is lost or the runner stops: stop work, write nothing more. */
  signal: AbortSignal;
}

export interface SingletonOptions {
  leases: Leases;
  clock: Clock;
  /** The task's name, the lease's key. */
  name: string;
  /** This instance's id. */
  holder: string;
  /** Lease term. */
  ttlMs: number;
  /** Period of the task on the holder. */
  everyMs: number;
  task: (ctx: SingletonTaskContext) => Promise<void> | void;
  /** How often to renew or try to take over; default a third of the term (and no more than everyMs). */
  tickMs?: number;
  /** A lease operation or a run of the task failed (logged by the caller); the runner goes on. */
  onError?: (error: unknown, phase: 'lease' | 'task') => void;
}

export interface TickResult {
  /** Whether this runner holds the lease after the tick. */
  holding: boolean;
  /** Whether this tick started (and awaited) a run of the task. */
  ran: boolean;
}

export class SingletonRunner {
  private epochValue: number | null = null;
  /** Our own view of the term's end: the clock reading before the last renewal was sent, plus the term. */
  private believedUntil = 0;
  private lastRunAt: number | undefined;
  private running: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private stepping: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  readonly tickMs: number;

  constructor(private readonly options: SingletonOptions) {
    if (!(options.ttlMs > 0) || !(options.everyMs > 0)) throw new RangeError('ttlMs and everyMs must be > 0');
    this.tickMs = options.tickMs ?? Math.max(1, Math.min(options.everyMs, Math.floor(options.ttlMs / 3)));
    if (this.tickMs >= options.ttlMs)
      throw new RangeError(
        'tickMs must be shorter than the lease term, or the holder loses it between ticks',
      );
  }

  /** The current tenure's epoch, or null when not holding. */
  get epoch(): number | null {
    return this.epochValue;
  }

  get holding(): boolean {
    return this.epochValue !== null;
  }

  /** Ticks on a timer (unref'd) from now on; the first tick right away. */
  start(): this {
    if (this.timer || this.stopped) return this;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
    return this;
  }

  /**
   * One round: renew or acquire, then run the task if this runner holds the lease and the task is due and
   * not already running. Resolves when the run it started ends. Tests drive it by hand with a ManualClock.
   */
  async tick(): Promise<TickResult> {
    if (this.stopped) return { holding: false, ran: false };
    // One lease operation at a time; a tick arriving during one (a slow database) skips its own.
    if (!this.stepping) {
      this.stepping = this.leaseStep().finally(() => (this.stepping = undefined));
    }
    await this.stepping;
    const epoch = this.epochValue;
    const now = this.options.clock.now();
    if (
      epoch === null ||
      this.stopped ||
      this.running ||
      (this.lastRunAt !== undefined && now - this.lastRunAt < this.options.everyMs)
    )
      return { holding: epoch !== null, ran: false };
    this.lastRunAt = now;
    const controller = new AbortController();
    this.controller = controller;
    const run = (async () => {
      try {
        await this.options.task({
          name: this.options.name,
          holder: this.options.holder,
          epoch,
          signal: controller.signal,
        });
      } catch (error) {
        this.options.onError?.(error, 'task');
      } finally {
        this.running = undefined;
        if (this.controller === controller) this.controller = undefined;
      }
    })();
    this.running = run;
    await run;
    return { holding: this.epochValue !== null, ran: true };
  }

  private async leaseStep(): Promise<void> {
    const { leases, name, holder, ttlMs, clock } = this.options;
    const sentAt = clock.now();
    try {
      if (this.epochValue !== null) {
        if (await leases.renew(SINGLETON_KIND, name, holder, this.epochValue, ttlMs)) {
          this.believedUntil = sentAt + ttlMs;
          return;
        }
        this.lost();
      }
      if (this.stopped) return;
      const epoch = await leases.acquire(SINGLETON_KIND, name, holder, ttlMs);
      if (epoch !== null) {
        if (this.stopped) {
          // stop() ran while the acquire was in flight and found nothing to release: give it back here.
          await leases.release(SINGLETON_KIND, name, holder, epoch);
          return;
        }
        this.epochValue = epoch;
        this.believedUntil = sentAt + ttlMs;
      }
    } catch (error) {
      this.options.onError?.(error, 'lease');
      // Unable to renew: past our own view of the term another instance may hold it, so stop acting.
      if (this.epochValue !== null && clock.now() >= this.believedUntil) this.lost();
    }
  }

  private lost() {
    this.epochValue = null;
    this.controller?.abort(new Error(`singleton ${this.options.name}: lease lost`));
  }

  /** Stops ticking, aborts and awaits a running task, and releases the lease. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.controller?.abort(new Error(`singleton ${this.options.name}: stopped`));
    await this.running;
    await this.stepping;
    const epoch = this.epochValue;
    this.epochValue = null;
    if (epoch !== null) {
      try {
        await this.options.leases.release(SINGLETON_KIND, this.options.name, this.options.holder, epoch);
      } catch (error) {
        // The lease then simply expires a term later.
        this.options.onError?.(error, 'lease');
      }
    }
  }
}
