import { displayToCard, type WebhookDeliveryItem, type WebhookWithSecret } from '@gatehouse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { recordSwipes } from '../src/modules/access-control/index.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { childDatabase, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';
import { WebhookReceiver, waitFor } from './support/webhook-receiver.ts';

/**
 * Issue 29: with three instances on one PostgreSQL schema (three apps in one process, each with its own pool,
 * its own webhook worker), every event reaches the receiver once, in the order the events were stored.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

describe.runIf(Boolean(pgUrl))('[postgres] Webhooks across instances', () => {
  let database: ChildDatabase;
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
  const instances: { built: Built; db: Db }[] = [];
  const receiver = new WebhookReceiver();

  async function instance(id: string): Promise<Built> {
    const db = database.open();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SEED: 'demo',
      ADMIN_PASSWORD,
      INSTANCE_ID: id,
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
    instances.push({ built, db });
    return built;
  }

  beforeAll(async () => {
    await receiver.start();
    database = await childDatabase('postgres', 'webhooks');
    const first = database.open();
    await migrateToLatest(first);
    await seedIfEmpty(first, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
    await first.close();
  }, 60_000);

  afterAll(async () => {
    for (const i of instances) {
      await i.built.app.close();
      await i.db.close();
    }
    await database?.drop();
    await receiver.close();
  });

  it('three instances deliver each event once, in order', async () => {
    const a = await instance('hooks-a');
    await instance('hooks-b');
    await instance('hooks-c');
    const admin = await login(a.app, 'admin', ADMIN_PASSWORD);
    const made = await call<WebhookWithSecret>(a.app, 'POST', '/api/Webhook', {
      token: admin,
      body: { Url: receiver.url('/all'), AreaIds: [1], Events: ['swipe.recorded'] },
    });
    expect(made.status, made.msg).toBe(200);
    receiver.expect('/all', made.data.Secret);

    const k = instances[1]!.db.kysely;
    const card = await k
      .selectFrom('Card')
      .select('CardNumber')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select('SerialNumber')
      .where('AreaId', '=', 1)
      .where('Type', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    // 30 swipes stored from the three instances' databases in turn, in ten transactions.
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const db = instances[i % 3]!.db.kysely;
      const stored = await recordSwipes(
        db,
        [0, 1, 2].map((j) => ({
          SerialNumber: device.SerialNumber,
          DoorNumber: 1,
          Direction: 1,
          CardValue: displayToCard(card.CardNumber),
          At: clock.now() - 60_000 + i * 3 + j,
          Result: true,
          Reason: 1,
        })),
      );
      ids.push(...stored);
    }
    await waitFor('30 deliveries', () => receiver.on('/all').length >= 30, 10_000);
    // Time for a duplicate to show up, if any instance were to send one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const got = receiver.on('/all');
    expect(receiver.unverified).toEqual([]);
    expect(got).toHaveLength(30);
    expect(new Set(got.map((r) => r.id)).size).toBe(30);
    expect(got.map((r) => r.payload.data.Id)).toEqual(ids);
    const log = await call<{ Items: WebhookDeliveryItem[] }>(a.app, 'GET', '/api/WebhookDelivery', {
      token: admin,
      query: { WebhookId: made.data.Id, PageSize: 100 },
    });
    expect(log.data.Items).toHaveLength(30);
    expect(log.data.Items.every((d) => d.Status === 'delivered' && d.Attempts.length === 1)).toBe(true);
  }, 30_000);
});
