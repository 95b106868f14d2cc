import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type Selectable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { clusterKysely, type AppKysely, type ClusterTables, type LeaseTable } from './tables.ts';

type LeaseQuery = SelectQueryBuilder<ClusterTables, 'Lease', Selectable<LeaseTable>>;

/**
 * Leases with a fencing epoch (docs/deployment.md, "Cluster building blocks"): anything one instance at a
 * time must own (a WG controller, a named singleton job) is a row (Kind, Key, Holder, Epoch, ExpiresAt).
 *
 * - Every change is one conditional statement, so two instances racing cannot both win: the database
 *   serialises the writes on the row and each re-checks its condition against the row it finally sees.
 * - `acquire` starts a new tenure (Epoch + 1) whenever it succeeds; `renew` continues the current one only
 *   while holder and epoch still match. A tenure therefore has one epoch and an epoch one tenure.
 * - A write made for the thing carries the epoch (`whereLeaseCurrent` in the same statement, or
 *   `assertLease` at the start of the same transaction): a paused former holder that lost the lease writes
 *   nothing, because its epoch is no longer the row's.
 *
 * Time is the instances' clock (`Clock`, so tests move it): their clocks must agree to well under a lease
 * term (NTP), as every lease design without a central clock assumes.
 */

export interface Lease {
  kind: string;
  key: string;
  /** null once released. */
  holder: string | null;
  epoch: number;
  expiresAt: number;
}

/**
 * The order in which one transaction locks several leases of a kind: by key as `collate "C"` sorts it in SQL
 * (the same as JavaScript's for the ASCII keys used: device ids, job names). A holder's renewal and release lock
 * its rows in this order (Leases.updateHeld), so a transaction fencing several leases fences them in it too;
 * in any other order the two can deadlock.
 */
export const byLeaseKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Thrown by `assertLease` when the epoch is no longer the lease's current one (taken over or released). */
export class LeaseLostError extends Error {
  readonly code = 'LEASE_LOST';
  constructor(
    readonly kind: string,
    readonly key: string,
    readonly epoch: number,
  ) {
    super(`lease ${kind}/${key} is no longer held at epoch ${epoch}`);
    this.name = 'LeaseLostError';
  }
}

/** What `Leases` needs of the database: the application's `Db` is one. */
export type LeaseDb = Pick<Db, 'kysely' | 'dialect'>;

const toLease = (r: LeaseTable): Lease => ({
  kind: r.Kind,
  key: r.Key,
  holder: r.Holder,
  epoch: Number(r.Epoch),
  expiresAt: Number(r.ExpiresAt),
});

function checkTtl(ttlMs: number) {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`lease ttl must be > 0 ms (got ${ttlMs})`);
}

export class Leases {
  private readonly k: Kysely<ClusterTables>;

  constructor(
    private readonly db: LeaseDb,
    private readonly clock: Clock,
    executor?: Kysely<ClusterTables>,
  ) {
    this.k = executor ?? clusterKysely(db.kysely);
  }

  /** The same operations inside the caller's transaction (acquire a lease and write under it atomically). */
  in(trx: AppKysely): Leases {
    return new Leases(this.db, this.clock, clusterKysely(trx));
  }

  /**
   * Takes the lease if it is free (never taken, released) or expired, or already held by `holder`; returns
   * the new epoch, or null when another holder has it. Success always starts a new tenure (Epoch + 1), even
   * for the same holder: a restarted process with the same INSTANCE_ID fences whatever its previous life
   * still had in flight.
   */
  async acquire(kind: string, key: string, holder: string, ttlMs: number): Promise<number | null> {
    const row = await this.take(kind, key, holder, ttlMs, true);
    return row ? Number(row.Epoch) : null;
  }

  /**
   * Takes the lease whoever holds it (a new tenure): for things whose owner is decided outside the table, such
   * as the instance an OCPP charge point has just connected to. The former holder's epoch stops being current,
   * so its late writes and its late `release` change nothing.
   */
  async seize(kind: string, key: string, holder: string, ttlMs: number): Promise<number> {
    const row = await this.take(kind, key, holder, ttlMs, false);
    return Number(row!.Epoch);
  }

  /**
   * Inserts the lease or starts a new tenure of it (Epoch + 1) for `holder`; `onlyIfFree`: only when it is
   * free, expired or already the holder's (else no row is answered).
   */
  private take(kind: string, key: string, holder: string, ttlMs: number, onlyIfFree: boolean) {
    checkTtl(ttlMs);
    const now = this.clock.now();
    return this.k
      .insertInto('Lease')
      .values({ Kind: kind, Key: key, Holder: holder, Epoch: 1, ExpiresAt: now + ttlMs })
      .onConflict((oc) => {
        const update = oc
          .columns(['Kind', 'Key'])
          .doUpdateSet({ Holder: holder, Epoch: sql`"Lease"."Epoch" + 1`, ExpiresAt: now + ttlMs });
        // Evaluated on the row as it is when this statement holds its lock (PostgreSQL re-checks a row
        // another transaction changed meanwhile), so of two racers for one expired lease only one matches.
        return onlyIfFree
          ? update.where((eb) =>
              eb.or([
                eb('Lease.Holder', 'is', null),
                eb('Lease.ExpiresAt', '<=', now),
                eb('Lease.Holder', '=', holder),
              ]),
            )
          : update;
      })
      .returning('Epoch')
      .executeTakeFirst();
  }

  /**
   * Extends the current tenure to now + ttl, only while `holder` still holds it at `epoch`. A lease that
   * expired but that nobody took is renewed too: its epoch unchanged means nobody else held it meanwhile.
   */
  async renew(kind: string, key: string, holder: string, epoch: number, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return this.updateTenure(kind, key, holder, epoch, { ExpiresAt: this.clock.now() + ttlMs });
  }

  /**
   * Gives the lease up (anyone may take it at once). The row stays with Holder NULL so the next tenure's
   * epoch is higher than every earlier one. A holder that already lost it releases nothing.
   */
  async release(kind: string, key: string, holder: string, epoch: number): Promise<boolean> {
    return this.updateTenure(kind, key, holder, epoch, { Holder: null, ExpiresAt: 0 });
  }

  /** Changes the lease only while `holder` holds it at `epoch` (this tenure); whether it did. */
  private async updateTenure(
    kind: string,
    key: string,
    holder: string,
    epoch: number,
    values: Updateable<LeaseTable>,
  ): Promise<boolean> {
    const result = await this.k
      .updateTable('Lease')
      .set(values)
      .where('Kind', '=', kind)
      .where('Key', '=', key)
      .where('Holder', '=', holder)
      .where('Epoch', '=', epoch)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Extends every lease of `kind` that `holder` still holds, expired ones nobody took included, in one
   * statement; answers each one's key and current epoch. A lease missing from the answer, or answered at
   * another epoch than the caller drove it under, was taken over: the caller stops at once.
   */
  async renewHeld(kind: string, holder: string, ttlMs: number): Promise<Map<string, number>> {
    checkTtl(ttlMs);
    const rows = await this.updateHeld(holder, kind, { ExpiresAt: this.clock.now() + ttlMs });
    return new Map(rows.map((r) => [r.Key, Number(r.Epoch)]));
  }

  /** Releases everything `holder` holds (a graceful shutdown), or only its leases of `kind`; returns how many. */
  async releaseAll(holder: string, kind?: string): Promise<number> {
    return (await this.updateHeld(holder, kind, { Holder: null, ExpiresAt: 0 })).length;
  }

  /**
   * Changes every lease `holder` holds (of `kind` when given) in one statement. On PostgreSQL its rows are
   * locked in `byLeaseKey` order by the sorted sub-select (sorted before it locks), and the UPDATE reaches only
   * rows it has locked. A plain multi-row UPDATE locked them in scan order (heap or index order), which no other
   * transaction can follow: with a store of pushed records fencing two of the same leases the other way round
   * (FOR SHARE), PostgreSQL found a deadlock and aborted the renewal (bench:wg, two instances). Locks taken in one
   * order by every transaction taking several form no cycle. SQLite runs one write at a time.
   */
  private updateHeld(holder: string, kind: string | undefined, values: Updateable<LeaseTable>) {
    const mine = (eb: ExpressionBuilder<ClusterTables, 'Lease'>) =>
      eb.and([eb('Holder', '=', holder), ...(kind === undefined ? [] : [eb('Kind', '=', kind)])]);
    let query = this.k.updateTable('Lease').set(values).where(mine);
    if (this.db.dialect === 'postgres') {
      const locked = this.k
        .selectFrom('Lease')
        .select(['Kind', 'Key'])
        .where(mine)
        .orderBy(sql`"Kind" collate "C"`)
        .orderBy(sql`"Key" collate "C"`)
        .forNoKeyUpdate()
        .$asTuple('Kind', 'Key');
      query = query.where((eb) => eb(eb.refTuple('Kind', 'Key'), 'in', locked));
    }
    return query.returning(['Key', 'Epoch']).execute();
  }

  /** The current tenure of a lease: null when it was never taken, is released or has expired. */
  async holderOf(kind: string, key: string): Promise<Lease | null> {
    const row = await this.k
      .selectFrom('Lease')
      .selectAll()
      .where('Kind', '=', kind)
      .where('Key', '=', key)
      .where('Holder', 'is not', null)
      .where('ExpiresAt', '>', this.clock.now())
      .executeTakeFirst();
    return row ? toLease(row) : null;
  }

  /** Every row of a kind, held, expired or released (balance reads the holders from here). */
  async list(kind: string): Promise<Lease[]> {
    return this.leases((q) => q.where('Kind', '=', kind));
  }

  /**
   * What `holder` holds, of every kind, expired ones included (they are still its to renew until somebody
   * takes them): a renewal loop renews these, a shutdown releases them.
   */
  async listHeld(holder: string): Promise<Lease[]> {
    return this.leases((q) => q.where('Holder', '=', holder));
  }

  /**
   * Leases of a kind up for the taking: expired (their holder stopped renewing) or released. `holder` is the
   * last holder of an expired one, null for a released one.
   */
  async expired(kind: string): Promise<Lease[]> {
    return this.leases((q) => q.where('Kind', '=', kind).where('ExpiresAt', '<=', this.clock.now()));
  }

  /** The leases a condition selects, by kind and key. */
  private async leases(where: (query: LeaseQuery) => LeaseQuery): Promise<Lease[]> {
    const rows = await where(this.k.selectFrom('Lease').selectAll()).orderBy('Kind').orderBy('Key').execute();
    return rows.map(toLease);
  }

  /**
   * A condition for the caller's own statement: true while `epoch` is the lease's current tenure. Put it in
   * the WHERE of the write made for the thing (`.where(leases.whereLeaseCurrent('wg', id, epoch))`), and a
   * holder that lost the lease updates no row. On PostgreSQL the lease row is locked FOR SHARE until the
   * caller's transaction ends: a takeover waits for the write to commit, and a write that starts after a
   * takeover committed sees the new epoch (READ COMMITTED re-reads a row it had to wait for).
   */
  whereLeaseCurrent(kind: string, key: string, epoch: number): Expression<SqlBool> {
    const lock = this.db.dialect === 'postgres' ? sql` for share` : sql``;
    return sql<SqlBool>`exists (select 1 from "Lease" where "Kind" = ${kind} and "Key" = ${key} and "Epoch" = ${epoch} and "Holder" is not null${lock})`;
  }

  /**
   * The transaction form of the fence: call it first in the transaction that writes for the thing. It throws
   * LeaseLostError unless `epoch` is current, and on PostgreSQL keeps the lease row locked FOR SHARE until
   * commit, so the lease cannot change hands in the middle of the transaction (several transactions of the
   * holder share the lock; a takeover waits for them). SQLite runs one write transaction at a time anyway.
   * A transaction fencing several leases fences them in `byLeaseKey` order, the order the holder's renewal
   * locks them in.
   */
  async assertLease(trx: AppKysely, kind: string, key: string, epoch: number): Promise<void> {
    if (!trx.isTransaction) throw new Error('assertLease must run inside the transaction it protects');
    const k = clusterKysely(trx);
    let query = k
      .selectFrom('Lease')
      .select('Epoch')
      .where('Kind', '=', kind)
      .where('Key', '=', key)
      .where('Epoch', '=', epoch)
      .where('Holder', 'is not', null);
    if (this.db.dialect === 'postgres') query = query.forShare();
    const row = await query.executeTakeFirst();
    if (!row) throw new LeaseLostError(kind, key, epoch);
  }
}
