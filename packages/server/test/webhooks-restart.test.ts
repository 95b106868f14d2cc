import { displayToCard, type WebhookWithSecret } from '@gatehouse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { recordSwipes } from '../src/modules/access-control/index.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';
import { WebhookReceiver, waitFor } from './support/webhook-receiver.ts';

/**
 * Issue 29, the outbox across a restart: what was stored while the instance was stopping or stopped (a delivery
 * answered 500 and waiting for its retry, an event not yet dispatched) is delivered by the instance that starts
 * on the same database, once each, the retry with the webhook-id of its first attempt, and every event with the
 * values the swipe list shows for its record after the restart.
 */
describe.each(childDbKinds)('[%s] Webhooks across a restart', (kind) => {
  let database: ChildDatabase;
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
  const receiver = new WebhookReceiver();
  const opened: { built?: Built; db: Db }[] = [];

  async function start(): Promise<{ built: Built; db: Db }> {
    const db = database.open();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SEED: 'demo',
      ADMIN_PASSWORD,
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
    const instance = { built, db };
    opened.push(instance);
    return instance;
  }

  async function stop(instance: { built?: Built; db: Db }): Promise<void> {
    await instance.built?.app.close();
    instance.built = undefined;
    await instance.db.close();
  }

  beforeAll(async () => {
    await receiver.start();
    database = await childDatabase(kind, 'webhooks-restart');
    const first = database.open();
    await migrateToLatest(first);
    await seedIfEmpty(first, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
    await first.close();
  }, 60_000);

  afterAll(async () => {
    for (const instance of opened) if (instance.built) await stop(instance);
    await database?.drop();
    await receiver.close();
  });

  it('delivers after a restart what waited, once, with the values the list shows', async () => {
    const a = await start();
    const admin = await login(a.built.app, 'admin', ADMIN_PASSWORD);
    const made = await call<WebhookWithSecret>(a.built.app, 'POST', '/api/Webhook', {
      token: admin,
      body: { Url: receiver.url('/restart'), AreaIds: [1], Events: ['swipe.recorded'] },
    });
    expect(made.status, made.msg).toBe(200);
    receiver.expect('/restart', made.data.Secret);

    const k = a.db.kysely;
    const card = await k
      .selectFrom('Card')
      .select('CardNumber')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 1)
      .where('Type', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const swipe = (db: Db, n: number, result: boolean) =>
      recordSwipes(db.kysely, [
        {
          SerialNumber: device.SerialNumber,
          DoorNumber: 1,
          Direction: 1,
          CardValue: displayToCard(card.CardNumber),
          At: clock.now() - 60_000 + n,
          Result: result,
          Reason: result ? 1 : 6,
        },
      ]);

    // 1: delivered before the stop. 2: answered 500, its retry due 5 s later, when the instance has stopped.
    const [first] = await swipe(a.db, 1, true);
    await waitFor('the first delivery', () => receiver.on('/restart').length === 1);
    receiver.answer('/restart', 500);
    const [second] = await swipe(a.db, 2, false);
    await waitFor('the refused attempt', () => receiver.on('/restart').length === 2);
    await stop(a);

    // 3: stored while no instance runs (a gateway's last batch committed during the stop).
    const between = database.open();
    const [third] = await swipe(between, 3, true);
    await between.close();
    expect(receiver.on('/restart')).toHaveLength(2);

    // The restart, after the retry came due.
    clock.advance(6_000);
    const b = await start();
    await waitFor('the retry and the waiting event', () => receiver.on('/restart').length >= 4, 10_000);
    // Time for a duplicate to show up, if the restarted instance were to send one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const got = receiver.on('/restart');
    expect(receiver.unverified).toEqual([]);
    expect(got.map((r) => [r.payload.data.Id, r.answered])).toEqual([
      [first, 200],
      [second, 500],
      [second, 200],
      [third, 200],
    ]);
    expect(got[2]!.id).toBe(got[1]!.id);
    expect(new Set([got[0]!.id, got[1]!.id, got[3]!.id]).size).toBe(3);

    // Each delivered event as the swipe list shows its record, read on the restarted instance.
    const token = await login(b.built.app, 'admin', ADMIN_PASSWORD);
    const list = await call<{ Items: Record<string, unknown>[] }>(
      b.built.app,
      'GET',
      '/api/DoorOpeningRecord',
      {
        token,
        area: 1,
        query: { DeviceId: device.Id, PageSize: 20 },
      },
    );
    expect(list.status, list.msg).toBe(200);
    for (const delivered of [got[0]!, got[2]!, got[3]!]) {
      const shown = list.data.Items.find((i) => i.Id === delivered.payload.data.Id);
      expect(shown, `record ${String(delivered.payload.data.Id)} in the list`).toBeDefined();
      expect(delivered.payload.data).toMatchObject({ ...shown, AreaId: 1 });
    }
    const log = await call<{ Items: { Status: string; Attempts: unknown[] }[] }>(
      b.built.app,
      'GET',
      '/api/WebhookDelivery',
      { token, query: { WebhookId: made.data.Id, PageSize: 10 } },
    );
    expect(log.data.Items.map((d) => [d.Status, d.Attempts.length]).sort()).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 2],
    ]);
  }, 60_000);
});
