import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_SECRET_PREFIX,
  type WebhookCreateInput,
  type WebhookReplayInput,
  type WebhookUpdateInput,
} from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { audit } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { TargetPolicy } from './target.ts';
import './tables.ts';

/**
 * Webhook subscriptions' one writer (docs/integrations.md, "Webhooks"): what the routes create, change, delete,
 * re-key and replay. Apart from the dispatcher and the sender (webhooks.ts), which write deliveries and a
 * subscription's failing state only, so each file holds one job (issue 28).
 */

/** A new signing secret: `whsec_` and base64 of 32 random bytes (Standard Webhooks). */
export function newSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

interface Author {
  name: string;
}

/** What the operation log keeps of a subscription: never its secret. */
function logged(input: WebhookCreateInput) {
  return {
    Url: input.Url,
    AreaIds: [...new Set(input.AreaIds)].sort((a, b) => a - b),
    Events: [...new Set(input.Events)],
    Disabled: Boolean(input.Disabled),
  };
}

export async function createWebhook(
  ctx: ServiceContext,
  policy: TargetPolicy,
  input: WebhookCreateInput,
  author: Author,
): Promise<{ id: number; secret: string }> {
  await policy.resolve(input.Url);
  const secret = newSecret();
  const now = ctx.clock.now();
  const row = await ctx.db.kysely.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('Webhook')
      .values({
        Url: input.Url,
        AreaIds: JSON.stringify([...new Set(input.AreaIds)].sort((a, b) => a - b)),
        Events: JSON.stringify([...new Set(input.Events)]),
        Disabled: input.Disabled ? 1 : 0,
        DisabledReason: null,
        Secret: secret,
        FailingSince: null,
        CreatedByName: author.name,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await audit(
      ctx,
      { action: 'create', entity: 'Webhook', entityId: created.Id, after: logged(input) },
      trx,
    );
    return created;
  });
  return { id: row.Id, secret };
}

/** Changes a subscription; enabling one that Gatehouse disabled for failing starts its day of retries afresh. */
export async function updateWebhook(
  ctx: ServiceContext,
  policy: TargetPolicy,
  input: WebhookUpdateInput,
): Promise<void> {
  await policy.resolve(input.Url);
  const db = ctx.db;
  const now = ctx.clock.now();
  const disabled = input.Disabled ? 1 : 0;
  const before = await db.kysely
    .selectFrom('Webhook')
    .select(['Url', 'AreaIds', 'Events', 'Disabled'])
    .where('Id', '=', input.Id)
    .executeTakeFirst();
  if (!before) throw notFound();
  const result = await db.kysely
    .updateTable('Webhook')
    .set({
      Url: input.Url,
      AreaIds: JSON.stringify([...new Set(input.AreaIds)].sort((a, b) => a - b)),
      Events: JSON.stringify([...new Set(input.Events)]),
      Disabled: disabled,
      ...(disabled ? {} : { DisabledReason: null, FailingSince: null }),
      UpdatedAt: now,
    })
    .where('Id', '=', input.Id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
  await audit(ctx, {
    action: 'update',
    entity: 'Webhook',
    entityId: input.Id,
    before: {
      Url: before.Url,
      AreaIds: JSON.parse(before.AreaIds) as number[],
      Events: JSON.parse(before.Events) as string[],
      Disabled: Number(before.Disabled) === 1,
    },
    after: logged(input),
  });
  if (!disabled)
    // Deliveries held back while it was failing are tried again now, each with a fresh day.
    await db.kysely
      .updateTable('WebhookDelivery')
      .set({ NextAttemptAt: now, CreatedAt: now })
      .where('WebhookId', '=', input.Id)
      .where('Status', '=', 'pending')
      .execute();
}

export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('Webhook').select('Url').where('Id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    await trx.deleteFrom('WebhookDelivery').where('WebhookId', '=', id).execute();
    await trx.deleteFrom('Webhook').where('Id', '=', id).execute();
    await audit(ctx, { action: 'delete', entity: 'Webhook', entityId: id, before: { Url: row.Url } }, trx);
  });
}

/** A new secret, signing from the next attempt on; the old one stops at once. */
export async function rotateWebhookSecret(ctx: ServiceContext, id: number): Promise<string> {
  const secret = newSecret();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('Webhook')
      .set({ Secret: secret, UpdatedAt: ctx.clock.now() })
      .where('Id', '=', id)
      .returning('Url')
      .executeTakeFirst();
    if (!row) throw notFound();
    // The log says the secret changed, never what it is.
    await audit(
      ctx,
      { action: 'rotateSecret', entity: 'Webhook', entityId: id, after: { Url: row.Url } },
      trx,
    );
  });
  return secret;
}

/**
 * Sends deliveries again with their own `webhook-id` (the receiver recognises a message it already has): one, or
 * every delivery of a subscription whose event happened in [StartTime, EndTime]. Answers how many.
 */
export async function replayDeliveries(db: Db, clock: Clock, input: WebhookReplayInput): Promise<number> {
  const now = clock.now();
  let query = db.kysely
    .updateTable('WebhookDelivery')
    .set({ Status: 'pending', NextAttemptAt: now, CreatedAt: now, ClaimedUntil: null });
  if ('Id' in input) {
    query = query.where('Id', '=', input.Id);
  } else {
    if (input.EndTime < input.StartTime) throw new AppError(400, 'error.validation');
    query = query
      .where('WebhookId', '=', input.WebhookId)
      .where('EventAt', '>=', input.StartTime)
      .where('EventAt', '<=', input.EndTime);
  }
  const result = await query.executeTakeFirst();
  const count = Number(result.numUpdatedRows);
  if ('Id' in input && count === 0) throw notFound();
  return count;
}
