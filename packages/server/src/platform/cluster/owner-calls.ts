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
 */

/** What came back from an owner. */
export type OwnerReply =
  /** The owner ran it: its answer, in the service's own shape. */
  | { kind: 'reply'; reply: Json }
  /** The owner is not a live instance (no heartbeat within the registry's window): nothing was sent. */
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
      handler(message),
    );
  }

  /** Resolves when what this instance serves is being received (PostgreSQL: LISTENs in place). */
  ready(): Promise<void> {
    return this.options.bus.ready();
  }

  /**
   * Sends `message` to `owner`'s `service` and waits at most `timeoutMs` for its answer. Never rejects: every
   * outcome is an OwnerReply. Calling this instance itself goes through the bus too (served locally).
   */
  async call(service: string, owner: string, message: Json, timeoutMs: number): Promise<OwnerReply> {
    try {
      if (owner !== this.options.self && !(await this.options.isLive(owner))) return { kind: 'gone' };
      const reply = await this.options.bus.request(OwnerCalls.channel(service, owner), message, timeoutMs);
      return { kind: 'reply', reply };
    } catch (error) {
      if (error instanceof BusTimeoutError) return { kind: 'noAnswer' };
      return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
