import { sql, type Kysely } from 'kysely';
import { withId, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/**
 * The transactional outbox and webhook subscriptions (issue 29, platform/outbox): every event of the catalogue
 * is written to OutboxEvent in the transaction of the change it reports; the webhook dispatcher fans each one
 * out to the subscriptions that want it (WebhookDelivery, one row per event and subscription, its log of
 * attempts in it) and marks it dispatched; the MQTT publisher marks it published. Two flags, not one cursor
 * each: on PostgreSQL ids are taken before commit, so an event with a lower id can commit after a higher one a
 * cursor has passed; a flag per row never skips it.
 */
export const outboxMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await withId(db.schema.createTable('OutboxEvent'), ctx)
      .addColumn('Type', 'text', (c) => c.notNull())
      .addColumn('AreaId', 'integer', (c) => c.notNull())
      .addColumn('At', 'bigint', (c) => c.notNull())
      .addColumn('Payload', 'text', (c) => c.notNull())
      .addColumn('Dispatched', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Published', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`create index "OutboxEvent_Dispatched" on "OutboxEvent" ("Dispatched", "Id")`.execute(db);
    await sql`create index "OutboxEvent_Published" on "OutboxEvent" ("Published", "Id")`.execute(db);
    await sql`create index "OutboxEvent_At" on "OutboxEvent" ("At")`.execute(db);

    await withId(db.schema.createTable('Webhook'), ctx)
      .addColumn('Url', 'text', (c) => c.notNull())
      .addColumn('AreaIds', 'text', (c) => c.notNull())
      .addColumn('Events', 'text', (c) => c.notNull())
      .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('DisabledReason', 'text')
      .addColumn('Secret', 'text', (c) => c.notNull())
      .addColumn('FailingSince', 'bigint')
      .addColumn('CreatedByName', 'text', (c) => c.notNull())
      .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
      .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('WebhookDelivery'), ctx)
      .addColumn('WebhookId', 'integer', (c) => c.notNull().references('Webhook.Id').onDelete('cascade'))
      .addColumn('EventId', 'integer', (c) => c.notNull())
      .addColumn('MessageId', 'text', (c) => c.notNull())
      .addColumn('Type', 'text', (c) => c.notNull())
      .addColumn('EventAt', 'bigint', (c) => c.notNull())
      .addColumn('Payload', 'text', (c) => c.notNull())
      .addColumn('Status', 'text', (c) => c.notNull())
      .addColumn('Attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('Log', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('NextAttemptAt', 'bigint', (c) => c.notNull())
      .addColumn('ClaimedUntil', 'bigint')
      .addColumn('LastAttemptAt', 'bigint')
      .addColumn('LastStatusCode', 'integer')
      .addColumn('LastResponseMs', 'integer')
      .addColumn('LastError', 'text')
      .addColumn('DeliveredAt', 'bigint')
      .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
      .execute();
    await sql`create index "WebhookDelivery_Queue" on "WebhookDelivery" ("WebhookId", "Status", "EventId")`.execute(
      db,
    );
    await sql`create index "WebhookDelivery_EventAt" on "WebhookDelivery" ("WebhookId", "EventAt")`.execute(
      db,
    );
  },
};
