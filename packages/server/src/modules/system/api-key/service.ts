import {
  ApiKeyApi,
  type ApiKeyCreateInput,
  type ApiKeyCreated,
  type ApiKeyItem,
  type ApiKeyState,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ApiKeyStore } from '../../../platform/auth/api-keys.ts';
import type { ServiceContext, UserContext } from '../../../platform/context.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { match } from '../../../platform/filters.ts';
import { isoOrNull } from '../../../platform/instants.ts';
import { linkedNames } from '../../../platform/links.ts';
import { getItem, type ResourceImpl } from '../../../platform/resource.ts';

type Row = Record<string, number | string | null>;

/** Whether a key works now: revoked is for good, expired once its ExpiresAt has passed. */
export function apiKeyState(row: { RevokedAt: unknown; ExpiresAt: unknown }, now: number): ApiKeyState {
  if (row.RevokedAt !== null && row.RevokedAt !== undefined) return 'revoked';
  if (row.ExpiresAt !== null && row.ExpiresAt !== undefined && now >= Number(row.ExpiresAt)) return 'expired';
  return 'active';
}

/**
 * Every key, newest first, for the built-in admin and SuperAdmin (the contract's read codes): keys are the
 * site's, not an area's, so the list is not scoped by the current area. Never the hash.
 */
export const apiKeyList: ResourceImpl<typeof ApiKeyApi> = {
  table: 'ApiKey',
  query: (db: Kysely<Database>) =>
    db
      .selectFrom('ApiKey')
      .select([
        'ApiKey.Id',
        'ApiKey.Name',
        'ApiKey.Prefix',
        'ApiKey.Codes',
        'ApiKey.CreatedByName',
        'ApiKey.CreatedAt',
        'ApiKey.ExpiresAt',
        'ApiKey.LastUsedAt',
        'ApiKey.LastUsedIp',
        'ApiKey.RevokedAt',
        'ApiKey.RevokedByName',
      ]),
  toItem: (row: Row): ApiKeyItem => ({
    Id: row.Id as number,
    Name: row.Name as string,
    Prefix: row.Prefix as string,
    Areas: [],
    Codes: JSON.parse(row.Codes as string) as string[],
    CreatedByName: row.CreatedByName as string,
    CreatedAt: isoOrNull(row.CreatedAt)!,
    ExpiresAt: isoOrNull(row.ExpiresAt),
    LastUsedAt: isoOrNull(row.LastUsedAt),
    LastUsedIp: (row.LastUsedIp as string | null) ?? null,
    RevokedAt: isoOrNull(row.RevokedAt),
    RevokedByName: (row.RevokedByName as string | null) ?? null,
    // Set by withAreasAndState, which knows the time.
    State: 'active',
  }),
  enrich: withAreasAndState,
  where: { Keyword: match.keyword(['ApiKey.Name', 'ApiKey.Prefix', 'ApiKey.CreatedByName']) },
  sorts: { CreatedAt: 'ApiKey.CreatedAt', Name: 'ApiKey.Name', LastUsedAt: 'ApiKey.LastUsedAt' },
  defaultOrder: 'desc',
};

/** A page of keys with each one's areas (by name) and its state now. */
async function withAreasAndState(ctx: ServiceContext, items: ApiKeyItem[]): Promise<ApiKeyItem[]> {
  if (items.length === 0) return items;
  const areasOf = await linkedNames(
    ctx.db.kysely,
    { table: 'ApiKeyArea', owner: 'ApiKeyId', linked: 'AreaId' },
    { table: 'AreaInfo', orderBy: 'Id' },
    items.map((i) => i.Id),
  );
  const now = ctx.clock.now();
  return items.map((item) => ({
    ...item,
    Areas: areasOf.get(item.Id) ?? [],
    State: apiKeyState(
      {
        RevokedAt: item.RevokedAt,
        ExpiresAt: item.ExpiresAt === null ? null : Date.parse(item.ExpiresAt),
      },
      now,
    ),
  }));
}

/** One key as the list shows it. */
export const shownKey = (ctx: ServiceContext, id: number) => getItem(ApiKeyApi, apiKeyList, ctx, id);

/**
 * Makes a key for another system: never more than its creator holds (the built-in admin may give any code of
 * the catalogue; anyone else only codes they hold themselves), only in areas the creator operates, and, when
 * it expires, later than now. The reply carries the secret this once.
 */
export async function createApiKey(
  ctx: UserContext,
  store: ApiKeyStore,
  input: ApiKeyCreateInput,
): Promise<ApiKeyCreated> {
  const codes = [...new Set(input.Codes)].sort();
  const areaIds = [...new Set(input.AreaIds)].sort((a, b) => a - b);
  if (!ctx.user.isAdmin && codes.some((code) => !ctx.user.codes.has(code)))
    throw new AppError(403, 'error.grantBeyondOwn');
  if (areaIds.some((id) => !ctx.user.areaIds.has(id))) throw new AppError(403, 'error.areaForbidden');
  const expiresAt = input.ExpiresAt ?? null;
  if (expiresAt !== null && expiresAt <= ctx.clock.now())
    throw fieldError('ExpiresAt', 'validation.mustBeFuture');
  const { id, secret } = await store.create(ctx, {
    Name: input.Name,
    AreaIds: areaIds,
    Codes: codes,
    ExpiresAt: expiresAt,
    CreatedById: ctx.user.userId,
    CreatedByName: ctx.user.userName,
  });
  return { ...(await shownKey(ctx, id)), Secret: secret };
}

/** Revokes a key (404 when there is none); a key already revoked is answered as it is. */
export async function revokeApiKey(ctx: UserContext, store: ApiKeyStore, id: number): Promise<ApiKeyItem> {
  const exists = await ctx.db.kysely
    .selectFrom('ApiKey')
    .select('Id')
    .where('Id', '=', id)
    .executeTakeFirst();
  if (!exists) throw notFound();
  await store.revoke(ctx, id, ctx.user.userName);
  return shownKey(ctx, id);
}
