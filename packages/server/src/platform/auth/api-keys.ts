import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, type PermissionCode } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import { audit } from '../audit.ts';
import type { Clock } from '../clock.ts';
import type { Bus } from '../cluster/bus.ts';
import type { ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { hashToken } from './tokens.ts';
import { numberOrNull } from '../instants.ts';

/**
 * API keys (issue 29): the credential another system sends as `Authorization: Bearer ghk_…`. A key resolves to
 * a principal holding its codes in its areas, so every route checks it exactly as it checks a signed-in user
 * (platform/route.ts), and the operation log names it (the actor of kind `key`).
 *
 * This file is the one writer of ApiKey and ApiKeyArea (packages/server/test/writers.test.ts): creation and
 * revocation (for modules/system/api-key, which checks who may make what) and the last use.
 */

/** How long a resolved key is reused without reading the database; a revocation is told over the bus at once. */
const KEY_CACHE_MS = 5_000;
/** LastUsedAt is written at most this often per key and instance, unless the caller's address changed. */
const TOUCH_INTERVAL_MS = 60_000;
/** How many resolved keys an instance keeps. */
const CACHED_KEYS = 1_000;
/** The bus channel on which instances tell each other that a key was revoked. */
const CHANNEL = 'api-keys';
/** How many characters of the secret are kept in clear: the prefix and 8 more (48 of its 256 random bits). */
const SHOWN_CHARS = API_KEY_PREFIX.length + 8;

export interface NewApiKey {
  Name: string;
  AreaIds: number[];
  Codes: PermissionCode[];
  ExpiresAt: number | null;
  CreatedById: number | null;
  CreatedByName: string;
}

/** A secret: the recognisable prefix and 256 random bits, base64url (43 characters). */
export function newApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * What is stored of a secret. SHA-256, not a password hash (argon2id): a key holds 256 random bits, so nobody
 * can guess it from its hash whatever the hash's speed (a password is stretched because people choose few
 * bits), and the hash is looked up on every request, which a deliberately slow hash would make cost tens of
 * milliseconds each. The same reasoning and function as session tokens (tokens.ts).
 */
export const apiKeyHash = hashToken;

/** Whether a bearer token is an API key (by its prefix) rather than a session token. */
export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** How a key is named where it acts (the operation log, records of who did what): its name and its prefix. */
export function apiKeyLabel(name: string, prefix: string): string {
  return `${name} (${prefix}…)`;
}

interface CachedKey {
  principal: Principal;
  expiresAt: number | null;
  loadedAt: number;
  touchedAt: number;
  touchedIp: string | null;
}

export class ApiKeyStore {
  private readonly cache = new Map<string, CachedKey>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The cluster's bus: a key revoked on one instance is dropped by every other at once (well within 1 s). */
    private readonly bus?: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    bus?.subscribe(CHANNEL, (message, meta) => {
      if (meta.local) return;
      const { h } = message as { h?: unknown };
      if (typeof h === 'string') this.cache.delete(h);
      else this.dropAll();
    });
    // Revocations told while the bus was reconnecting were missed: read every key again.
    bus?.onResync(() => this.dropAll());
  }

  /** Forgets every resolved key here (areas were disabled or removed: a key's areas are read again). */
  dropAll(): void {
    this.cache.clear();
  }

  /**
   * The principal a key stands for, used now from `ip`; 401 with the reason when it is unknown, revoked or
   * past its expiry (each a message of the error catalogue, so an integrator knows which).
   */
  async resolve(secret: string, ip: string): Promise<Principal> {
    const hash = apiKeyHash(secret);
    const now = this.clock.now();
    let entry = this.cache.get(hash);
    if (!entry || now - entry.loadedAt >= KEY_CACHE_MS) {
      entry = await this.load(hash, now);
      if (this.cache.size >= CACHED_KEYS) this.cache.clear();
      this.cache.set(hash, entry);
    }
    if (entry.expiresAt !== null && now >= entry.expiresAt) throw new AppError(401, 'error.apiKeyExpired');
    await this.touch(entry, now, ip);
    return entry.principal;
  }

  private async load(hash: string, now: number): Promise<CachedKey> {
    const k = this.db.kysely;
    const row = await k
      .selectFrom('ApiKey')
      .select(['Id', 'Name', 'Prefix', 'Codes', 'ExpiresAt', 'RevokedAt', 'LastUsedAt', 'LastUsedIp'])
      .where('KeyHash', '=', hash)
      .executeTakeFirst();
    if (!row) throw new AppError(401, 'error.apiKeyInvalid');
    if (row.RevokedAt !== null) throw new AppError(401, 'error.apiKeyRevoked');
    // The same area boundary as a user's: only enabled areas are operable.
    const areas = await k
      .selectFrom('ApiKeyArea')
      .innerJoin('AreaInfo', 'AreaInfo.Id', 'ApiKeyArea.AreaId')
      .select('AreaInfo.Id')
      .where('ApiKeyArea.ApiKeyId', '=', row.Id)
      .where('AreaInfo.Disabled', '=', 0)
      .execute();
    const label = apiKeyLabel(row.Name, row.Prefix);
    return {
      principal: {
        userId: 0,
        userName: label,
        name: label,
        tokenHash: hash,
        isAdmin: false,
        codes: new Set(JSON.parse(row.Codes) as string[]),
        areaIds: new Set(areas.map((a) => a.Id)),
        apiKey: { id: row.Id, name: label },
      },
      expiresAt: numberOrNull(row.ExpiresAt),
      loadedAt: now,
      touchedAt: row.LastUsedAt === null ? 0 : Number(row.LastUsedAt),
      touchedIp: row.LastUsedIp,
    };
  }

  /** Records the last use (time and address), at most once a minute per key unless the address changed. */
  private async touch(entry: CachedKey, now: number, ip: string): Promise<void> {
    if (now - entry.touchedAt < TOUCH_INTERVAL_MS && ip === entry.touchedIp) return;
    entry.touchedAt = now;
    entry.touchedIp = ip;
    await this.db.kysely
      .updateTable('ApiKey')
      .set({ LastUsedAt: now, LastUsedIp: ip })
      .where('Id', '=', entry.principal.apiKey!.id)
      .execute();
  }

  /**
   * Stores a new key with its areas and its audit entry in one transaction; returns its id and its secret,
   * which exists nowhere else from here on (only its hash is stored). Who may make which key is the caller's
   * check (modules/system/api-key).
   */
  async create(ctx: ServiceContext, key: NewApiKey): Promise<{ id: number; secret: string }> {
    const secret = newApiKeySecret();
    const prefix = secret.slice(0, SHOWN_CHARS);
    const now = this.clock.now();
    const id = await ctx.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('ApiKey')
        .values({
          Name: key.Name,
          Prefix: prefix,
          KeyHash: apiKeyHash(secret),
          Codes: JSON.stringify(key.Codes),
          CreatedById: key.CreatedById,
          CreatedByName: key.CreatedByName,
          CreatedAt: now,
          ExpiresAt: key.ExpiresAt,
          LastUsedAt: null,
          LastUsedIp: null,
          RevokedAt: null,
          RevokedByName: null,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('ApiKeyArea')
        .values(key.AreaIds.map((AreaId) => ({ ApiKeyId: row.Id, AreaId })))
        .execute();
      await audit(
        ctx,
        {
          action: 'create',
          entity: 'ApiKey',
          entityId: row.Id,
          after: {
            Name: key.Name,
            Prefix: prefix,
            AreaIds: key.AreaIds,
            Codes: key.Codes,
            ExpiresAt: key.ExpiresAt === null ? null : new Date(key.ExpiresAt).toISOString(),
          },
        },
        trx,
      );
      return row.Id;
    });
    return { id, secret };
  }

  /**
   * Revokes a key: the row stays (the list and the log name it) with when and by whom. The other instances are
   * told over the bus after the commit and drop it at once; one that missed the message reads the row again
   * within KEY_CACHE_MS. Revoking a revoked key changes nothing. Returns whether this call revoked it.
   */
  async revoke(ctx: ServiceContext, id: number, byName: string): Promise<boolean> {
    const now = this.clock.now();
    const hash = await ctx.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('ApiKey')
        .set({ RevokedAt: now, RevokedByName: byName })
        .where('Id', '=', id)
        .where('RevokedAt', 'is', null)
        .returning(['KeyHash', 'Name', 'Prefix'])
        .executeTakeFirst();
      if (!row) return undefined;
      await audit(
        ctx,
        {
          action: 'revoke',
          entity: 'ApiKey',
          entityId: id,
          after: { Name: row.Name, Prefix: row.Prefix, RevokedAt: new Date(now).toISOString() },
        },
        trx,
      );
      return row.KeyHash;
    });
    if (hash === undefined) return false;
    this.cache.delete(hash);
    this.bus?.publish(CHANNEL, { h: hash }).catch(this.onError);
    return true;
  }
}
