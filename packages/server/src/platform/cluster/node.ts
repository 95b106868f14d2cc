import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { LocalBus, type Bus } from './bus.ts';
import { InstanceRegistry, joinCluster, type InstanceMeta, type Membership } from './instances.ts';
import { Leases } from './leases.ts';
import { OwnerCalls } from './owner-calls.ts';
import { PgBus } from './pg-bus.ts';
import { SingletonRunner } from './singleton.ts';

export interface ClusterLog {
  error(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

/** How often an instance says it is alive, and after how long without it the others count it gone. */
export const HEARTBEAT_MS = 5_000;
export const LIVE_WITHIN_MS = 20_000;
/** A singleton task's lease: taken over within one term after its holder stops renewing it. */
const SINGLETON_TTL_MS = 20_000;

/**
 * This instance as a member of the cluster (docs/deployment.md): its id, the bus to the others, the shared
 * leases and instance registry, and the periodic tasks that must run once across the cluster. On SQLite (one
 * process by definition) the bus is in-process and the singletons simply run here.
 */
export class ClusterNode {
  readonly bus: Bus;
  readonly leases: Leases;
  readonly registry: InstanceRegistry;
  /** Commands addressed to the instance that owns a device, with its answer back (owner-calls.ts). */
  readonly owners: OwnerCalls;
  private membership: Membership | undefined;
  /** The kinds of device this instance drives now (its gateway for them is running), told to the others. */
  private readonly drives = new Set<string>();
  private readonly singletons: SingletonRunner[] = [];
  private started = false;

  constructor(
    readonly id: string,
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: ClusterLog,
    /** Shown to operators (where this instance listens), optional. */
    private readonly address?: string,
  ) {
    const onError = (error: unknown) => log.error({ err: error }, 'cluster bus');
    this.bus =
      db.dialect === 'postgres' && db.url
        ? new PgBus({ db, url: db.url, namespace: namespaceOf(db), onError })
        : new LocalBus({ onError });
    this.leases = new Leases(db, clock);
    this.registry = new InstanceRegistry(db, clock);
    this.owners = new OwnerCalls({
      bus: this.bus,
      self: id,
      isLive: (instance) => this.registry.isLive(instance, LIVE_WITHIN_MS),
    });
  }

  /**
   * Runs `task` every `everyMs` on exactly one instance at a time (liveness sweeps, expiries). Declared before
   * start(); on SQLite it runs here.
   */
  singleton(name: string, everyMs: number, task: () => Promise<void>): void {
    const runner = new SingletonRunner({
      leases: this.leases,
      clock: this.clock,
      name,
      holder: this.id,
      ttlMs: Math.max(SINGLETON_TTL_MS, everyMs * 2),
      everyMs,
      task: () => task(),
      onError: (error, phase) => this.log.error({ err: error, task: name, phase }, 'cluster singleton'),
    });
    this.singletons.push(runner);
    if (this.started) runner.start();
  }

  async start(): Promise<void> {
    const meta = () => this.meta();
    this.membership = await joinCluster(this.registry, this.id, {
      everyMs: HEARTBEAT_MS,
      ...(this.address ? { address: this.address } : {}),
      // A getter: registering again after the row was lost says what the instance drives then, not at start.
      get meta() {
        return meta();
      },
      onError: (error) => this.log.error({ err: error }, 'cluster heartbeat'),
    });
    await this.bus.ready();
    this.started = true;
    for (const runner of this.singletons) runner.start();
  }

  /**
   * Instances that heartbeated recently, this one included. With `kind`, only those that drive devices of that
   * kind: an instance started with its WG gateway off is alive but must not be handed controllers it would
   * never drive. A row that says nothing of what it drives (written by an earlier version) counts as driving
   * everything, as it did then.
   */
  async liveInstances(kind?: string): Promise<string[]> {
    const live = await this.registry.live(LIVE_WITHIN_MS);
    return live.filter((i) => kind === undefined || drivesKind(i.meta, kind)).map((i) => i.id);
  }

  /** Tells the others that this instance drives (or no longer drives) devices of `kind`. */
  async drive(kind: string, on: boolean): Promise<void> {
    if (on) this.drives.add(kind);
    else this.drives.delete(kind);
    if (this.started) await this.registry.setMeta(this.id, this.meta());
  }

  private meta(): InstanceMeta {
    return { drives: [...this.drives].sort() };
  }

  async close(): Promise<void> {
    this.started = false;
    await Promise.allSettled(this.singletons.map((r) => r.stop()));
    await this.membership?.stop();
    await this.bus.close();
  }
}

function drivesKind(meta: InstanceMeta | null, kind: string): boolean {
  const drives = meta?.drives;
  return !Array.isArray(drives) || drives.includes(kind);
}

/**
 * LISTEN/NOTIFY channels are per database, not per schema: instances of one deployment share a namespace,
 * deployments (and test schemas) on one database do not. 12 characters at most (the bus's limit).
 */
function namespaceOf(db: Db): string {
  const identity = `${db.url ?? ''}#${db.schema ?? 'public'}`;
  return `g${createHash('sha256').update(identity).digest('hex').slice(0, 10)}`;
}
