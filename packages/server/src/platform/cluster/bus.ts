import { randomBytes } from 'node:crypto';

/**
 * The cross-instance message bus (docs/deployment.md, "Cluster building blocks"): publish/subscribe for
 * events every instance must see (a revoked session, a changed setting, a live event for the hub), and
 * request/reply for a command that only one instance can carry out (the one owning a device) with its answer
 * back to the caller.
 *
 * Two implementations behind this one interface: LocalBus (one process, SQLite and tests; several LocalBus
 * joined by a LocalBusNetwork stand for several instances in one test) and PgBus (pg-bus.ts, PostgreSQL
 * LISTEN/NOTIFY between processes). Delivery is at most once, in publish order per publisher: nothing is
 * kept for an instance that was away, which is why `onResync` exists.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A message's serialised JSON may not exceed this (PostgreSQL's NOTIFY payload is < 8,000 bytes). */
export const MAX_MESSAGE_BYTES = 7900;

export interface MessageMeta {
  channel: string;
  /** The sending bus's tag (random per bus, not the instance id). */
  from: string;
  /** Whether it was published by this very bus. */
  local: boolean;
}

export type MessageHandler = (message: Json, meta: MessageMeta) => void | Promise<void>;

/**
 * Answers a request: a JSON reply, or `undefined` to decline (no reply is sent, so the caller hears from
 * another server or times out: how an instance says "not mine"). A throw is sent back as BusRemoteError.
 */
export type RequestHandler = (
  message: Json,
  meta: MessageMeta,
) => Json | undefined | Promise<Json | undefined>;

export type Unsubscribe = () => void;

export interface Bus {
  /** Identifies this bus in MessageMeta.from. */
  readonly tag: string;
  /**
   * Sends `message` to every subscriber of `channel` on every instance, this one's included (delivered
   * here directly, not through the database). Resolves once it left; rejects with BusPayloadTooLargeError
   * above MAX_MESSAGE_BYTES, BusChannelError for a bad channel name, or the transport's error. Publish
   * after the transaction that made the change committed: subscribers reload what the message names.
   */
  publish(channel: string, message: Json): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Unsubscribe;
  /**
   * Sends a request to whichever instances `serve(channel)` and resolves with the first reply. Rejects with
   * BusTimeoutError when no reply came within `timeoutMs` (nobody serves it, the server declined, or it was
   * too slow: the caller answers "no answer"), BusRemoteError when the server threw. To reach the owner of a
   * device, name the owner in the channel (`wg.cmd.<instance id>`), or serve one channel everywhere and let
   * the non-owners decline.
   */
  request(channel: string, message: Json, timeoutMs: number): Promise<Json>;
  /** One server per channel per bus: a second `serve` of the same channel replaces the first. */
  serve(channel: string, handler: RequestHandler): Unsubscribe;
  /**
   * Called after the listening connection came back from a loss (not on the first connection): messages
   * may have been missed meanwhile, so each subscriber reloads what it caches.
   */
  onResync(handler: () => void | Promise<void>): Unsubscribe;
  /** Resolves when every channel subscribed or served so far is being received. */
  ready(): Promise<void>;
  /** Whether messages from other instances are being received now (PgBus: its listening connection is up). */
  readonly connected: boolean;
  close(): Promise<void>;
}

export class BusTimeoutError extends Error {
  readonly code = 'BUS_TIMEOUT';
  constructor(
    readonly channel: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply on ${channel} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

export class BusRemoteError extends Error {
  readonly code = 'BUS_REMOTE';
  constructor(
    readonly channel: string,
    remoteMessage: string,
  ) {
    super(`the server of ${channel} failed: ${remoteMessage}`);
    this.name = 'BusRemoteError';
  }
}

export class BusPayloadTooLargeError extends Error {
  readonly code = 'BUS_PAYLOAD_TOO_LARGE';
  constructor(
    readonly channel: string,
    readonly bytes: number,
  ) {
    super(
      `message on ${channel} is ${bytes} bytes of JSON; the bus carries at most ${MAX_MESSAGE_BYTES} ` +
        '(send an id and let the receiver load the rest)',
    );
    this.name = 'BusPayloadTooLargeError';
  }
}

export class BusChannelError extends Error {
  readonly code = 'BUS_CHANNEL';
  constructor(channel: string) {
    super(
      `invalid bus channel ${JSON.stringify(channel)}: 1 to 48 letters, digits, ".", "_", ":" or "-" ` +
        '(PostgreSQL channel names are at most 63 bytes with the namespace)',
    );
    this.name = 'BusChannelError';
  }
}

export class BusClosedError extends Error {
  readonly code = 'BUS_CLOSED';
  constructor() {
    super('the bus is closed');
    this.name = 'BusClosedError';
  }
}

const CHANNEL = /^[A-Za-z0-9_.:-]{1,48}$/;

export function checkChannel(channel: string): void {
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) throw new BusChannelError(channel);
}

/** The JSON text of a message, refused above MAX_MESSAGE_BYTES or when it is not JSON at all. */
export function encodeMessage(channel: string, message: Json): string {
  const text = JSON.stringify(message) as string | undefined;
  if (text === undefined) throw new TypeError(`message on ${channel} is not JSON`);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_MESSAGE_BYTES) throw new BusPayloadTooLargeError(channel, bytes);
  return text;
}

/**
 * What travels between buses: one item per message, as JSON arrays.
 *   [0, message]            published on a channel
 *   [1, id, message]        a request on a channel; the reply goes to the sender's inbox
 *   [2, id, reply]          a reply, to the requester's inbox
 *   [3, id, error text]     the server threw
 */
export type WireItem = [0, Json] | [1, string, Json] | [2, string, Json] | [3, string, string];

export type ErrorReporter = (error: unknown, context: string) => void;

const defaultReporter: ErrorReporter = (error, context) => console.error(`[bus] ${context}:`, error);

interface Pending {
  channel: string;
  resolve(reply: Json): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Subscribers, servers, pending requests and resync handlers: the part both implementations share. A
 * subclass says how an item leaves (`transmit`, `transmitReply`) and feeds what arrives to `receive`.
 */
export abstract class BusCore implements Bus {
  /** 8 url-safe characters, unique per bus: echo suppression and reply addresses. */
  readonly tag = randomBytes(6).toString('base64url');
  protected readonly subscribers = new Map<string, Set<MessageHandler>>();
  protected readonly servers = new Map<string, RequestHandler>();
  private readonly pending = new Map<string, Pending>();
  private readonly resyncHandlers = new Set<() => void | Promise<void>>();
  private nextRequest = 0;
  protected closed = false;

  get connected(): boolean {
    return !this.closed;
  }

  constructor(protected readonly report: ErrorReporter = defaultReporter) {}

  /** Sends an item (already JSON) to the other instances on `channel`. */
  protected abstract transmit(channel: string, item: string): Promise<void>;
  /** Sends a reply item (already JSON) to the bus tagged `to`. */
  protected abstract transmitReply(to: string, item: string): Promise<void>;
  /** The set of channels with a subscriber or a server changed (PgBus LISTENs or UNLISTENs). */
  protected channelsChanged(): void {}
  abstract ready(): Promise<void>;
  protected abstract shutdown(): Promise<void>;

  /** Channels this bus must receive. */
  protected wantedChannels(): Set<string> {
    return new Set([...this.subscribers.keys(), ...this.servers.keys()]);
  }

  publish(channel: string, message: Json): Promise<void> {
    try {
      if (this.closed) throw new BusClosedError();
      checkChannel(channel);
      const text = encodeMessage(channel, message);
      this.deliver(channel, JSON.parse(text) as Json, this.tag, true);
      return this.transmit(channel, `[0,${text}]`);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  subscribe(channel: string, handler: MessageHandler): Unsubscribe {
    checkChannel(channel);
    let set = this.subscribers.get(channel);
    if (!set) {
      this.subscribers.set(channel, (set = new Set()));
      this.channelsChanged();
    }
    // A wrapper per subscription, so one handler subscribed twice is unsubscribed one at a time.
    const entry: MessageHandler = (m, meta) => handler(m, meta);
    set.add(entry);
    return () => {
      const current = this.subscribers.get(channel);
      if (!current?.delete(entry) || current.size > 0) return;
      this.subscribers.delete(channel);
      this.channelsChanged();
    };
  }

  request(channel: string, message: Json, timeoutMs: number): Promise<Json> {
    if (this.closed) return Promise.reject(new BusClosedError());
    let text: string;
    try {
      checkChannel(channel);
      text = encodeMessage(channel, message);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const id = (this.nextRequest++).toString(36);
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new BusTimeoutError(channel, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { channel, resolve, reject, timer });
      const local = this.servers.get(channel);
      if (local) this.answer(local, channel, id, JSON.parse(text) as Json, this.tag, true);
      this.transmit(channel, `[1,${JSON.stringify(id)},${text}]`).catch((error: unknown) =>
        this.settle(id, (p) => p.reject(error as Error)),
      );
    });
  }

  serve(channel: string, handler: RequestHandler): Unsubscribe {
    checkChannel(channel);
    const had = this.servers.has(channel);
    this.servers.set(channel, handler);
    if (!had) this.channelsChanged();
    return () => {
      if (this.servers.get(channel) !== handler) return;
      this.servers.delete(channel);
      this.channelsChanged();
    };
  }

  onResync(handler: () => void | Promise<void>): Unsubscribe {
    this.resyncHandlers.add(handler);
    return () => void this.resyncHandlers.delete(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id] of this.pending) this.settle(id, (p) => p.reject(new BusClosedError()));
    await this.shutdown();
  }

  /** Runs every resync handler (after a reconnection), each failure reported on its own. */
  protected async resync(): Promise<void> {
    await Promise.all(
      [...this.resyncHandlers].map(async (handler) => {
        try {
          await handler();
        } catch (error) {
          this.report(error, 'resync handler');
        }
      }),
    );
  }

  /** An item that arrived from the bus tagged `from` on `channel` (a reply when `channel` is null). */
  protected receive(channel: string | null, item: unknown, from: string): void {
    if (!Array.isArray(item)) return;
    const [kind, a, b] = item as [number, unknown, unknown];
    if (kind === 0 && channel !== null) this.deliver(channel, a as Json, from, false);
    else if (kind === 1 && channel !== null && typeof a === 'string') {
      const server = this.servers.get(channel);
      if (server) this.answer(server, channel, a, b as Json, from, false);
    } else if (kind === 2 && typeof a === 'string') this.settle(a, (p) => p.resolve(b as Json));
    else if (kind === 3 && typeof a === 'string')
      this.settle(a, (p) => p.reject(new BusRemoteError(p.channel, String(b))));
  }

  private settle(id: string, action: (p: Pending) => void) {
    const p = this.pending.get(id);
    if (!p) return; // answered already, timed out, or not ours
    this.pending.delete(id);
    clearTimeout(p.timer);
    action(p);
  }

  /** Hands a message to this bus's subscribers of `channel`, each on its own microtask, failures reported. */
  private deliver(channel: string, message: Json, from: string, local: boolean) {
    const set = this.subscribers.get(channel);
    if (!set) return;
    const meta: MessageMeta = { channel, from, local };
    for (const handler of set) {
      queueMicrotask(() => {
        try {
          const result = handler(message, meta);
          if (result instanceof Promise)
            result.catch((error) => this.report(error, `subscriber of ${channel}`));
        } catch (error) {
          this.report(error, `subscriber of ${channel}`);
        }
      });
    }
  }

  private answer(
    handler: RequestHandler,
    channel: string,
    id: string,
    message: Json,
    from: string,
    local: boolean,
  ) {
    const meta: MessageMeta = { channel, from, local };
    const reply = (item: string) => {
      if (local) {
        this.receive(null, JSON.parse(item), this.tag);
        return;
      }
      this.transmitReply(from, item).catch((error) => this.report(error, `reply on ${channel}`));
    };
    void (async () => {
      let result: Json | undefined;
      try {
        result = await handler(message, meta);
      } catch (error) {
        reply(JSON.stringify([3, id, error instanceof Error ? error.message : String(error)]));
        return;
      }
      if (result === undefined || this.closed) return;
      let text: string;
      try {
        text = encodeMessage(channel, result);
      } catch (error) {
        reply(JSON.stringify([3, id, `reply refused: ${(error as Error).message}`]));
        return;
      }
      reply(`[2,${JSON.stringify(id)},${text}]`);
    })();
  }
}

/** Joins LocalBus objects so they reach each other as separate instances would (tests, one process). */
export class LocalBusNetwork {
  readonly members = new Set<LocalBus>();
}

/**
 * The in-process bus: SQLite runs one instance, and every message goes to this process's subscribers.
 * Messages are JSON-copied and size-checked as on PostgreSQL, so code tested here behaves the same there.
 */
export class LocalBus extends BusCore {
  private readonly network: LocalBusNetwork;

  constructor(options: { network?: LocalBusNetwork; onError?: ErrorReporter } = {}) {
    super(options.onError);
    this.network = options.network ?? new LocalBusNetwork();
    this.network.members.add(this);
  }

  protected async transmit(channel: string, item: string): Promise<void> {
    for (const member of this.network.members) {
      // Another member receives it as it would arrive from the database: after this turn, parsed afresh.
      if (member !== this)
        setImmediate(() => member.closed || member.receive(channel, JSON.parse(item), this.tag));
    }
  }

  protected async transmitReply(to: string, item: string): Promise<void> {
    for (const member of this.network.members) {
      if (member.tag === to)
        setImmediate(() => member.closed || member.receive(null, JSON.parse(item), this.tag));
    }
  }

  async ready(): Promise<void> {}

  protected async shutdown(): Promise<void> {
    this.network.members.delete(this);
  }
}
