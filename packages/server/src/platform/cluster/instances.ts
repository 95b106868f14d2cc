import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { clusterKysely, type ClusterTables, type InstanceTable } from './tables.ts';

/**
 * The registry of live instances: each instance upserts its row at start and heartbeats it; the others read
 * who is alive from the heartbeats (balance, takeover, screens). Liveness is judged by the reader's
 * `withinMs`, so the registry holds no timers of its own besides the optional keep-alive loop below.
 */

export type InstanceMeta = Record<string, unknown>;

export interface InstanceInfo {
  id: string;
  startedAt: number;
  heartbeatAt: number;
  address: string | null;
  meta: InstanceMeta | null;
}

/**
 * An instance id: letters, digits and `.` `_` `:` `-`, 1 to 32 characters. It lands in logs, lease rows and
 * bus channel names (`wg.cmd.<id>` for commands addressed to the owner must fit the bus's 48 characters).
 */
const ID = /^[A-Za-z0-9._:-]{1,32}$/;

/**
 * This process's instance id: `INSTANCE_ID` when set (validated: a bad value stops the start with a message
 * naming it), otherwise hostname-pid-random (the host name cut to 16 characters), unique even for two
 * processes of one host that reuse a pid after a restart.
 */
export function instanceId(env: Record<string, string | undefined> = process.env): string {
  const given = env.INSTANCE_ID;
  if (given !== undefined && given !== '') {
    if (!ID.test(given))
      throw new Error(
        `INSTANCE_ID must be 1 to 32 letters, digits, ".", "_", ":" or "-" (got ${JSON.stringify(given)})`,
      );
    return given;
  }
  const host =
    os
      .hostname()
      .replace(/[^A-Za-z0-9.-]/g, '-')
      .slice(0, 16) || 'host';
  return `${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

function parseMeta(text: string | null): InstanceMeta | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as InstanceMeta) : null;
  } catch {
    return null;
  }
}

const toInfo = (r: InstanceTable): InstanceInfo => ({
  id: r.Id,
  startedAt: Number(r.StartedAt),
  heartbeatAt: Number(r.HeartbeatAt),
  address: r.Address,
  meta: parseMeta(r.Meta),
});

export interface RegisterOptions {
  address?: string | null;
  meta?: InstanceMeta | null;
}

export class InstanceRegistry {
  private readonly k: Kysely<ClusterTables>;

  constructor(
    db: Pick<Db, 'kysely'>,
    private readonly clock: Clock,
  ) {
    this.k = clusterKysely(db.kysely);
  }

  /** Records this instance as started now (a restart with the same id starts it again). */
  async register(id: string, options: RegisterOptions = {}): Promise<void> {
    if (!ID.test(id)) throw new Error(`invalid instance id ${JSON.stringify(id)}`);
    const now = this.clock.now();
    const row = {
      Address: options.address ?? null,
      Meta: options.meta ? JSON.stringify(options.meta) : null,
      StartedAt: now,
      HeartbeatAt: now,
    };
    await this.k
      .insertInto('Instance')
      .values({ Id: id, ...row })
      .onConflict((oc) => oc.column('Id').doUpdateSet(row))
      .execute();
  }

  /**
   * Marks the instance alive now. False when its row is gone (another instance forgot it as dead): the caller
   * registers again, and should assume what it held was taken over.
   */
  async heartbeat(id: string): Promise<boolean> {
    const result = await this.k
      .updateTable('Instance')
      .set({ HeartbeatAt: this.clock.now() })
      .where('Id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Replaces what an instance says of itself (InstanceInfo.meta), read by the others from the next query. */
  async setMeta(id: string, meta: InstanceMeta | null): Promise<void> {
    await this.k
      .updateTable('Instance')
      .set({ Meta: meta ? JSON.stringify(meta) : null })
      .where('Id', '=', id)
      .execute();
  }

  /** Instances whose last heartbeat is at most `withinMs` old, by id. */
  async live(withinMs: number): Promise<InstanceInfo[]> {
    const rows = await this.k
      .selectFrom('Instance')
      .selectAll()
      .where('HeartbeatAt', '>=', this.clock.now() - withinMs)
      .orderBy('Id')
      .execute();
    return rows.map(toInfo);
  }

  /** Whether one instance heartbeated within `withinMs` (a command is addressed to it only if so). */
  async isLive(id: string, withinMs: number): Promise<boolean> {
    const row = await this.k
      .selectFrom('Instance')
      .select('Id')
      .where('Id', '=', id)
      .where('HeartbeatAt', '>=', this.clock.now() - withinMs)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every row, live or not, by id (screens showing the last heartbeat of each). */
  async all(): Promise<InstanceInfo[]> {
    const rows = await this.k.selectFrom('Instance').selectAll().orderBy('Id').execute();
    return rows.map(toInfo);
  }

  /** Removes an instance's row (its own graceful stop, or the sweep of long-dead ones). */
  async forget(id: string): Promise<boolean> {
    const result = await this.k.deleteFrom('Instance').where('Id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Removes the rows silent for more than `olderThanMs` (ids of hostname-pid-random accumulate otherwise). */
  async forgetStale(olderThanMs: number): Promise<number> {
    const result = await this.k
      .deleteFrom('Instance')
      .where('HeartbeatAt', '<', this.clock.now() - olderThanMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export interface Membership {
  readonly id: string;
  /** Stops the heartbeat and forgets the row (the others see this instance gone at once). */
  stop(): Promise<void>;
}

export interface MembershipOptions extends RegisterOptions {
  everyMs: number;
  /** A failed heartbeat (database unreachable): logged by the caller; the loop goes on. */
  onError?: (error: unknown) => void;
}

/**
 * Registers `id` and heartbeats it every `everyMs` (timer unref'd: it never keeps the process alive). A
 * heartbeat that finds its row gone registers again.
 */
export async function joinCluster(
  registry: InstanceRegistry,
  id: string,
  options: MembershipOptions,
): Promise<Membership> {
  await registry.register(id, options);
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const beat = async () => {
    try {
      if (!(await registry.heartbeat(id)) && !stopped) await registry.register(id, options);
    } catch (error) {
      options.onError?.(error);
    } finally {
      inFlight = undefined;
    }
  };
  const timer = setInterval(() => {
    // One heartbeat at a time: a slow database skips beats rather than piling them up.
    if (!inFlight) inFlight = beat();
  }, options.everyMs);
  timer.unref();
  return {
    id,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await registry.forget(id);
    },
  };
}
