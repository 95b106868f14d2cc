import type { Clock } from '../clock.ts';

export interface ThrottlePolicy {
  maxFailures: number;
  lockMinutes: number;
}

interface Entry {
  failures: number[];
  lockedUntil: number;
  /** Locks in a row without a success in between: each doubles the next lock (capped). */
  locks: number;
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
  succeeded(): void;
  /** The lock this failed attempt started (it crossed a limit), for the operation log; else undefined. */
  failed(): Lock | undefined;
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

/**
 * Failed logins, counted on three keys: name + address (the ordinary lock, after `maxFailures`), address
 * alone (spraying one password over many names) and name alone (a campaign from many addresses). Every
 * lock ends by itself; repeated locks of one key double in length up to MAX_GROWTH times the setting, and
 * a success or an administrator's unlock resets a name.
 *
 * An attempt is counted when it starts (`begin`, synchronous), before the asynchronous password check, so
 * a burst of parallel attempts cannot evaluate more passwords than the limit allows; a success withdraws
 * its own count. Whether the user exists makes no difference, so a 429 reveals nothing.
 * In memory: one server process guards its own door (documented in docs/permissions.md).
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: () => ThrottlePolicy,
    private readonly maxEntries = 50_000,
  ) {}

  private static name(userName: string) {
    return userName.trim().toLowerCase();
  }

  private keys(userName: string, ip: string): Array<[string, LockScope, number]> {
    const name = LoginThrottle.name(userName);
    return [
      [`n:${name}\u0000${ip}`, 'accountFromAddress', 1],
      [`a:${ip}`, 'address', ADDRESS_FACTOR],
      [`n:${name}`, 'account', ACCOUNT_FACTOR],
    ];
  }

  /** The longest lock standing against this name from this address, if any. */
  locked(userName: string, ip: string): Lock | undefined {
    const now = this.clock.now();
    let worst: Lock | undefined;
    for (const [key, scope] of this.keys(userName, ip)) {
      const until = this.entries.get(key)?.lockedUntil ?? 0;
      if (until > now && (!worst || until > worst.until))
        worst = { scope, until, minutes: Math.ceil((until - now) / 60_000) };
    }
    return worst;
  }

  /**
   * Every lock standing on a user name now: from one address (`address` set) or from all addresses (the
   * name's own lock). For the users screen, which shows who is locked, until when and why.
   */
  nameLocks(): Array<{ name: string; address: string | null; until: number }> {
    const now = this.clock.now();
    const out: Array<{ name: string; address: string | null; until: number }> = [];
    for (const [key, entry] of this.entries) {
      if (!key.startsWith('n:') || entry.lockedUntil <= now) continue;
      const [name, address] = key.slice(2).split('\u0000') as [string, string | undefined];
      out.push({ name, address: address ?? null, until: entry.lockedUntil });
    }
    return out;
  }

  /** Locks on a name from any address (for the users screen), longest first. */
  nameLock(userName: string): { until: number } | undefined {
    const prefix = `n:${LoginThrottle.name(userName)}`;
    const now = this.clock.now();
    let until = 0;
    for (const [key, entry] of this.entries)
      if ((key === prefix || key.startsWith(`${prefix}\u0000`)) && entry.lockedUntil > now)
        until = Math.max(until, entry.lockedUntil);
    return until > now ? { until } : undefined;
  }

  /**
   * Reserves an attempt or answers the lock that refuses it. Synchronous on purpose: the count is taken
   * before the caller awaits the password check.
   */
  begin(userName: string, ip: string): Lock | Attempt {
    const lock = this.locked(userName, ip);
    if (lock) return lock;
    const stamp = this.clock.now();
    let locks = false;
    for (const [key, , factor] of this.keys(userName, ip)) locks = this.count(key, factor, stamp) || locks;
    return {
      succeeded: () => this.succeeded(userName, ip, stamp),
      // The lock is set when the attempt is counted, but it is a lockout only if the password was wrong too.
      failed: () => (locks ? this.locked(userName, ip) : undefined),
    };
  }

  /** An administrator's unlock: every lock and count on this name, from every address. */
  unlock(userName: string): boolean {
    const prefix = `n:${LoginThrottle.name(userName)}`;
    let any = false;
    for (const key of [...this.entries.keys()])
      if (key === prefix || key.startsWith(`${prefix}\u0000`)) {
        any ||= (this.entries.get(key)?.lockedUntil ?? 0) > this.clock.now();
        this.entries.delete(key);
      }
    return any;
  }

  /** Counts one attempt on a key; true when this count locked it. */
  private count(key: string, factor: number, stamp: number): boolean {
    const { maxFailures, lockMinutes } = this.policy();
    const windowMs = lockMinutes * 60_000;
    const entry = this.entries.get(key) ?? { failures: [], lockedUntil: 0, locks: 0 };
    entry.failures = entry.failures.filter((t) => stamp - t < windowMs);
    entry.failures.push(stamp);
    const locks = entry.failures.length >= maxFailures * factor;
    if (locks) {
      entry.lockedUntil = stamp + windowMs * Math.min(2 ** entry.locks, MAX_GROWTH);
      entry.locks += 1;
      entry.failures = [];
    }
    // Re-inserted so the Map's order is least recently used first, and the oldest falls out at the cap.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return locks;
  }

  /** A right password: the name's own counts start again; the address keeps its count of other names. */
  private succeeded(userName: string, ip: string, stamp: number) {
    const [[pairKey], [addressKey], [nameKey]] = this.keys(userName, ip) as [
      [string, LockScope, number],
      [string, LockScope, number],
      [string, LockScope, number],
    ];
    this.entries.delete(pairKey);
    this.entries.delete(nameKey);
    const address = this.entries.get(addressKey);
    if (address) {
      const at = address.failures.lastIndexOf(stamp);
      if (at >= 0) address.failures.splice(at, 1);
    }
  }
}
