import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Bus } from '../cluster/bus.ts';
import type { Clock } from '../clock.ts';
import { ADMIN_CODE, type Principal } from '../principal.ts';
import { hashToken, newToken } from './tokens.ts';

interface CachedPrincipal {
  principal: Principal;
  loadedAt: number;
  lastSeenAt: number;
  version: number;
}

/** How long a resolved principal is reused without reading the database. */
const PRINCIPAL_CACHE_MS = 5_000;
/** LastSeenAt is written at most this often per session: inactivity is measured to the minute. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Sessions: opaque bearer tokens whose SHA-256 is the row key, ended by inactivity (ttl), logout,
 * or the user being disabled or deleted. Resolved principals are cached for a few seconds; any change
 * to users, roles or areas calls invalidate(), so this process sees it on the next request.
 */
/** What ended or may have changed: one session, or any session (users, roles or areas changed). */
export type SessionChange = { tokenHash: string } | 'all';

/** The bus channel on which instances tell each other that sessions ended or grants changed. */
const CHANNEL = 'sessions';

/** How many token hashes SessionStore.resolve keeps. */
const TOKEN_HASHES = 10_000;

/**
 * Ends a user's sessions in the caller's transaction, but the one whose token hash is `keep` (a password
 * changed by its owner keeps the session that changed it): the sessions' one writer is this file
 * (packages/server/test/writers.test.ts). The caller tells the store after its commit, when it must.
 */
export async function endUserSessions(trx: Kysely<Database>, userId: number, keep?: string): Promise<void> {
  let query = trx.deleteFrom('Session').where('UserId', '=', userId);
  if (keep !== undefined) query = query.where('TokenHash', '!=', keep);
  await query.execute();
}

export class SessionStore {
  private readonly cache = new Map<string, CachedPrincipal>();
  private readonly listeners = new Set<(change: SessionChange) => void>();
  private version = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: () => number,
    /**
     * The cluster's bus: a session ended or grants changed on one instance are told to the others, which drop
     * their cached principals and close the hub sockets of that session (well within a second).
     */
    private readonly bus?: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    bus?.subscribe(CHANNEL, (message, meta) => {
      if (meta.local) return;
      const { t } = message as { t?: string };
      if (typeof t === 'string') this.forget(t);
      else this.dropAll();
    });
    // Changes told while the bus was reconnecting were missed: read every session again.
    bus?.onResync(() => this.dropAll());
  }

  /** Tells the other instances (after the change committed here). */
  private tell(message: { t: string } | { all: true }): void {
    this.bus?.publish(CHANNEL, message).catch(this.onError);
  }

  private forget(tokenHash: string): void {
    this.cache.delete(tokenHash);
    this.emit({ tokenHash });
  }

  private dropAll(): void {
    this.version++;
    this.cache.clear();
    this.emit('all');
  }

  async create(userId: number, meta: { ip?: string; userAgent?: string }): Promise<string> {
    const token = newToken();
    const now = this.clock.now();
    await this.db.kysely
      .insertInto('Session')
      .values({
        TokenHash: hashToken(token),
        UserId: userId,
        CreatedAt: now,
        LastSeenAt: now,
        Ip: meta.ip ?? null,
        UserAgent: meta.userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    return token;
  }

  /**
   * Told when a session ends (logout, expiry) or any may have changed (a user disabled, roles or areas
   * edited): long-lived connections (the live hub) close or re-check theirs. Returns the unsubscribe.
   */
  onChange(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: SessionChange) {
    for (const listener of this.listeners) listener(change);
  }

  async revoke(tokenHash: string): Promise<void> {
    this.cache.delete(tokenHash);
    await this.db.kysely.deleteFrom('Session').where('TokenHash', '=', tokenHash).execute();
    this.forget(tokenHash);
    this.tell({ t: tokenHash });
  }

  async revokeUser(userId: number): Promise<void> {
    await this.db.kysely.deleteFrom('Session').where('UserId', '=', userId).execute();
    this.invalidate();
  }

  /** Drops every cached principal, here and on every instance: call after changing users, roles, resources or areas. */
  invalidate(): void {
    this.dropAll();
    this.tell({ all: true });
  }

  /** The principal behind a token, or null when it is unknown, expired or its user is disabled. */
  resolve(token: string): Promise<Principal | null> {
    let tokenHash = this.hashes.get(token);
    if (tokenHash === undefined) {
      tokenHash = hashToken(token);
      // Bounded: tokens nobody holds (expired, or made up by a caller) cannot grow it past this.
      if (this.hashes.size >= TOKEN_HASHES) this.hashes.clear();
      this.hashes.set(token, tokenHash);
    }
    return this.resolveHash(tokenHash, true);
  }

  /**
   * The hashes of the tokens seen lately: SHA-256 of the bearer token on every request was a measurable part
   * of a list request (docs/performance.md "API load"). Only the hash is ever checked, against the session
   * table and its cache, so a revoked token maps to a hash that resolves to nothing, as before.
   */
  private readonly hashes = new Map<string, string>();

  /**
   * The same check by token hash without counting it as activity: a connection that stays open (the live
   * hub) must not keep an idle operator's session alive.
   */
  peek(tokenHash: string): Promise<Principal | null> {
    return this.resolveHash(tokenHash, false);
  }

  private async resolveHash(tokenHash: string, activity: boolean): Promise<Principal | null> {
    const now = this.clock.now();
    const ttl = this.ttlMs();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.version === this.version && now - cached.loadedAt < PRINCIPAL_CACHE_MS) {
      if (now - cached.lastSeenAt > ttl) {
        await this.revoke(tokenHash);
        return null;
      }
      if (activity) await this.touch(cached, now);
      return cached.principal;
    }

    const row = await this.db.kysely
      .selectFrom('Session')
      .innerJoin('AppUser', 'AppUser.Id', 'Session.UserId')
      .select(['Session.LastSeenAt', 'AppUser.Id', 'AppUser.UserName', 'AppUser.Name', 'AppUser.Disabled'])
      .where('Session.TokenHash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return null;
    if (now - row.LastSeenAt > ttl || row.Disabled) {
      await this.revoke(tokenHash);
      return null;
    }
    const principal = await this.loadPrincipal(row.Id, row.UserName, row.Name, tokenHash);
    const entry: CachedPrincipal = {
      principal,
      loadedAt: now,
      lastSeenAt: row.LastSeenAt,
      version: this.version,
    };
    this.cache.set(tokenHash, entry);
    if (activity) await this.touch(entry, now);
    return principal;
  }

  /**
   * A user's principal as a background job acting for them sees it now (an export started by that user, run
   * later or on another instance): null when the user is gone or disabled. It carries no session.
   */
  async principalOfUser(userId: number): Promise<Principal | null> {
    const user = await this.db.kysely
      .selectFrom('AppUser')
      .select(['Id', 'UserName', 'Name', 'Disabled'])
      .where('Id', '=', userId)
      .executeTakeFirst();
    if (!user || user.Disabled) return null;
    return this.loadPrincipal(user.Id, user.UserName, user.Name, '');
  }

  private async touch(entry: CachedPrincipal, now: number): Promise<void> {
    if (now - entry.lastSeenAt < TOUCH_INTERVAL_MS) return;
    entry.lastSeenAt = now;
    await this.db.kysely
      .updateTable('Session')
      .set({ LastSeenAt: now })
      .where('TokenHash', '=', entry.principal.tokenHash)
      .execute();
  }

  private async loadPrincipal(
    userId: number,
    userName: string,
    name: string,
    tokenHash: string,
  ): Promise<Principal> {
    const k = this.db.kysely;
    const grants = await k
      .selectFrom('UserRole')
      .innerJoin('Role', 'Role.Id', 'UserRole.RoleId')
      .leftJoin('RoleResource', 'RoleResource.RoleId', 'Role.Id')
      .leftJoin('Resource', 'Resource.Id', 'RoleResource.ResourceId')
      .select(['Role.Code as RoleCode', 'Resource.Code as ResourceCode'])
      .where('UserRole.UserId', '=', userId)
      .execute();
    const isAdmin = grants.some((g) => g.RoleCode === ADMIN_CODE);
    const codes = new Set<string>();
    for (const g of grants) if (g.ResourceCode) codes.add(g.ResourceCode);
    if (isAdmin) codes.add(ADMIN_CODE);

    const areas = isAdmin
      ? await k.selectFrom('AreaInfo').select('Id').where('Disabled', '=', 0).execute()
      : await k
          .selectFrom('UserArea')
          .innerJoin('AreaInfo', 'AreaInfo.Id', 'UserArea.AreaId')
          .select('AreaInfo.Id')
          .where('UserArea.UserId', '=', userId)
          .where('AreaInfo.Disabled', '=', 0)
          .execute();
    return { userId, userName, name, tokenHash, isAdmin, codes, areaIds: new Set(areas.map((a) => a.Id)) };
  }
}
