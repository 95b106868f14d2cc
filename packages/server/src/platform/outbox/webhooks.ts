import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_SECRET_PREFIX } from '@gatehouse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { TargetPolicy } from './target.ts';
import './tables.ts';

/**
 * Webhooks (docs/integrations.md, "Webhooks"): the dispatcher that turns outbox events into deliveries, and the
 * sender. The subscriptions' one writer (the routes' writes) is subscriptions.ts.
 *
 * - Dispatch: every event not yet dispatched becomes one delivery per subscription whose areas and events
 *   include it, and is marked dispatched, in one transaction (on PostgreSQL the events are taken with
 *   `FOR UPDATE SKIP LOCKED`, so two instances never dispatch the same event).
 * - Sending, in order per subscription: only a subscription's oldest pending delivery is sent, and an instance
 *   sends it only after claiming it with a conditional update (ClaimedUntil), so across all instances one
 *   attempt at a time, and a later event waits until the earlier one is delivered or given up.
 * - At least once, Standard Webhooks: `webhook-id` is the delivery's MessageId, the same on every attempt and
 *   replay; `webhook-timestamp` the attempt's; `webhook-signature` `v1,<base64 HMAC-SHA256 of id.timestamp.body>`.
 *   A non-2xx answer, a redirect (never followed), an error or 10 s without an answer is a failure, retried
 *   after an exponential delay (5 s, 20 s, 80 s, … capped at 4 h) until the delivery is a day old, then given
 *   up ('failed'); a subscription whose deliveries failed for a day without a success is disabled ('failing').
 */

/** The longest an attempt may take: a slow receiver cannot hold a sender longer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a delivery is retried, and a subscription may fail without a success, before giving up. */
export const GIVE_UP_MS = 24 * 3_600_000;
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 4 * 3_600_000;
/** A claim outlives the longest attempt, so a sender that died leaves the delivery to another after it. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 5_000;
const DISPATCH_BATCH = 200;
/** What is kept of a receiver's error text. */
const ERROR_TEXT = 300;

/** The delay before attempt `attempts + 1`, after `attempts` failures (1, 2, …). */
export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** The `webhook-signature` of a message (Standard Webhooks `v1`). */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** What the worker counts (platform/metrics.ts). */
export interface DeliveryMetrics {
  webhookDelivery(outcome: 'delivered' | 'retried' | 'failed'): void;
}

interface Subscription {
  Id: number;
  AreaIds: number[];
  Events: Set<string>;
}

/** Makes the deliveries of events not yet dispatched; answers how many events it dispatched. */
export async function dispatchEvents(db: Db, clock: Clock): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('OutboxEvent')
      .select(['Id', 'Type', 'AreaId', 'At', 'Payload'])
      .where('Dispatched', '=', 0)
      .orderBy('Id')
      .limit(DISPATCH_BATCH);
    if (db.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const events = await query.execute();
    if (events.length === 0) return 0;
    const subscriptions: Subscription[] = (
      await trx.selectFrom('Webhook').select(['Id', 'AreaIds', 'Events']).where('Disabled', '=', 0).execute()
    ).map((w) => ({
      Id: w.Id,
      AreaIds: JSON.parse(w.AreaIds) as number[],
      Events: new Set(JSON.parse(w.Events) as string[]),
    }));
    const now = clock.now();
    const deliveries = events.flatMap((event) =>
      subscriptions
        .filter((s) => s.Events.has(event.Type) && s.AreaIds.includes(event.AreaId))
        .map((s) => ({
          WebhookId: s.Id,
          EventId: event.Id,
          MessageId: `evt_${event.Id}`,
          Type: event.Type,
          EventAt: Number(event.At),
          Payload: event.Payload,
          Status: 'pending',
          NextAttemptAt: now,
          CreatedAt: now,
        })),
    );
    for (let i = 0; i < deliveries.length; i += DISPATCH_BATCH)
      await trx
        .insertInto('WebhookDelivery')
        .values(deliveries.slice(i, i + DISPATCH_BATCH))
        .execute();
    await trx
      .updateTable('OutboxEvent')
      .set({ Dispatched: 1 })
      .where(
        'Id',
        'in',
        events.map((e) => e.Id),
      )
      .execute();
    return events.length;
  });
}

interface Claimed {
  Id: number;
  WebhookId: number;
  MessageId: string;
  Payload: string;
  Attempts: number;
  Log: string;
  CreatedAt: number;
  Url: string;
  Secret: string;
}

/**
 * Claims the oldest pending delivery of each enabled subscription that is due and not held by another sender:
 * a conditional update, so of several instances one wins each.
 */
export async function claimDue(db: Db, clock: Clock): Promise<Claimed[]> {
  const now = clock.now();
  const heads = await db.kysely
    .selectFrom('WebhookDelivery as D')
    .innerJoin('Webhook as W', 'W.Id', 'D.WebhookId')
    .select([
      'D.Id',
      'D.WebhookId',
      'D.MessageId',
      'D.Payload',
      'D.Attempts',
      'D.Log',
      'D.CreatedAt',
      'D.NextAttemptAt',
      'D.ClaimedUntil',
      'W.Url',
      'W.Secret',
    ])
    .where('W.Disabled', '=', 0)
    .where(
      'D.Id',
      'in',
      db.kysely
        .selectFrom('WebhookDelivery')
        .select((eb) => eb.fn.min<number>('Id').as('Id'))
        .where('Status', '=', 'pending')
        .groupBy('WebhookId'),
    )
    .execute();
  const claimed: Claimed[] = [];
  for (const head of heads) {
    if (Number(head.NextAttemptAt) > now) continue;
    if (head.ClaimedUntil !== null && Number(head.ClaimedUntil) > now) continue;
    const result = await db.kysely
      .updateTable('WebhookDelivery')
      .set({ ClaimedUntil: now + CLAIM_MS })
      .where('Id', '=', head.Id)
      .where('Status', '=', 'pending')
      .where((eb) =>
        head.ClaimedUntil === null
          ? eb('ClaimedUntil', 'is', null)
          : eb('ClaimedUntil', '=', Number(head.ClaimedUntil)),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1)
      claimed.push({
        ...head,
        Attempts: Number(head.Attempts),
        CreatedAt: Number(head.CreatedAt),
      });
  }
  return claimed;
}

export interface AttemptResult {
  statusCode: number | null;
  responseMs: number;
  error: string | null;
}

/**
 * One POST to the receiver, connected to an address the policy permits (resolved and checked here, then
 * pinned: the name is not resolved again by the request), never following a redirect, bounded by 10 s.
 */
export async function sendOnce(
  policy: TargetPolicy,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let addresses: { address: string; family: 4 | 6 }[];
  try {
    addresses = await policy.resolve(url);
  } catch (error) {
    const key = error instanceof AppError ? error.key : 'error';
    const params = error instanceof AppError ? JSON.stringify(error.params ?? {}) : '';
    return { statusCode: null, responseMs: elapsed(), error: `refused: ${key} ${params}`.trim() };
  }
  const target = addresses[0]!;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const parsed = new URL(url);
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const request = client.request(
      parsed,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        lookup: pinned,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not needed: read and dropped, so the connection closes cleanly.
        response.resume();
        response.on('end', () =>
          resolve({
            statusCode: status,
            responseMs: elapsed(),
            error:
              status >= 300 && status < 400
                ? `redirect not followed (${response.headers.location ?? 'no location'})`
                : status >= 200 && status < 300
                  ? null
                  : `HTTP ${status}`,
          }),
        );
        response.on('error', (error) =>
          resolve({ statusCode: status, responseMs: elapsed(), error: error.message.slice(0, ERROR_TEXT) }),
        );
      },
    );
    request.on('error', (error) =>
      resolve({
        statusCode: null,
        responseMs: elapsed(),
        error:
          error.name === 'TimeoutError' || error.name === 'AbortError'
            ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
            : error.message.slice(0, ERROR_TEXT),
      }),
    );
    request.end(body);
  });
}

/** Records an attempt's outcome on the delivery, and on its subscription (failing since, disabled after a day). */
export async function recordAttempt(
  db: Db,
  clock: Clock,
  delivery: Claimed,
  result: AttemptResult,
): Promise<'delivered' | 'retried' | 'failed'> {
  const now = clock.now();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const attempts = delivery.Attempts + 1;
  const log = [
    ...(JSON.parse(delivery.Log) as unknown[]),
    { At: now, StatusCode: result.statusCode, ResponseMs: result.responseMs, Error: result.error },
  ].slice(-50);
  const gaveUp = !ok && now - delivery.CreatedAt >= GIVE_UP_MS;
  const outcome = ok ? 'delivered' : gaveUp ? 'failed' : 'retried';
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('WebhookDelivery')
      .set({
        Status: ok ? 'delivered' : gaveUp ? 'failed' : 'pending',
        Attempts: attempts,
        Log: JSON.stringify(log),
        LastAttemptAt: now,
        LastStatusCode: result.statusCode,
        LastResponseMs: result.responseMs,
        LastError: result.error,
        DeliveredAt: ok ? now : null,
        NextAttemptAt: ok || gaveUp ? now : now + retryDelay(attempts),
        ClaimedUntil: null,
      })
      .where('Id', '=', delivery.Id)
      .execute();
    if (ok) {
      await trx
        .updateTable('Webhook')
        .set({ FailingSince: null })
        .where('Id', '=', delivery.WebhookId)
        .execute();
      return;
    }
    await trx
      .updateTable('Webhook')
      .set({ FailingSince: now })
      .where('Id', '=', delivery.WebhookId)
      .where('FailingSince', 'is', null)
      .execute();
    // A day of failures without a success: disabled, and shown so ('failing'), until an operator enables it.
    await trx
      .updateTable('Webhook')
      .set({ Disabled: 1, DisabledReason: 'failing', UpdatedAt: now })
      .where('Id', '=', delivery.WebhookId)
      .where('FailingSince', '<=', now - GIVE_UP_MS)
      .execute();
  });
  return outcome;
}

/** The headers of one attempt. The timestamp is the wall clock's: receivers check it against theirs. */
export function deliveryHeaders(delivery: { MessageId: string; Payload: string; Secret: string }) {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'webhook-id': delivery.MessageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(delivery.Secret, delivery.MessageId, timestamp, delivery.Payload),
    'user-agent': 'Gatehouse-Webhooks/1',
  };
}

/** How long the outbox keeps a dispatched event (MQTT's backlog bound), and the log a finished delivery. */
export const OUTBOX_KEEP_MS = 7 * 24 * 3_600_000;
export const DELIVERY_LOG_KEEP_MS = 30 * 24 * 3_600_000;
const PRUNE_ROWS = 1_000;

/**
 * Keeps the outbox and the delivery log bounded (once across the cluster, app.ts): events dispatched to the
 * webhooks more than 7 days ago go (a delivery keeps its own copy of the payload; a broker away for longer
 * than that misses them), and deliveries delivered or given up more than 30 days ago. In bounded steps, so a
 * large backlog never holds a long transaction. Answers how many rows went.
 */
export async function pruneOutbox(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  let removed = 0;
  for (;;) {
    const events = await db.kysely
      .deleteFrom('OutboxEvent')
      .where(
        'Id',
        'in',
        db.kysely
          .selectFrom('OutboxEvent')
          .select('Id')
          .where('Dispatched', '=', 1)
          .where('At', '<', now - OUTBOX_KEEP_MS)
          .limit(PRUNE_ROWS),
      )
      .executeTakeFirst();
    const deliveries = await db.kysely
      .deleteFrom('WebhookDelivery')
      .where(
        'Id',
        'in',
        db.kysely
          .selectFrom('WebhookDelivery')
          .select('Id')
          .where('Status', '!=', 'pending')
          .where('LastAttemptAt', '<', now - DELIVERY_LOG_KEEP_MS)
          .limit(PRUNE_ROWS),
      )
      .executeTakeFirst();
    const step = Number(events.numDeletedRows) + Number(deliveries.numDeletedRows);
    removed += step;
    if (step === 0) return removed;
  }
}

/** Seconds since the oldest event not yet dispatched was stored (0 when none waits): the outbox's age. */
export async function outboxAgeSeconds(db: Db, clock: Clock): Promise<number> {
  const row = await db.kysely
    .selectFrom('OutboxEvent')
    .select((eb) => eb.fn.min<number>('At').as('oldest'))
    .where('Dispatched', '=', 0)
    .executeTakeFirst();
  const oldest = row?.oldest;
  return oldest === null || oldest === undefined ? 0 : Math.max(0, (clock.now() - Number(oldest)) / 1000);
}

/**
 * The loop every instance runs: dispatch, then send what it claimed, every `everyMs`; one pass at a time. The
 * sends of different subscriptions run side by side; a subscription's own deliveries one after another.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      policy: TargetPolicy;
      log?: FastifyBaseLogger;
      metrics?: DeliveryMetrics;
      everyMs?: number;
    },
  ) {}

  start(): void {
    const every = this.deps.everyMs ?? 200;
    const loop = () => {
      if (this.closed) return;
      this.running = this.pass()
        .catch((error: unknown) => this.deps.log?.warn({ err: error }, 'webhooks: a pass failed'))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(loop, every);
        });
    };
    this.timer = setTimeout(loop, every);
  }

  /** One pass: dispatch what waits, send what is due. Answers the outcomes of the attempts made. */
  async pass(): Promise<string[]> {
    const { db, clock, policy, metrics } = this.deps;
    while ((await dispatchEvents(db, clock)) === DISPATCH_BATCH) {
      /* a backlog: the next batch */
    }
    const claimed = await claimDue(db, clock);
    return Promise.all(
      claimed.map(async (delivery) => {
        const result = await sendOnce(policy, delivery.Url, deliveryHeaders(delivery), delivery.Payload);
        const outcome = await recordAttempt(db, clock, delivery, result);
        metrics?.webhookDelivery(outcome);
        return outcome;
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
