// What the WG gateway is started with (gateway.ts), and what its controller sessions see of it (session.ts).

import type { Db } from '../../db/database.ts';
import { LeaseLostError, type OwnedDevices, type OwnerCalls } from '../../platform/cluster/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import type { GatewayMetrics } from '../../platform/metrics.ts';
import type { WgDriverOptions } from './driver.ts';

/** The live hub as the gateway sees it (tests hand it a recorder). */
export type HubLike = LiveEvents;

export interface GatewayLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const noLog: GatewayLog = { info() {}, warn() {}, error() {} };

/**
 * Logs what a controller's work threw. A LeaseLostError is a write refused behind this instance's lease on the
 * controller, which is what the fence is for in a cluster: the controller went to another instance, or this one's
 * own view of the lease ran out (a renewal round late, the next one renews it), so it is told at info level;
 * anything else is an error.
 */
export function logControllerFailure(log: GatewayLog, error: unknown, serial: string, what: string): void {
  if (error instanceof LeaseLostError)
    log.info(
      { serial, lease: error.message },
      `${what}: write refused, the controller is not driven here now (lease moved or lapsed)`,
    );
  else log.error({ err: error, serial }, what);
}

export interface WgGatewayOptions {
  db: Db;
  clock: Clock;
  hub?: HubLike;
  log?: GatewayLog;
  /** `WG_LISTEN`: where pushed events arrive ("host:port"); null: no listener, polling only. */
  listen?: string | null;
  /** `WG_ADVERTISE`: the address controllers push to (NAT); default the listener's own, or the local address facing each controller. */
  advertise?: string | null;
  /** seconds between collection polls (the watchdog behind pushes) */
  pollSeconds?: number;
  /** seconds between looks for authorisations waiting for a controller */
  syncSeconds?: number;
  /** minutes between clock-drift readings */
  driftMinutes?: number;
  /** back-off of failed syncs */
  backoff?: { baseMs: number; maxMs: number };
  driver?: WgDriverOptions;
  /** set each controller's listener (0x90) and special-event recording (0x8E) when it first answers */
  configureControllers?: boolean;
  /** seconds between looks at whether a controller forgot its settings (its listener, 0x92) */
  resetCheckSeconds?: number;
  /** seconds a controller stays silent before the door monitor raises its offline alarm */
  offlineAlarmSeconds?: number;
  /**
   * Several instances (docs/deployment.md, "Door controllers across instances"): the controllers this
   * instance drives, shared out by fenced leases, and the calls that carry a command to the instance driving a
   * controller. Without it this gateway drives every controller (one process).
   */
  ownership?: WgOwnership;
  /** Where the records stored are counted (platform/metrics.ts). */
  metrics?: GatewayMetrics;
}

export interface WgOwnership {
  /** Lease kind `wg`, keyed by the controller's id. */
  devices: OwnedDevices;
  owners: OwnerCalls;
  /** ms between ownership rounds (renew, balance): default 5 s, a quarter of the lease term. */
  everyMs?: number;
}

/** The default back-off of failed syncs. */
export const DEFAULT_BACKOFF = { baseMs: 2000, maxMs: 300_000 };
