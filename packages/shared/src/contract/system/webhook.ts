import { z } from 'zod';
import { CATALOGUE_EVENT_TYPES } from '../event-catalogue.ts';
import { operation, peopleOnly, resourceApi } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';
import { bodyInstant, filterSchema, id, idParams, idText } from '../wire.ts';

/**
 * Webhooks (issue 29, docs/integrations.md "Webhooks"): subscriptions of another system to events of the
 * catalogue in some areas, delivered as signed HTTP POSTs after the Standard Webhooks specification, with a
 * log of every delivery and replay. Managed by the built-in admin and SuperAdmin only, never by an API key
 * (`peopleOnly`): a key that could add a webhook could send itself every event of every area.
 */

/** What every signing secret starts with (Standard Webhooks): the rest is base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A subscription's state: delivering; disabled by an operator; or disabled by Gatehouse because its deliveries
 * failed for a day (`failing`), until an operator enables it again.
 */
export const WEBHOOK_STATES = ['active', 'disabled', 'failing'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];

export const webhookItem = z.object({
  Id: z.number(),
  Url: z.string(),
  Areas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  Events: z.array(z.enum(CATALOGUE_EVENT_TYPES)),
  Disabled: z.boolean(),
  State: z.enum(WEBHOOK_STATES),
  /** Since when deliveries fail without a success in between; null when the last one succeeded. */
  FailingSince: z.string().nullable(),
  /** Deliveries waiting to be sent (or retried). */
  Pending: z.number(),
  CreatedByName: z.string(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type WebhookItem = z.output<typeof webhookItem>;

const url = z
  .string()
  .trim()
  .max(500)
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return parsed.protocol === 'https:' || parsed.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'validation.url');

const webhookFields = {
  Url: url,
  AreaIds: z.array(id).min(1).max(200),
  Events: z.array(z.enum(CATALOGUE_EVENT_TYPES)).min(1).max(CATALOGUE_EVENT_TYPES.length),
  Disabled: z.boolean().optional(),
};

export const webhookCreate = z.strictObject(webhookFields);
export type WebhookCreateInput = z.output<typeof webhookCreate>;

export const webhookUpdate = z.strictObject({ Id: id, ...webhookFields });
export type WebhookUpdateInput = z.output<typeof webhookUpdate>;

/** The subscription and, this once (creation, rotation), its signing secret. */
export const webhookWithSecret = webhookItem.extend({ Secret: z.string() });
export type WebhookWithSecret = z.output<typeof webhookWithSecret>;

/** Where a delivery stands: waiting (or retrying), received (2xx), or given up after a day of failures. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One attempt: when, the receiver's status code (null: no answer), how long it took, the error. */
export const webhookAttempt = z.object({
  At: z.string(),
  StatusCode: z.number().nullable(),
  ResponseMs: z.number().nullable(),
  Error: z.string().nullable(),
});

export const webhookDeliveryItem = z.object({
  Id: z.number(),
  WebhookId: z.number(),
  /** `webhook-id`: the same on every attempt and replay. */
  MessageId: z.string(),
  Type: z.enum(CATALOGUE_EVENT_TYPES),
  EventAt: z.string(),
  Status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  Attempts: z.array(webhookAttempt),
  NextAttemptAt: z.string().nullable(),
  LastStatusCode: z.number().nullable(),
  LastResponseMs: z.number().nullable(),
  LastError: z.string().nullable(),
  DeliveredAt: z.string().nullable(),
  CreatedAt: z.string(),
});
export type WebhookDeliveryItem = z.output<typeof webhookDeliveryItem>;

/** Replay one delivery (`Id`), or every delivery of a subscription whose event happened in a time range. */
export const webhookReplay = z.union([
  z.strictObject({ Id: id }),
  z.strictObject({ WebhookId: id, StartTime: bodyInstant, EndTime: bodyInstant }),
]);
export type WebhookReplayInput = z.output<typeof webhookReplay>;

const TAG = 'Webhook';

export const WebhookApi = peopleOnly({
  ...resourceApi({
    name: 'Webhook',
    area: false,
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    item: webhookItem,
    filters: { Keyword: filterSchema.text() },
    sorts: ['CreatedAt', 'Url'],
  }),
  create: operation({
    method: 'POST',
    path: '/api/Webhook',
    summary:
      'Subscribe a URL to events of some areas; the reply holds the signing secret (whsec_…), shown this once',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    body: webhookCreate,
    reply: webhookWithSecret,
  }),
  update: operation({
    method: 'PUT',
    path: '/api/Webhook',
    summary: 'Change a subscription (Id in the body): its URL, areas, events, or enable and disable it',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    body: webhookUpdate,
    reply: webhookItem,
  }),
  remove: operation({
    method: 'DELETE',
    path: '/api/Webhook/:Id',
    summary: 'Delete a subscription and its delivery log',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    params: idParams,
  }),
  rotateSecret: operation({
    method: 'POST',
    path: '/api/Webhook/RotateSecret',
    summary: 'Give a subscription a new signing secret, shown this once; the old one stops signing at once',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    query: z.object({ Id: idText }),
    reply: webhookWithSecret,
  }),
});

export const WebhookDeliveryApi = peopleOnly({
  ...resourceApi({
    name: 'WebhookDelivery',
    tag: TAG,
    area: false,
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    item: webhookDeliveryItem,
    filters: {
      WebhookId: filterSchema.id(),
      Status: z.enum(WEBHOOK_DELIVERY_STATUSES),
      StartTime: filterSchema.instant(),
      EndTime: filterSchema.instant(),
    },
    sorts: ['CreatedAt', 'EventAt'],
  }),
  replay: operation({
    method: 'POST',
    path: '/api/WebhookDelivery/Replay',
    summary:
      'Send again one delivery, or every delivery of a subscription whose event happened in a time range, with the same webhook-id',
    tag: TAG,
    access: SUPER_ADMIN,
    area: false,
    body: webhookReplay,
    reply: z.object({ Replayed: z.number() }),
  }),
});
