import type { Clock } from '../clock.ts';

export interface ThrottlePolicy {
  maxFailures: number;
  lockMinutes: number;
}

interface Entry {
  failures: number[];
  lockedUntil: number;
}

/**
 * Failed logins per username (normalised), whether or not the user exists, so a 429 reveals nothing.
 * After maxFailures within the lock window the name is locked for lockMinutes from the last failure.
 * In memory: one server process guards its own door (documented in docs/api.md).
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: () => ThrottlePolicy,
    private readonly maxEntries = 50_000,
  ) {}

  private key(userName: string) {
    return userName.trim().toLowerCase();
  }

  /** Minutes left on a lock (rounded up), or 0 when the name may try. */
  lockedMinutes(userName: string): number {
    const entry = this.entries.get(this.key(userName));
    const left = entry ? entry.lockedUntil - this.clock.now() : 0;
    return left > 0 ? Math.ceil(left / 60_000) : 0;
  }

  recordFailure(userName: string): void {
    const { maxFailures, lockMinutes } = this.policy();
    const now = this.clock.now();
    const windowMs = lockMinutes * 60_000;
    const key = this.key(userName);
    const entry = this.entries.get(key) ?? { failures: [], lockedUntil: 0 };
    entry.failures = entry.failures.filter((t) => now - t < windowMs);
    entry.failures.push(now);
    if (entry.failures.length >= maxFailures) entry.lockedUntil = now + windowMs;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  recordSuccess(userName: string): void {
    this.entries.delete(this.key(userName));
  }
}
