import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import pg from 'pg';
import { BusCore, type ErrorReporter } from './bus.ts';

/**
 * The bus over PostgreSQL LISTEN/NOTIFY, between processes (docs/deployment.md, "Cluster building blocks").
 *
 * Receiving: one dedicated `pg.Client` per bus, outside the pool (a pooled connection is handed to other
 * queries and a transaction-mode pooler would drop its LISTENs). It LISTENs to `<namespace>.<channel>` for
 * every channel with a subscriber or a server, plus its own inbox `<namespace>.~<tag>` for replies. When it
 * is lost (error, end, or a ping unanswered) it reconnects with exponential back-off and jitter, LISTENs
 * again, and then fires the resync handlers: what was published meanwhile is gone.
 *
 * Publishing: through the application's pool (the Kysely given), never inside a transaction: a NOTIFY
 * in a transaction takes a database-wide lock at commit. Items published while a statement is in flight,
 * or in the same turn of the event loop, go out together: the items of one channel packed into as few
 * payloads as fit (each `[tag, seq, item…]` < 8,000 bytes), and all payloads in one
 * `select pg_notify($1, $2), pg_notify($3, $4)…` statement. At most one statement is in flight, so
 * messages leave in publish order and a burst becomes a few large statements instead of many small ones.
 *
 * Own messages: PostgreSQL does deliver a NOTIFY to the listening session of the same bus (checked: also
 * when it was sent from another session of the same process, and from the listening session itself). The
 * bus delivers its own messages to its own subscribers directly when publishing (no round trip, and even
 * while the listener reconnects), and drops the echo by its tag.
 */

/** A NOTIFY payload must be shorter than 8,000 bytes. */
const MAX_PAYLOAD_BYTES = 7999;
/** Notifications per statement: bounds the statement size (and its parameter count) in a burst. */
const MAX_NOTIFIES_PER_STATEMENT = 200;

export interface PgBusOptions {
  /** The application's database (its pool publishes); `db.kysely` itself, not a transaction of it. */
  db: Pick<Db, 'kysely'>;
  /** The database URL, for the dedicated listening connection. */
  url: string;
  /**
   * Prefix of every PostgreSQL channel name, 1 to 12 letters, digits or `_`. LISTEN/NOTIFY channels are per
   * database, not per schema: two deployments (or test schemas) sharing a database need different ones.
   */
  namespace?: string;
  /** Reconnection back-off of the listening connection: from minMs, doubling, at most maxMs (plus jitter). */
  reconnect?: { minMs?: number; maxMs?: number };
  /** How often the listening connection is checked with `select 1`, and how long the answer may take. */
  pingMs?: number;
  pingTimeoutMs?: number;
  onError?: ErrorReporter;
}

export interface PgBusStats {
  /** Items handed to the database (messages, requests, replies). */
  items: number;
  /** NOTIFY payloads sent (items packed several to a payload). */
  notifications: number;
  /** `select pg_notify(…)…` statements run. */
  statements: number;
  /** Times the listening connection was established (1 + reconnections). */
  connections: number;
}

interface Outgoing {
  physical: string;
  item: string;
  resolve(): void;
  reject(error: Error): void;
}

const NAMESPACE = /^[A-Za-z0-9_]{1,12}$/;

export class PgBus extends BusCore {
  private readonly namespace: string;
  private readonly kysely: Kysely<unknown>;
  private readonly prefix: string;
  private readonly inbox: string;
  private client: pg.Client | undefined;
  /** Channels LISTENed on the current client. */
  private listening = new Set<string>();
  /** LISTEN/UNLISTEN statements on the current client run one after another on this chain. */
  private listenChain: Promise<void> = Promise.resolve();
  private connectedOnce = false;
  private connectWaiters: (() => void)[] = [];
  private pingTimer: NodeJS.Timeout | undefined;
  private loop: Promise<void>;
  private wake: (() => void) | undefined;
  private queue: Outgoing[] = [];
  private flushing: Promise<void> | undefined;
  private seq = 0;
  private listenerPidValue: number | undefined;
  readonly stats: PgBusStats = { items: 0, notifications: 0, statements: 0, connections: 0 };

  constructor(private readonly options: PgBusOptions) {
    super(options.onError);
    this.namespace = options.namespace ?? 'gh';
    if (!NAMESPACE.test(this.namespace))
      throw new Error(`bus namespace must be 1 to 12 letters, digits or "_" (got ${this.namespace})`);
    if (options.db.kysely.isTransaction)
      throw new Error('PgBus publishes outside transactions: give it the root Kysely, not a transaction');
    this.kysely = options.db.kysely as Kysely<unknown>;
    this.prefix = `${this.namespace}.`;
    this.inbox = `${this.prefix}~${this.tag}`;
    this.loop = this.run();
  }

  // ---- receiving -------------------------------------------------------------------------------------

  private physical(channel: string) {
    return this.prefix + channel;
  }

  /** The listening connection's life: connect, LISTEN, wait until lost, back off, again. */
  private async run(): Promise<void> {
    const minMs = this.options.reconnect?.minMs ?? 100;
    const maxMs = this.options.reconnect?.maxMs ?? 5000;
    let attempt = 0;
    while (!this.closed) {
      const client = new pg.Client({
        connectionString: this.options.url,
        keepAlive: true,
        // Names the connection in pg_stat_activity (an operator looking for the listeners).
        application_name: 'gatehouse-bus',
      });
      const lost = new Promise<void>((resolve) => {
        client.on('error', (error) => {
          if (!this.closed) this.report(error, 'listening connection');
          resolve();
        });
        client.on('end', () => resolve());
        this.wake = resolve;
      });
      client.on('notification', (n) => this.onNotification(n));
      try {
        await client.connect();
        const pid = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        if (!this.closed) {
          this.listenerPidValue = pid.rows[0]?.pid;
          this.client = client;
          this.listening = new Set();
          this.listenChain = Promise.resolve();
          await this.syncListens(client);
        }
        if (!this.closed && this.client === client) {
          this.stats.connections++;
          attempt = 0;
          const reconnected = this.connectedOnce;
          this.connectedOnce = true;
          this.startPing(client);
          for (const waiter of this.connectWaiters.splice(0)) waiter();
          if (reconnected) void this.resync();
          await lost;
        }
      } catch (error) {
        if (!this.closed) this.report(error, 'listening connection');
      }
      this.stopPing();
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      // A broken connection may never answer `end`: destroy the socket, keep an error handler for stragglers.
      client.on('error', () => {});
      client.connection.stream.destroy();
      if (this.closed) break;
      const delay = Math.min(maxMs, minMs * 2 ** attempt++);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay * (0.75 + Math.random() * 0.5));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private startPing(client: pg.Client) {
    const every = this.options.pingMs ?? 10_000;
    const timeout = this.options.pingTimeoutMs ?? 5000;
    this.pingTimer = setInterval(() => {
      let timer: NodeJS.Timeout | undefined;
      const answered = client.query('select 1').then(
        () => true,
        () => false,
      );
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeout)));
      void Promise.race([answered, late]).then((ok) => {
        clearTimeout(timer);
        // Silent network loss shows no error on an idle socket: an unanswered ping ends the connection.
        if (!ok && this.client === client) this.wake?.();
      });
    }, every);
    this.pingTimer.unref();
  }

  private stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  protected override channelsChanged(): void {
    const client = this.client;
    if (client) this.syncListens(client).catch((error) => this.report(error, 'LISTEN'));
  }

  /** LISTENs to every wanted channel not yet listened to and UNLISTENs the others, in order. */
  private syncListens(client: pg.Client): Promise<void> {
    const step = async () => {
      if (this.client !== client) return;
      const wanted = new Set([...this.wantedChannels()].map((c) => this.physical(c)));
      wanted.add(this.inbox);
      for (const channel of wanted) {
        if (this.listening.has(channel)) continue;
        // Quoted: channel names keep their case and may hold `.`, `:` and `-`.
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        this.listening.add(channel);
      }
      for (const channel of [...this.listening]) {
        if (wanted.has(channel)) continue;
        await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`);
        this.listening.delete(channel);
      }
    };
    const next = this.listenChain.then(step);
    this.listenChain = next.catch(() => {});
    return next;
  }

  async ready(): Promise<void> {
    while (!this.closed) {
      const client = this.client;
      if (client) {
        try {
          await this.syncListens(client);
          if (this.client === client) return;
        } catch {
          // Lost meanwhile: wait for the next connection.
          if (this.client === client) await new Promise<void>((resolve) => this.connectWaiters.push(resolve));
        }
      } else await new Promise<void>((resolve) => this.connectWaiters.push(resolve));
    }
  }

  private onNotification(n: pg.Notification) {
    if (this.closed || !n.payload) return;
    let payload: unknown;
    try {
      payload = JSON.parse(n.payload);
    } catch {
      return; // not ours: somebody else's NOTIFY on a channel of our namespace
    }
    if (!Array.isArray(payload) || typeof payload[0] !== 'string') return;
    const from = payload[0];
    if (from === this.tag) return; // our own message, delivered locally when published
    const channel =
      n.channel === this.inbox
        ? null
        : n.channel.startsWith(this.prefix)
          ? n.channel.slice(this.prefix.length)
          : undefined;
    if (channel === undefined) return;
    for (let i = 2; i < payload.length; i++) this.receive(channel, payload[i], from);
  }

  // ---- publishing ------------------------------------------------------------------------------------

  protected transmit(channel: string, item: string): Promise<void> {
    return this.enqueue(this.physical(channel), item);
  }

  protected transmitReply(to: string, item: string): Promise<void> {
    return this.enqueue(`${this.prefix}~${to}`, item);
  }

  private enqueue(physical: string, item: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ physical, item, resolve, reject });
      // Wait for the rest of this turn's messages, then send them together; while a statement is in
      // flight, everything queued joins the next one.
      if (!this.flushing) this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        const payloads = this.pack(batch);
        for (let i = 0; i < payloads.length; i += MAX_NOTIFIES_PER_STATEMENT) {
          const part = payloads.slice(i, i + MAX_NOTIFIES_PER_STATEMENT);
          try {
            await sql`select ${sql.join(part.map((p) => sql`pg_notify(${p.physical}, ${p.text})`))}`.execute(
              this.kysely,
            );
            this.stats.statements++;
            this.stats.notifications += part.length;
            for (const p of part) for (const o of p.items) o.resolve();
          } catch (error) {
            for (const p of part) for (const o of p.items) o.reject(error as Error);
          }
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * Packs items into payloads: per channel, in order, as many as fit under 8,000 bytes. Each payload starts
   * with the tag and a sequence number, which also keeps two payloads of one statement from being identical
   * (PostgreSQL delivers identical notifications of one transaction only once).
   */
  private pack(batch: Outgoing[]): { physical: string; text: string; items: Outgoing[] }[] {
    const byChannel = new Map<string, Outgoing[]>();
    for (const o of batch) {
      let list = byChannel.get(o.physical);
      if (!list) byChannel.set(o.physical, (list = []));
      list.push(o);
    }
    const out: { physical: string; text: string; items: Outgoing[] }[] = [];
    const head = () => `[${JSON.stringify(this.tag)},${this.seq++}`;
    for (const [physical, list] of byChannel) {
      let text = head();
      let bytes = Buffer.byteLength(text);
      let items: Outgoing[] = [];
      for (const o of list) {
        const size = Buffer.byteLength(o.item) + 1; // the comma before it
        if (items.length > 0 && bytes + size + 1 > MAX_PAYLOAD_BYTES) {
          out.push({ physical, text: `${text}]`, items });
          text = head();
          bytes = Buffer.byteLength(text);
          items = [];
        }
        text += `,${o.item}`;
        bytes += size;
        items.push(o);
      }
      out.push({ physical, text: `${text}]`, items });
      this.stats.items += list.length;
    }
    return out;
  }

  protected async shutdown(): Promise<void> {
    // What was published before close still leaves.
    while (this.flushing) await this.flushing;
    for (const waiter of this.connectWaiters.splice(0)) waiter();
    this.wake?.();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
    await this.loop;
  }

  override get connected(): boolean {
    return !this.closed && this.client !== undefined;
  }

  /** The backend pid of the listening connection while connected (pg_stat_activity, pg_terminate_backend). */
  get listenerPid(): number | undefined {
    return this.client ? this.listenerPidValue : undefined;
  }

  /** Ends the listening connection as a network failure would (tests of the reconnection). */
  dropListener(): void {
    this.client?.connection.stream.destroy();
  }
}
