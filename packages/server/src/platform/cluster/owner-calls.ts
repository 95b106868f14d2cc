import { BusTimeoutError, type Bus, type Json, type Unsubscribe } from './bus.ts';

/**
 * Calls addressed to the instance that owns a device (docs/deployment.md, "Commands reach the owner"): a
 * command issued on any instance is carried over the bus to the one holding the device's connection, which
 * runs it on its own connection and replies on the bus; the caller gets the answer or learns that none came.
 *
 * Addressing is by channel: every instance serves `<service>.<its id>` (`ocpp.cmd.node-a`), so a request
 * reaches the named owner only (no declining, no broadcast). Correlation and the reply's way back are the
 * bus's (bus.ts: a request id, the requester's inbox, a timeout). The owner itself is found by the caller
 * (the device's row names it: ChargeHost.OcppInstance) and checked alive in the instance registry first, so
 * a device whose holder died is "not connected" at once instead of after a timeout.
 *
 * A holder killed a moment ago still looks live there (its last heartbeat is within the registry's window for
 * up to 20 s). A caller that must not wait for the full answer time to learn that (a door command: the
 * operator waits for it) asks for a reach check first (`reachMs`): the serving side answers a probe itself,
 * before any handler runs, so a live owner answers in milliseconds and a dead one not at all.
 */

/** The probe a reach check sends: answered by `serve`'s wrapper, never passed to the service's handler. */
const PROBE = '~probe';
const isProbe = (message: Json): boolean =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && PROBE in message;

/** What came back from an owner. */
export type OwnerReply =
  /** The owner ran it: its answer, in the service's own shape. */
  | { kind: 'reply'; reply: Json }
  /**
   * The owner is not a live instance (no heartbeat within the registry's window), or did not answer the reach
   * check: nothing was sent.
   */
  | { kind: 'gone' }
  /** Sent, and no answer within the time given (the owner is paused, overloaded, or died meanwhile). */
  | { kind: 'noAnswer' }
  /** The owner's handler threw, or the bus failed: the text says what. */
  | { kind: 'failed'; detail: string };

export interface OwnerCallsOptions {
  bus: Bus;
  /** This instance's id (config.instanceId). */
  self: string;
  /** Whether an instance is live now (the registry's heartbeats). */
  isLive(instanceId: string): Promise<boolean>;
}

export class OwnerCalls {
  constructor(private readonly options: OwnerCallsOptions) {}

  /** The channel an instance serves `service` on. */
  static channel(service: string, instanceId: string): string {
    return `${service}.${instanceId}`;
  }

  /**
   * Serves `service` for this instance: `handler` runs each call addressed here and its result is the reply.
   * It must not forward the call again (the owner answers from what it holds, "not connected" included).
   */
  serve(service: string, handler: (message: Json) => Promise<Json>): Unsubscribe {
    return this.options.bus.serve(OwnerCalls.channel(service, this.options.self), (message) =>
      isProbe(message) ? { [PROBE]: true } : handler(message),
    );
  }

  /** Resolves when what this instance serves is being received (PostgreSQL: LISTENs in place). */
  ready(): Promise<void> {
    return this.options.bus.ready();
  }

  /**
   * Sends `message` to `owner`'s `service` and waits at most `timeoutMs` for its answer. Never rejects: every
   * outcome is an OwnerReply. Calling this instance itself goes through the bus too (served locally).
   * `reachMs`: first check within that time that the owner serves the service at all (a probe); no answer is
   * `gone`, and the message is not sent.
   */
  async call(
    service: string,
    owner: string,
    message: Json,
    timeoutMs: number,
    reachMs?: number,
  ): Promise<OwnerReply> {
    const channel = OwnerCalls.channel(service, owner);
    try {
      if (owner !== this.options.self && !(await this.options.isLive(owner))) return { kind: 'gone' };
      if (reachMs !== undefined && !(await this.reaches(channel, reachMs))) return { kind: 'gone' };
      const reply = await this.options.bus.request(channel, message, timeoutMs);
      return { kind: 'reply', reply };
    } catch (error) {
      if (error instanceof BusTimeoutError) return { kind: 'noAnswer' };
      return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Whether the owner answers a probe on `channel` within `ms` (a timeout is no; other failures throw). */
  private async reaches(channel: string, ms: number): Promise<boolean> {
    try {
      await this.options.bus.request(channel, { [PROBE]: true }, ms);
      return true;
    } catch (error) {
      if (error instanceof BusTimeoutError) return false;
      throw error;
    }
  }
}
