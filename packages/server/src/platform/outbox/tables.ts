import type { Generated } from 'kysely';

/** Tables of the outbox and the webhooks (migration.ts). */

/** One event of the catalogue, written in the transaction of the change it reports (outbox.ts). */
export interface OutboxEventTable {
  Id: Generated<number>;
  Type: string;
  AreaId: number;
  At: number;
  /** The event as every transport sends it: `{ type, timestamp, data }`, validated against the catalogue. */
  Payload: string;
  /** 1 once the webhook dispatcher made its deliveries. */
  Dispatched: Generated<number>;
  /**
   * MQTT (mqtt.ts): 0 not yet published, 1 published, else the instant (epoch ms) until which an instance that
   * claimed it is publishing it (a claim that lapses is taken again). Stays 0 without MQTT_URL.
   */
  Published: Generated<number>;
}

/** A webhook subscription. */
export interface WebhookTable {
  Id: Generated<number>;
  Url: string;
  /** JSON array of area ids. */
  AreaIds: string;
  /** JSON array of catalogue types. */
  Events: string;
  Disabled: Generated<number>;
  /** Why it is disabled: 'failing' when deliveries failed for a day; null when an operator disabled it. */
  DisabledReason: string | null;
  /**
   * The signing secret (`whsec_` + base64), kept as it is: an HMAC is computed with the secret itself, so a
   * hash (as for API keys) could not sign, and encrypting it with a key kept beside the database would
   * protect nothing from whoever reads both. It is never returned after creation or rotation.
   */
  Secret: string;
  /** When deliveries started failing without a success since; null when the last one succeeded. */
  FailingSince: number | null;
  CreatedByName: string;
  CreatedAt: number;
  UpdatedAt: number;
}

/** One event for one subscription: its attempts, in order, and where it stands. */
export interface WebhookDeliveryTable {
  Id: Generated<number>;
  WebhookId: number;
  EventId: number;
  /** `webhook-id`: the same on every attempt and replay (the receiver's idempotency key). */
  MessageId: string;
  Type: string;
  EventAt: number;
  Payload: string;
  /** pending, delivered, failed (gave up after a day). */
  Status: string;
  Attempts: Generated<number>;
  /** JSON array of { At, StatusCode, ResponseMs, Error }. */
  Log: Generated<string>;
  NextAttemptAt: number;
  /** An instance sending it holds it until then (a conditional update claims it; one sender at a time). */
  ClaimedUntil: number | null;
  LastAttemptAt: number | null;
  LastStatusCode: number | null;
  LastResponseMs: number | null;
  LastError: string | null;
  DeliveredAt: number | null;
  CreatedAt: number;
}

export interface OutboxTables {
  OutboxEvent: OutboxEventTable;
  Webhook: WebhookTable;
  WebhookDelivery: WebhookDeliveryTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends OutboxTables {}
}
