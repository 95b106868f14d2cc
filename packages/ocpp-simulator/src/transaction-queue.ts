import type { StartTransactionConf } from './ocpp.ts';

/** A transaction message waiting for the connection; `txRef` is filled in with the transactionId when sent. */
export interface Queued {
  action: 'StartTransaction' | 'StopTransaction' | 'MeterValues';
  payload: Record<string, unknown>;
  txRef: number;
}

/** What the queue needs of its charge point. */
export interface QueueLink {
  /** Connected and booted: messages may go. */
  ready(): boolean;
  online(): boolean;
  call(action: string, payload: Record<string, unknown>): Promise<unknown>;
  /** The central system answered a StartTransaction with this id. */
  started(txRef: number, transactionId: number): void;
  log(text: string): void;
}

/**
 * A charge point's transaction messages (OCPP 1.6: StartTransaction, StopTransaction, MeterValues of a
 * transaction) must reach the central system in order and exactly as made, also across lost connections: they
 * are sent at once when possible and queued otherwise, and those of a transaction whose start is still on the
 * way wait for its transactionId.
 */
export class TransactionQueue {
  private readonly queue: Queued[] = [];
  private flushing: Promise<void> | undefined;
  /** The central system's id per local transaction reference. */
  private readonly txIds = new Map<number, number>();
  /** Local transaction references whose StartTransaction is on the way. */
  private readonly startsInFlight = new Set<number>();

  constructor(private readonly link: QueueLink) {}

  get length(): number {
    return this.queue.length;
  }

  /**
   * Sends a transaction message now, or queues it when offline, when older ones still wait, or when the call
   * fails on the way: transaction messages must reach the central system, in order, exactly as made.
   * Resolves with the answer when sent now, undefined when queued.
   */
  async send(action: Queued['action'], payload: Record<string, unknown>, txRef: number): Promise<unknown> {
    const entry: Queued = { action, payload, txRef };
    if (!this.link.ready() || this.queue.length > 0 || this.waitsForId(entry)) {
      this.queue.push(entry);
      if (this.link.ready()) void this.flush();
      return undefined;
    }
    try {
      return await this.deliver(entry);
    } catch (error) {
      if (isCallRejection(error)) throw error;
      // Connection lost or timed out: the central system may or may not have it; send it again later (a
      // central system must accept the repeat, which is what retries look like to it). First in line: what
      // was queued while it was on the way came after it.
      this.queue.unshift(entry);
      return undefined;
    }
  }

  /** A transaction taken up with the id the central system gave it before (ChargePoint.resume). */
  known(txRef: number, transactionId: number): void {
    this.txIds.set(txRef, transactionId);
  }

  private waitsForId(entry: Queued): boolean {
    return entry.action !== 'StartTransaction' && !this.txIds.has(entry.txRef);
  }

  private async deliver(entry: Queued): Promise<unknown> {
    const payload =
      entry.action === 'StartTransaction'
        ? entry.payload
        : { ...entry.payload, transactionId: this.txIds.get(entry.txRef)! };
    if (entry.action === 'StartTransaction') this.startsInFlight.add(entry.txRef);
    let conf: unknown;
    try {
      conf = await this.link.call(entry.action, payload);
    } finally {
      this.startsInFlight.delete(entry.txRef);
    }
    if (entry.action === 'StartTransaction') {
      const start = conf as StartTransactionConf;
      this.txIds.set(entry.txRef, start.transactionId);
      this.link.started(entry.txRef, start.transactionId);
      // Messages of this transaction made while its start was on the way can go now.
      if (this.queue.length > 0) void this.flush();
    }
    return conf;
  }

  /** Forgets every queued message (a charge point that lost power and keeps no transaction log). */
  clear(): void {
    this.queue.length = 0;
    this.startsInFlight.clear();
  }

  /** Resends the queue in order; stops at the first failure and keeps the rest. */
  flush(): Promise<void> {
    // Assigned before the loop starts, so a loop that ends at once cannot leave a settled promise behind.
    if (!this.flushing) {
      this.flushing = Promise.resolve()
        .then(() => this.drain())
        .finally(() => {
          this.flushing = undefined;
        });
    }
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && this.link.online()) {
      const entry = this.queue[0]!;
      if (this.waitsForId(entry)) {
        // Its StartTransaction is still on the way: its answer flushes again.
        if (this.startsInFlight.has(entry.txRef)) return;
        // Its StartTransaction was refused: the central system knows no such transaction.
        this.link.log(`${entry.action} dropped: its transaction never started`);
        this.queue.shift();
        continue;
      }
      try {
        await this.deliver(entry);
      } catch (error) {
        if (!isCallRejection(error)) return;
        // The central system answered with a CallError: resending the same message cannot help.
        this.link.log(`${entry.action} refused: ${String(error)}`);
      }
      this.queue.shift();
    }
  }
}

/** A CallError from the central system (it answered), as opposed to a lost connection or a timeout. */
function isCallRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'rpcErrorCode' in error;
}
