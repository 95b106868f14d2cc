// The WG gateway's loops (gateway.ts): a tick every so many seconds, the next one scheduled when the last ended
// (a slow pass is never run twice at once), a failed tick logged, and all of them stopped at the close.

import type { GatewayLog } from './options.ts';

export class Loops {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private readonly log: GatewayLog;

  constructor(log: GatewayLog) {
    this.log = log;
  }

  /** Runs `tick` after `firstMs`, then `seconds` after each tick ends, until stopped. */
  every(seconds: number, tick: () => Promise<void>, firstMs = 0): void {
    const schedule = (ms: number) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        run();
      }, ms).unref();
      this.timers.add(timer);
    };
    const run = () => {
      if (this.stopped) return;
      tick()
        .catch((error: unknown) => this.log.error({ err: error }, 'wg gateway tick'))
        .finally(() => {
          if (!this.stopped) schedule(seconds * 1000);
        });
    };
    schedule(firstMs);
  }

  /** No tick starts any more (one running ends on its own). */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
  }
}
