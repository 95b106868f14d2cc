import type { Clock } from '../clock.ts';
import { balance, movesFor } from './balance.ts';
import { LeaseLostError, type Leases } from './leases.ts';
import type { AppKysely } from './tables.ts';

/**
 * Devices of one kind shared out among the live instances (docs/deployment.md, "Door controllers across
 * instances"): each is driven by exactly one instance at a time, under a lease whose epoch fences that
 * instance's writes. Every instance runs a round every `everyMs`:
 *
 * 1. renew what it holds, in one statement (a lease missing from the answer, or at another epoch, was taken
 *    over: it stops driving that device at once);
 * 2. plan with `balance` from the same facts every instance reads (live instances from the registry, holders
 *    of unexpired leases from the table) and apply its own part: release what it must give, acquire what it
 *    must take (an acquire that still finds the old holder simply succeeds at a later round).
 *
 * Its own view of a lease ends one term after the renewal that began before it (the row says the same term
 * from a later instant), so it stops driving before anyone else can have taken the device; a holder that
 * cannot reach the database stops within one term. An instance that stopped renewing (killed, paused, cut off)
 * loses its devices to the others within one term and one round.
 */
export interface OwnedDevicesOptions {
  leases: Leases;
  clock: Clock;
  /** The lease kind: `wg` for door controllers. */
  kind: string;
  /** This instance (config.instanceId). */
  self: string;
  /** The ids of live instances, this one included (the registry's heartbeats). */
  live(): Promise<string[]>;
  /** Lease term: another instance may take a device this long after its holder last renewed. */
  ttlMs: number;
}

export interface OwnershipChange {
  /** Devices this instance drives from now on (a new tenure: a fresh epoch). */
  taken: string[];
  /** Devices it must stop driving now (given away, taken over, or no longer to be driven). */
  lost: string[];
}

export class OwnedDevices {
  /** What this instance drives: key → epoch of its tenure. */
  private readonly held = new Map<string, number>();
  /** Until when (this instance's clock) its own view of the leases holds, from the last renewal. */
  private validUntil = 0;

  constructor(private readonly options: OwnedDevicesOptions) {}

  /** This instance's id. */
  get self(): string {
    return this.options.self;
  }

  /** Whether this instance drives the device now (held, and its view of the lease not yet over). */
  holds(key: string): boolean {
    return this.held.has(key) && this.options.clock.now() < this.validUntil;
  }

  /** The epoch this instance drives the device under, if it does. */
  epoch(key: string): number | undefined {
    return this.holds(key) ? this.held.get(key) : undefined;
  }

  /**
   * The fence for a write made for the device (ServiceContext.fence): the first statement of the writing
   * transaction, throwing LeaseLostError unless this instance still holds the device at the epoch it drives it
   * under (and, on PostgreSQL, keeping the lease from changing hands until the commit).
   */
  fence(key: string): (trx: AppKysely) => Promise<void> {
    const epoch = this.epoch(key);
    const { leases, kind } = this.options;
    return (trx) =>
      epoch === undefined
        ? Promise.reject(new LeaseLostError(kind, key, 0))
        : leases.assertLease(trx, kind, key, epoch);
  }

  /** Every key held now. */
  keys(): string[] {
    return [...this.held.keys()].filter((k) => this.holds(k));
  }

  /** The instance driving the device now, from the table (null: nobody, or its lease ran out). */
  async holderOf(key: string): Promise<string | null> {
    return (await this.options.leases.holderOf(this.options.kind, key))?.holder ?? null;
  }

  /** One round: renew, plan, give and take. `devices`: the keys of every device to be driven. */
  async round(devices: readonly string[]): Promise<OwnershipChange> {
    const { leases, clock, kind, self, ttlMs } = this.options;
    const lost: string[] = [];
    const taken: string[] = [];
    const startedAt = clock.now();
    const renewed = await leases.renewHeld(kind, self, ttlMs);
    const viewUntil = startedAt + ttlMs;
    for (const [key, epoch] of this.held)
      if (renewed.get(key) !== epoch) {
        this.held.delete(key);
        lost.push(key);
      }
    // Rows this instance holds without knowing it (its previous life under the same INSTANCE_ID): a new
    // tenure is taken below if the plan leaves them here, so that life's late writes are fenced out.
    const wanted = new Set(devices);
    for (const key of this.held.keys())
      if (!wanted.has(key)) {
        const epoch = this.held.get(key)!;
        this.held.delete(key);
        lost.push(key);
        await leases.release(kind, key, self, epoch);
      }
    this.validUntil = viewUntil;

    const live = await this.options.live();
    if (!live.includes(self)) live.push(self);
    const now = clock.now();
    const holderOf = new Map(
      (await leases.list(kind))
        .filter((l) => l.holder !== null && l.expiresAt > now)
        .map((l) => [l.key, l.holder]),
    );
    const plan = balance(
      live,
      devices.map((key) => ({ key, holder: holderOf.get(key) ?? null })),
    );
    const { take, give } = movesFor(plan, self);
    for (const key of give) {
      const epoch = this.held.get(key) ?? renewed.get(key);
      this.held.delete(key);
      if (!lost.includes(key) && renewed.has(key)) lost.push(key);
      if (epoch !== undefined) await leases.release(kind, key, self, epoch);
    }
    // Devices the plan leaves here that this instance does not drive yet: taken (again) for a fresh tenure.
    for (const key of devices)
      if (plan.target.get(key) === self && !this.held.has(key) && !take.includes(key)) take.push(key);
    for (const key of take) {
      const epoch = await leases.acquire(kind, key, self, ttlMs);
      if (epoch === null) continue;
      this.held.set(key, epoch);
      taken.push(key);
    }
    return { taken, lost: lost.filter((key) => !this.held.has(key)) };
  }

  /** Gives up every device (a graceful stop): the others take them at their next round. */
  async releaseAll(): Promise<void> {
    this.held.clear();
    this.validUntil = 0;
    await this.options.leases.releaseAll(this.options.self, this.options.kind);
  }
}
