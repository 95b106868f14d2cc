// One sync pass of a controller session (session.ts): its rules, then its cards (sync.ts, rules-sync.ts), with
// the progress told to the area's browsers and written to the controller's state row, in order.

import { saveDeviceState, type ControllerRef } from '../../modules/access-control/index.ts';
import { LeaseLostError } from '../../platform/cluster/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { WgDevice } from './driver.ts';
import { DEFAULT_BACKOFF } from './options.ts';
import { syncRules } from './rules-sync.ts';
import type { SessionEnv } from './session.ts';
import { syncController, type SyncPhase } from './sync.ts';

export interface SyncStatus {
  phase: SyncPhase;
  done: number;
  total: number;
}

export interface SyncPassOptions {
  /** Read back the rules it can (a full pass). */
  compare: boolean;
  /** Also write again what cannot be read back (sync now). */
  rewrite: boolean;
  /** The pass's progress as it goes; undefined once it ended. */
  progress(status: SyncStatus | undefined): void;
  /** The pass ended with the controller's answer (not thrown): clean or not, and the cards it holds if clean. */
  ended(ok: boolean, expectedCards: number): void;
}

/**
 * The progress of a pass: every step kept for the screens, told to the area's browsers at most every 500 ms
 * (and at its first, last and end steps), and written to the state row one write after another.
 */
function progressReporter(
  env: SessionEnv,
  device: ControllerRef,
  ctx: ServiceContext,
  keep: (status: SyncStatus) => void,
): { report(phase: SyncPhase, done: number, total: number): void; written(): Promise<void> } {
  let lastReport = 0;
  let progressWritten: Promise<void> = Promise.resolve();
  const report = (phase: SyncPhase, done: number, total: number) => {
    keep({ phase, done, total });
    const t = Date.now();
    if (phase !== 'done' && done !== 0 && done !== total && t - lastReport < 500) return;
    lastReport = t;
    env.hub?.publish(device.AreaId, {
      Type: 'SyncProgress',
      DeviceId: device.Id,
      Phase: phase,
      Done: done,
      Total: total,
    });
    // One after another, and all written before the pass's final state: on PostgreSQL two writes in flight on
    // different connections may commit in either order, and a late "running" would stay after the end.
    progressWritten = progressWritten.then(() =>
      saveDeviceState(ctx, device.Id, {
        SyncState: phase === 'done' ? 'done' : 'running',
        SyncPhase: phase,
        SyncDone: done,
        SyncTotal: total,
      }).catch(() => {}),
    );
  };
  return { report, written: () => progressWritten };
}

/** Runs one pass: its start, progress and end written to the controller's state row and told live. */
export async function runSyncPass(
  env: SessionEnv,
  device: ControllerRef,
  wg: WgDevice,
  ctx: ServiceContext,
  options: SyncPassOptions,
): Promise<void> {
  const { compare, rewrite } = options;
  const progress = progressReporter(env, device, ctx, options.progress);
  try {
    await saveDeviceState(ctx, device.Id, {
      SyncState: 'running',
      SyncStartedAt: ctx.clock.now(),
      SyncError: null,
    });
    const backoff = env.options.backoff ?? DEFAULT_BACKOFF;
    const outcome = await syncController(env.driver, ctx, device, wg, {
      backoff,
      onProgress: progress.report,
      rulesFirst: () => syncRules(env.driver, ctx, device, wg, { backoff, compare, rewrite, hub: env.hub }),
    });
    options.ended(outcome.ok, outcome.expectedCards);
    await progress.written();
    await saveDeviceState(ctx, device.Id, {
      SyncState: outcome.ok ? 'done' : 'failed',
      SyncPhase: null,
      SyncFinishedAt: ctx.clock.now(),
      SyncError: outcome.error,
    });
    env.hub?.publish(device.AreaId, {
      Type: 'SyncProgress',
      DeviceId: device.Id,
      Phase: 'done',
      Ok: outcome.ok,
      Error: outcome.error,
      Issued: outcome.issued,
      Deleted: outcome.confirmedDeleted,
    });
  } catch (error) {
    options.progress(undefined);
    // Given away during the pass (the lease moved; the new owner syncs it): nothing failed, and this instance may
    // write nothing more of the controller. Before, the rejection of the pass's first write went unhandled.
    if (error instanceof LeaseLostError) {
      env.log.info({ serial: device.SerialNumber }, 'wg sync: controller given away during the pass');
      return;
    }
    env.log.error({ err: error, serial: device.SerialNumber }, 'wg sync');
    await progress.written();
    await saveDeviceState(ctx, device.Id, {
      SyncState: 'failed',
      SyncPhase: null,
      SyncFinishedAt: ctx.clock.now(),
    }).catch(() => {});
  }
}
