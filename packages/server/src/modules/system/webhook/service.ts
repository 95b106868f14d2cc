import type { WebhookDeliveryApi } from '@gatehouse/shared';
import {
  isoInstant,
  WebhookApi,
  type CatalogueEventType,
  type WebhookDeliveryItem,
  type WebhookDeliveryStatus,
  type WebhookItem,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import { match } from '../../../platform/filters.ts';
import { isoOrNull } from '../../../platform/instants.ts';
import { getItem, type ResourceImpl } from '../../../platform/resource.ts';

type Row = Record<string, number | string | null>;

/**
 * Webhook subscriptions as their list shows them (the built-in admin and SuperAdmin): never the secret. Their
 * writes are the platform's webhook store (platform/outbox/subscriptions.ts), the tables' one writer.
 */
export const webhookList: ResourceImpl<typeof WebhookApi> = {
  table: 'Webhook',
  query: (db: Kysely<Database>) =>
    db
      .selectFrom('Webhook')
      .select([
        'Webhook.Id',
        'Webhook.Url',
        'Webhook.AreaIds',
        'Webhook.Events',
        'Webhook.Disabled',
        'Webhook.DisabledReason',
        'Webhook.FailingSince',
        'Webhook.CreatedByName',
        'Webhook.CreatedAt',
        'Webhook.UpdatedAt',
      ]),
  toItem: (row: Row): WebhookItem => ({
    Id: row.Id as number,
    Url: row.Url as string,
    // Named by withAreasAndPending.
    Areas: (JSON.parse(row.AreaIds as string) as number[]).map((Id) => ({ Id, Name: '' })),
    Events: JSON.parse(row.Events as string) as CatalogueEventType[],
    Disabled: Number(row.Disabled) === 1,
    State: Number(row.Disabled) !== 1 ? 'active' : row.DisabledReason === 'failing' ? 'failing' : 'disabled',
    FailingSince: isoOrNull(row.FailingSince),
    Pending: 0,
    CreatedByName: row.CreatedByName as string,
    CreatedAt: isoOrNull(row.CreatedAt)!,
    UpdatedAt: isoOrNull(row.UpdatedAt)!,
  }),
  enrich: withAreasAndPending,
  where: { Keyword: match.keyword(['Webhook.Url', 'Webhook.CreatedByName']) },
  sorts: { CreatedAt: 'Webhook.CreatedAt', Url: 'Webhook.Url' },
  defaultOrder: 'desc',
};

async function withAreasAndPending(ctx: ServiceContext, items: WebhookItem[]): Promise<WebhookItem[]> {
  if (items.length === 0) return items;
  const areas = new Map(
    (await ctx.db.kysely.selectFrom('AreaInfo').select(['Id', 'Name']).execute()).map((a) => [a.Id, a.Name]),
  );
  const pending = await ctx.db.kysely
    .selectFrom('WebhookDelivery')
    .select(['WebhookId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('Status', '=', 'pending')
    .where(
      'WebhookId',
      'in',
      items.map((i) => i.Id),
    )
    .groupBy('WebhookId')
    .execute();
  return items.map((item) => ({
    ...item,
    // An area deleted since is left out: the subscription gets nothing of it.
    Areas: item.Areas.filter((a) => areas.has(a.Id)).map((a) => ({ Id: a.Id, Name: areas.get(a.Id)! })),
    Pending: Number(pending.find((p) => p.WebhookId === item.Id)?.n ?? 0),
  }));
}

export const shownWebhook = (ctx: ServiceContext, id: number) => getItem(WebhookApi, webhookList, ctx, id);

/** The delivery log: one row per event and subscription, its attempts in order. */
export const webhookDeliveryList: ResourceImpl<typeof WebhookDeliveryApi> = {
  table: 'WebhookDelivery',
  query: (db: Kysely<Database>) =>
    db
      .selectFrom('WebhookDelivery')
      .select([
        'WebhookDelivery.Id',
        'WebhookDelivery.WebhookId',
        'WebhookDelivery.MessageId',
        'WebhookDelivery.Type',
        'WebhookDelivery.EventAt',
        'WebhookDelivery.Status',
        'WebhookDelivery.Log',
        'WebhookDelivery.NextAttemptAt',
        'WebhookDelivery.LastStatusCode',
        'WebhookDelivery.LastResponseMs',
        'WebhookDelivery.LastError',
        'WebhookDelivery.DeliveredAt',
        'WebhookDelivery.CreatedAt',
      ]),
  toItem: (row: Row): WebhookDeliveryItem => ({
    Id: row.Id as number,
    WebhookId: row.WebhookId as number,
    MessageId: row.MessageId as string,
    Type: row.Type as CatalogueEventType,
    EventAt: isoOrNull(row.EventAt)!,
    Status: row.Status as WebhookDeliveryStatus,
    Attempts: (
      JSON.parse(row.Log as string) as {
        At: number;
        StatusCode: number | null;
        ResponseMs: number | null;
        Error: string | null;
      }[]
    ).map((a) => ({ ...a, At: isoInstant(a.At) })),
    NextAttemptAt: row.Status === 'pending' ? isoOrNull(row.NextAttemptAt) : null,
    LastStatusCode: (row.LastStatusCode as number | null) ?? null,
    LastResponseMs: (row.LastResponseMs as number | null) ?? null,
    LastError: (row.LastError as string | null) ?? null,
    DeliveredAt: isoOrNull(row.DeliveredAt),
    CreatedAt: isoOrNull(row.CreatedAt)!,
  }),
  where: {
    WebhookId: match.equals('WebhookDelivery.WebhookId'),
    Status: match.equals('WebhookDelivery.Status'),
    StartTime: match.from('WebhookDelivery.EventAt'),
    EndTime: match.to('WebhookDelivery.EventAt'),
  },
  sorts: { CreatedAt: 'WebhookDelivery.Id', EventAt: 'WebhookDelivery.EventAt' },
  defaultOrder: 'desc',
};
