import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { escapeLike } from '../filters.ts';

export interface ThrottlePolicy {
  maxFailures: number;
  lockMinutes: number;
}

/** Why a login attempt was refused before its password was looked at. */
export type LockScope = 'account' | 'address' | 'accountFromAddress';

export interface Lock {
  scope: LockScope;
  /** Minutes left on the lock, rounded up (at least 1). */
  minutes: number;
  until: number;
}

/** A reserved attempt: tell it how the password check ended. */
export interface Attempt {
  succeeded(): Promise<void>;
  /** The lock this failed attempt started (it crossed a limit), for the operation log; else undefined. */
  failed(): Promise<Lock | undefined>;
}

/** A name's lock grows to at most this many times the configured lock (15 min → 8 h by default). */
const MAX_GROWTH = 32;
/** Failures from one address across all names before that address is locked (password spraying). */
const ADDRESS_FACTOR = 10;
/**
 * Failures on one name from all addresses before the name itself is locked. High on purpose: the lock that
 * matters is per name and address, so a stranger's five guesses never lock the owner out; this one only
 * bounds a guessing campaign spread over many addresses.
 */
const ACCOUNT_FACTOR = 20;
/** Counts and locks untouched for this long are forgotten (a lock's growth starts again after a quiet day). */
const FORGET_MS = 24 * 3_600_000;

interface Key {
  key: string;
  scope: LockScope;
  factor: number;
}

/**
 * Failed logins, counted on three keys: name + address (the ordinary lock, after `maxFailures`), address
 * alone (spraying one password over many names) and name alone (a campaign from many addresses). Every
 * lock ends by itself; repeated locks of one key double in length up to MAX_GROWTH times the setting, and
 * a success or an administrator's unlock resets a name.
 *
 * Counted in the database (LoginAttempt, LoginLock), so every instance of a cluster counts the same
 * attempts and an unlock on one lifts the lock everywhere. An attempt is counted when it starts (`begin`),
 * before the password check: of a burst of parallel attempts, only those whose count is within the limit
 * are evaluated at all (the others are refused as locked), so a burst cannot try more passwords than the
 * limit allows, however many instances it is spread over. A success withdraws its own count. Whether the
 * user exists makes no difference, so a 429 reveals nothing.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policy: () => ThrottlePolicy,
  ) {}

  private static name(userName: string) {
    return userName.trim().toLowerCase();
  }

  // Text keys without NUL (PostgreSQL text cannot hold it): an address never contains '|', a name may.
  private keys(userName: string, ip: string): [Key, Key, Key] {
    const name = LoginThrottle.name(userName);
    return [
      { key: `p:${ip}|${name}`, scope: 'accountFromAddress', factor: 1 },
      { key: `a:${ip}`, scope: 'address', factor: ADDRESS_FACTOR },
      { key: `n:${name}`, scope: 'account', factor: ACCOUNT_FACTOR },
    ];
  }

  /** The longest lock standing against this name from this address, if any. */
  async locked(userName: string, ip: string): Promise<Lock | undefined> {
    const now = this.clock.now();
    const keys = this.keys(userName, ip);
    const rows = await this.db.kysely
      .selectFrom('LoginLock')
      .select(['Key', 'LockedUntil'])
      .where(
        'Key',
        'in',
        keys.map((k) => k.key),
      )
      .where('LockedUntil', '>', now)
      .execute();
    let worst: Lock | undefined;
    for (const row of rows) {
      const until = Number(row.LockedUntil);
      const scope = keys.find((k) => k.key === row.Key)!.scope;
      if (!worst || until > worst.until) worst = { scope, until, minutes: Math.ceil((until - now) / 60_000) };
    }
    return worst;
  }

  /**
   * Every lock standing on a user name now: from one address (`address` set) or from all addresses (the
   * name's own lock). For the users screen, which shows who is locked, until when and why.
   */
  async nameLocks(): Promise<Array<{ name: string; address: string | null; until: number }>> {
    const rows = await this.db.kysely
      .selectFrom('LoginLock')
      .select(['Key', 'LockedUntil'])
      .where((eb) => eb.or([eb('Key', 'like', 'n:%'), eb('Key', 'like', 'p:%')]))
      .where('LockedUntil', '>', this.clock.now())
      .execute();
    return rows.map((row) => {
      const until = Number(row.LockedUntil);
      if (row.Key.startsWith('n:')) return { name: row.Key.slice(2), address: null, until };
      const bar = row.Key.indexOf('|');
      return { name: row.Key.slice(bar + 1), address: row.Key.slice(2, bar), until };
    });
  }

  /** Locks on a name from any address (for the users screen), longest first. */
  async nameLock(userName: string): Promise<{ until: number } | undefined> {
    const name = LoginThrottle.name(userName);
    const until = Math.max(0, ...(await this.nameLocks()).filter((l) => l.name === name).map((l) => l.until));
    return until > 0 ? { until } : undefined;
  }

  /**
   * Reserves an attempt or answers the lock that refuses it. The count is taken before the caller checks the
   * password; an attempt past the limit of a key (a parallel burst) is refused like a locked one.
   */
  async begin(userName: string, ip: string): Promise<Lock | Attempt> {
    const standing = await this.locked(userName, ip);
    if (standing) return standing;
    const { maxFailures, lockMinutes } = this.policy();
    const windowMs = lockMinutes * 60_000;
    const stamp = this.clock.now();
    const keys = this.keys(userName, ip);
    const names = keys.map((x) => x.key);
    // One attempt at a time per key, across instances: on PostgreSQL an advisory lock per key for the
    // transaction (taken in key order, so two attempts never wait on each other crosswise); SQLite runs one
    // transaction at a time anyway. So of a burst exactly the first `limit` attempts are evaluated: the one
    // reaching the limit sets the lock, and every later one finds it here and is refused unseen.
    const { beyond, locks, inserted } = await this.db.kysely.transaction().execute(async (trx) => {
      if (this.db.dialect === 'postgres') {
        for (const key of [...names].sort())
          await sql`select pg_advisory_xact_lock(hashtext(${'gatehouse.login:' + key}))`.execute(trx);
      }
      const standing = await trx
        .selectFrom('LoginLock')
        .select('Key')
        .where('Key', 'in', names)
        .where('LockedUntil', '>', stamp)
        .executeTakeFirst();
      if (standing) return { beyond: true, locks: false, inserted: [] };
      const rows = await trx
        .insertInto('LoginAttempt')
        .values(keys.map(({ key }) => ({ Key: key, At: stamp })))
        .returning(['Id', 'Key'])
        .execute();
      let locked = false;
      let over = false;
      for (const { key, factor } of keys) {
        const limit = maxFailures * factor;
        const { n } = await trx
          .selectFrom('LoginAttempt')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('Key', '=', key)
          .where('At', '>', stamp - windowMs)
          .executeTakeFirstOrThrow();
        const count = Number(n);
        if (count < limit) continue;
        // The attempt that reaches the limit is still evaluated (its password may be right); any beyond it
        // (counts an earlier lock forgot, an instance of an older version) is not.
        if (count > limit) over = true;
        if (await this.lock(trx, key, stamp, windowMs)) locked = true;
      }
      // Old counts of these keys go as they leave the window.
      await trx
        .deleteFrom('LoginAttempt')
        .where('Key', 'in', names)
        .where('At', '<=', stamp - Math.max(windowMs, 60_000))
        .execute();
      return { beyond: over, locks: locked, inserted: rows };
    });
    if (beyond)
      return (await this.locked(userName, ip)) ?? { scope: 'accountFromAddress', until: stamp, minutes: 1 };
    const addressAttempt = inserted.find((row) => row.Key === keys[1].key)?.Id;
    return {
      succeeded: () => this.succeeded(keys, addressAttempt),
      // The lock is set when the attempt is counted, but it is a lockout only if the password was wrong too.
      failed: async () => (locks ? this.locked(userName, ip) : undefined),
    };
  }

  /**
   * Locks a key that reached its limit and forgets its counts; the lock doubles with each lock in a row. Of
   * instances locking the same key at the same moment, one sets it (the update applies only to a lock that
   * has ended). True when this call set it.
   */
  private async lock(k: Kysely<Database>, key: string, stamp: number, windowMs: number): Promise<boolean> {
    const previous = await k
      .selectFrom('LoginLock')
      .select('Locks')
      .where('Key', '=', key)
      .executeTakeFirst();
    const locks = previous?.Locks ?? 0;
    const until = stamp + windowMs * Math.min(2 ** locks, MAX_GROWTH);
    const set = await k
      .insertInto('LoginLock')
      .values({ Key: key, LockedUntil: until, Locks: 1 })
      .onConflict((oc) =>
        oc
          .column('Key')
          .doUpdateSet({ LockedUntil: until, Locks: sql`"LoginLock"."Locks" + 1` })
          .where('LoginLock.LockedUntil', '<=', stamp),
      )
      .executeTakeFirst();
    await k.deleteFrom('LoginAttempt').where('Key', '=', key).execute();
    return Number(set.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** An administrator's unlock: every lock and count on this name, from every address. */
  async unlock(userName: string): Promise<boolean> {
    const name = LoginThrottle.name(userName);
    // The name's own key, and its keys from every address (p:<address>|<name>).
    const own = sql<SqlBool>`("Key" = ${`n:${name}`} or "Key" like ${`p:%|${escapeLike(name)}`} escape '\\')`;
    const k = this.db.kysely;
    const locked = await k
      .selectFrom('LoginLock')
      .select('Key')
      .where(own)
      .where('LockedUntil', '>', this.clock.now())
      .execute();
    await k.deleteFrom('LoginLock').where(own).execute();
    await k.deleteFrom('LoginAttempt').where(own).execute();
    return locked.length > 0;
  }

  /** A right password: the name's own counts and locks start again; the address keeps its other names' counts. */
  private async succeeded(
    [pair, , name]: [Key, Key, Key],
    addressAttempt: number | undefined,
  ): Promise<void> {
    const k = this.db.kysely;
    const own = [pair.key, name.key];
    await k.deleteFrom('LoginAttempt').where('Key', 'in', own).execute();
    await k.deleteFrom('LoginLock').where('Key', 'in', own).execute();
    if (addressAttempt !== undefined)
      await k.deleteFrom('LoginAttempt').where('Id', '=', addressAttempt).execute();
  }

  /** Forgets counts and ended locks nobody touched for a day (run once across the cluster). */
  async prune(): Promise<void> {
    const before = this.clock.now() - FORGET_MS;
    await this.db.kysely.deleteFrom('LoginAttempt').where('At', '<', before).execute();
    await this.db.kysely.deleteFrom('LoginLock').where('LockedUntil', '<', before).execute();
  }
}
