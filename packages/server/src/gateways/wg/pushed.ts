// Records the controllers push (function 0x20), gathered for a few milliseconds and stored together: under a
// burst from many controllers, one transaction instead of one per datagram (docs/performance.md, "Door
// controllers at scale").

import {
  storeControllerRecords,
  storePushedRecords,
  type ControllerRecordInput,
  type ControllerRef,
  type StoredControllerRecord,
} from '../../modules/access-control/index.ts';
import { byLeaseKey } from '../../platform/cluster/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { logControllerFailure, type GatewayLog } from './options.ts';

/** How long pushed records are gathered before they are stored together: short against a person at a door. */
const PUSH_GATHER_MS = 5;

/** Records one transaction of pushed records stores at most (see flush). */
const STORE_MAX = 1_000;

export interface PushedDeps {
  /** A context for the gateway (no device), or for a controller's writes (behind its lease). */
  ctx(device?: ControllerRef): ServiceContext;
  log: GatewayLog;
  announce(rows: StoredControllerRecord[], via: 'push'): void;
}

export class PushedRecords {
  private readonly deps: PushedDeps;
  /** Pushed records waiting for the next flush, by controller, in arrival order. */
  private readonly pushed = new Map<number, { device: ControllerRef; inputs: ControllerRecordInput[] }>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** A store is queued behind the one running and will take what has been gathered when it starts. */
  private queued = false;

  constructor(deps: PushedDeps) {
    this.deps = deps;
  }

  /** A record pushed by a driven controller, stored with the others of the next few milliseconds. */
  add(device: ControllerRef, input: ControllerRecordInput): void {
    const queued = this.pushed.get(device.Id);
    if (queued) queued.inputs.push(input);
    else this.pushed.set(device.Id, { device, inputs: [input] });
    this.flushTimer ??= setTimeout(() => void this.flush(), PUSH_GATHER_MS);
  }

  /** Stores what was gathered (at the close: what was pushed before it is stored, not dropped). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pushed.size === 0 || this.queued) return this.flushing;
    this.queued = true;
    // One store at a time, in arrival order: a cursor moves only over records stored before it. The records are
    // taken when the store before is over, not now: what arrives meanwhile joins them, so under a backlog a
    // transaction grows with the time the one before took, instead of a small one every few milliseconds
    // queueing behind it (on PostgreSQL each paying its round trips; issue 32). Up to STORE_MAX records a
    // transaction, with the event loop free between two: on SQLite a store runs on the main thread, and an
    // operator's request waited for the whole backlog's transaction (list p99 1.2 s during bench:wg's burst).
    this.flushing = this.flushing.then(async () => {
      this.queued = false;
      while (this.pushed.size > 0) {
        await this.store(this.take(STORE_MAX));
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    return this.flushing;
  }

  /** Whole controllers' gathered records, in arrival order, up to `max` records (at least one controller's). */
  private take(max: number): { device: ControllerRef; inputs: ControllerRecordInput[] }[] {
    const taken: { device: ControllerRef; inputs: ControllerRecordInput[] }[] = [];
    let count = 0;
    for (const [id, batch] of this.pushed) {
      if (count > 0 && count + batch.inputs.length > max) break;
      taken.push(batch);
      this.pushed.delete(id);
      count += batch.inputs.length;
    }
    return taken;
  }

  /** Stores the gathered batches; one controller's failure does not hold back the others'. */
  private async store(batches: { device: ControllerRef; inputs: ControllerRecordInput[] }[]): Promise<void> {
    const { ctx, log, announce } = this.deps;
    // Fenced in lease-key order (a controller's lease key is its id: gateway.ts), the order in which this
    // instance's renewal locks the same lease rows: in arrival order the two could deadlock (byLeaseKey).
    const fenced = batches
      .map((b) => ({ deviceId: b.device.Id, inputs: b.inputs, fence: ctx(b.device).fence }))
      .sort((x, y) => byLeaseKey(String(x.deviceId), String(y.deviceId)));
    try {
      announce(await storePushedRecords(ctx(), fenced), 'push');
    } catch {
      // All or nothing failed: store each controller's own, so a bad one (removed meanwhile, moved out of
      // its area) costs only its records, which the next poll reads again if they are still wanted.
      for (const { device, inputs } of batches)
        await storeControllerRecords(ctx(device), device.Id, inputs)
          .then((rows) => announce(rows, 'push'))
          .catch((error: unknown) =>
            logControllerFailure(log, error, device.SerialNumber, 'wg pushed event'),
          );
    }
  }
}
