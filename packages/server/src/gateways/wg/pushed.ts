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
import type { ServiceContext } from '../../platform/context.ts';
import type { GatewayLog } from './options.ts';

/** How long pushed records are gathered before they are stored together: short against a person at a door. */
const PUSH_GATHER_MS = 5;

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

  /** Stores what was gathered now (at the close: what was pushed before it is stored, not dropped). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pushed.size === 0) return this.flushing;
    const batches = [...this.pushed.values()];
    this.pushed.clear();
    // One flush at a time, in arrival order: a cursor moves only over records stored before it.
    this.flushing = this.flushing.then(() => this.store(batches));
    return this.flushing;
  }

  /** Stores the gathered batches; one controller's failure does not hold back the others'. */
  private async store(batches: { device: ControllerRef; inputs: ControllerRecordInput[] }[]): Promise<void> {
    const { ctx, log, announce } = this.deps;
    try {
      announce(
        await storePushedRecords(
          ctx(),
          batches.map((b) => ({ deviceId: b.device.Id, inputs: b.inputs, fence: ctx(b.device).fence })),
        ),
        'push',
      );
    } catch {
      // All or nothing failed: store each controller's own, so a bad one (removed meanwhile, moved out of
      // its area) costs only its records, which the next poll reads again if they are still wanted.
      for (const { device, inputs } of batches)
        await storeControllerRecords(ctx(device), device.Id, inputs)
          .then((rows) => announce(rows, 'push'))
          .catch((error: unknown) =>
            log.error({ err: error, serial: device.SerialNumber }, 'wg pushed event'),
          );
    }
  }
}
