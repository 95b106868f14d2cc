import { z } from 'zod';
import { operation, peopleOnly, resourceApi } from '../operation.ts';
import { PERMISSION_CODES, SUPER_ADMIN } from '../permissions.ts';
import { bodyInstant, filterSchema, id, idText } from '../wire.ts';

/**
 * API keys (issue 29): a credential for another system, sent as `Authorization: Bearer ghk_…` on any /api
 * route. A key acts as a user holding its codes in its areas; it is made and revoked by the built-in admin and
 * SuperAdmin only, and never manages keys, users, roles or webhooks (`peopleOnly`).
 */

/** What every key starts with, so a leaked one is recognised (secret scanners, logs) and told from a session. */
export const API_KEY_PREFIX = 'ghk_';

/**
 * A key's state as the list shows it: usable, past its ExpiresAt, or revoked (the row stays for the operation
 * log and the list; a revoked key never works again).
 */
export const API_KEY_STATES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyState = (typeof API_KEY_STATES)[number];

/** A key as GET /api/ApiKey lists it. The secret is never in it: only its first characters (`Prefix`). */
export const apiKeyItem = z.object({
  Id: z.number(),
  Name: z.string(),
  /** The key's first characters (`ghk_` and 8 more), enough to tell which key a caller holds. */
  Prefix: z.string(),
  Areas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  Codes: z.array(z.string()),
  CreatedByName: z.string(),
  CreatedAt: z.string(),
  ExpiresAt: z.string().nullable(),
  LastUsedAt: z.string().nullable(),
  LastUsedIp: z.string().nullable(),
  RevokedAt: z.string().nullable(),
  RevokedByName: z.string().nullable(),
  State: z.enum(API_KEY_STATES),
});
export type ApiKeyItem = z.output<typeof apiKeyItem>;

/** A new key: one or more areas, the codes it holds (never more than its creator's), an optional expiry. */
export const apiKeyCreate = z.strictObject({
  Name: z.string().trim().min(1).max(50),
  AreaIds: z.array(id).min(1).max(200),
  Codes: z.array(z.enum(PERMISSION_CODES)).min(1).max(PERMISSION_CODES.length),
  ExpiresAt: bodyInstant.nullable().optional(),
});
export type ApiKeyCreateInput = z.output<typeof apiKeyCreate>;

/** The created key and, this once, its secret: only its hash is stored, so it cannot be shown again. */
export const apiKeyCreated = apiKeyItem.extend({ Secret: z.string() });
export type ApiKeyCreated = z.output<typeof apiKeyCreated>;

const TAG = 'ApiKey';

export const ApiKeyApi = peopleOnly({
  ...resourceApi({
    name: 'ApiKey',
    area: false,
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    item: apiKeyItem,
    filters: { Keyword: filterSchema.text() },
    sorts: ['CreatedAt', 'Name', 'LastUsedAt'],
  }),
  create: operation({
    method: 'POST',
    path: '/api/ApiKey',
    summary:
      'Create an API key for some areas and codes (never more than your own); the reply holds its secret, shown this once',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    body: apiKeyCreate,
    reply: apiKeyCreated,
  }),
  revoke: operation({
    method: 'POST',
    path: '/api/ApiKey/Revoke',
    summary: 'Revoke an API key: refused on every instance within a second; the key stays listed as revoked',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    query: z.object({ Id: idText }),
    reply: apiKeyItem,
  }),
});
