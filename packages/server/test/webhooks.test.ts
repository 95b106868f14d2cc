import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  displayToCard,
  type WebhookDeliveryItem,
  type WebhookItem,
  type WebhookWithSecret,
} from '@gatehouse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { recordSwipe } from '../src/modules/access-control/index.ts';
import { TargetPolicy } from '../src/platform/outbox/target.ts';
import { ATTEMPT_TIMEOUT_MS, sendOnce } from '../src/platform/outbox/webhooks.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';
import { WebhookReceiver, waitFor } from './support/webhook-receiver.ts';

/**
 * Issue 29, webhooks: deliveries after the Standard Webhooks specification, verified by a receiver on
 * 127.0.0.1 with the `standardwebhooks` package; retries with the same webhook-id until a 2xx, marked
 * delivered once; replay with the same id; a target outside WEBHOOK_ALLOW_NETWORKS refused before anything is
 * sent; a subscription failing for a day disabled and shown so. Three instances: webhooks-cluster.test.ts.
 */
describeEachDb(
  'Webhooks',
  (h) => {
    const receiver = new WebhookReceiver();
    let admin: string;

    beforeAll(async () => {
      await receiver.start();
      admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    });
    afterAll(() => receiver.close());

    async function subscribe(path: string, events = ['swipe.recorded']): Promise<WebhookWithSecret> {
      const reply = await call<WebhookWithSecret>(h().app, 'POST', '/api/Webhook', {
        token: admin,
        body: { Url: receiver.url(path), AreaIds: [1], Events: events },
      });
      expect(reply.status, reply.msg).toBe(200);
      receiver.expect(path, reply.data.Secret);
      return reply.data;
    }

    async function swipe(): Promise<number> {
      const k = h().db.kysely;
      const card = await k
        .selectFrom('Card')
        .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
        .select(['Card.CardNumber'])
        .where('Card.AreaId', '=', 1)
        .orderBy('Card.Id')
        .executeTakeFirstOrThrow();
      const device = await k
        .selectFrom('AccessControlDevice')
        .select(['SerialNumber'])
        .where('AreaId', '=', 1)
        .where('Type', '=', 2)
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      return recordSwipe(k, {
        SerialNumber: device.SerialNumber,
        DoorNumber: 1,
        Direction: 1,
        CardValue: displayToCard(card.CardNumber),
        At: h().clock.now() - 1_000,
        Result: true,
        Reason: 1,
      });
    }

    const deliveries = async (webhookId: number) =>
      (
        await call<{ Items: WebhookDeliveryItem[] }>(h().app, 'GET', '/api/WebhookDelivery', {
          token: admin,
          query: { WebhookId: webhookId, PageSize: 100 },
        })
      ).data.Items;

    it('the secret is whsec_ and base64, shown at creation only, and the list never holds it', async () => {
      const hook = await subscribe('/secret');
      expect(hook.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(hook.State).toBe('active');
      expect(hook.Areas).toEqual([{ Id: 1, Name: expect.any(String) }]);
      const list = await call(h().app, 'GET', '/api/Webhook', { token: admin, query: { PageSize: 100 } });
      expect(JSON.stringify(list.data)).not.toContain(hook.Secret.slice(6));
      const detail = await call(h().app, 'GET', `/api/Webhook/${hook.Id}`, { token: admin });
      expect(JSON.stringify(detail.data)).not.toContain(hook.Secret.slice(6));
      const rotated = await call<WebhookWithSecret>(h().app, 'POST', '/api/Webhook/RotateSecret', {
        token: admin,
        query: { Id: hook.Id },
      });
      expect(rotated.status).toBe(200);
      expect(rotated.data.Secret).toMatch(/^whsec_/);
      expect(rotated.data.Secret).not.toBe(hook.Secret);
      await call(h().app, 'DELETE', `/api/Webhook/${hook.Id}`, { token: admin });
      // The operation log names who made, rotated and deleted it, never a secret.
      const log = await h()
        .db.kysely.selectFrom('AuditLog')
        .select(['Action', 'UserName', 'Before', 'After'])
        .where('Entity', '=', 'Webhook')
        .where('EntityId', '=', String(hook.Id))
        .orderBy('Id')
        .execute();
      expect(log.map((r) => r.Action)).toEqual(['create', 'rotateSecret', 'delete']);
      expect(log.every((r) => r.UserName === 'admin')).toBe(true);
      const text = JSON.stringify(log);
      expect(text).toContain('/secret');
      expect(text).not.toContain(hook.Secret.slice(6));
      expect(text).not.toContain(rotated.data.Secret.slice(6));
    });

    it('answered 500 twice then 200: the same webhook-id three times, every one verified, delivered once', async () => {
      const hook = await subscribe('/retry');
      receiver.answer('/retry', 500, 500);
      const recordId = await swipe();
      // Retries wait 5 s, then 20 s (exponential): once an attempt is recorded, the clock moves past its delay.
      const recorded = (n: number) =>
        waitFor(`attempt ${n} recorded`, async () => (await deliveries(hook.Id))[0]?.Attempts.length === n);
      await recorded(1);
      h().clock.advance(5_000);
      await recorded(2);
      h().clock.advance(20_000);
      await waitFor('the third attempt', () => receiver.on('/retry').length >= 3);
      const got = receiver.on('/retry');
      expect(got.map((r) => r.answered)).toEqual([500, 500, 200]);
      expect(new Set(got.map((r) => r.id)).size).toBe(1);
      expect(got[0]!.type).toBe('swipe.recorded');
      expect(got[0]!.payload.data).toMatchObject({ Id: recordId, AreaId: 1, Result: true });
      expect(receiver.unverified).toEqual([]);
      await waitFor('the delivery marked delivered', async () =>
        (await deliveries(hook.Id)).some((d) => d.Status === 'delivered'),
      );
      const [delivery] = await deliveries(hook.Id);
      expect(delivery).toMatchObject({ Status: 'delivered', MessageId: got[0]!.id, LastStatusCode: 200 });
      expect(delivery!.Attempts.map((a) => a.StatusCode)).toEqual([500, 500, 200]);
      expect(delivery!.Attempts[0]!.Error).toBe('HTTP 500');
      // Delivered: nothing more is sent, however long we wait.
      h().clock.advance(3_600_000);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(receiver.on('/retry')).toHaveLength(3);

      // Replay of the one delivery: the same id again.
      const replay = await call<{ Replayed: number }>(h().app, 'POST', '/api/WebhookDelivery/Replay', {
        token: admin,
        body: { Id: delivery!.Id },
      });
      expect(replay.data.Replayed).toBe(1);
      await waitFor('the replay', () => receiver.on('/retry').length >= 4);
      expect(receiver.on('/retry')[3]!.id).toBe(got[0]!.id);
      // Replay of a time range (the event's instant inside it).
      const at = Date.parse(delivery!.EventAt);
      const range = await call<{ Replayed: number }>(h().app, 'POST', '/api/WebhookDelivery/Replay', {
        token: admin,
        body: { WebhookId: hook.Id, StartTime: at - 1, EndTime: at + 1 },
      });
      expect(range.data.Replayed).toBe(1);
      await waitFor('the range replay', () => receiver.on('/retry').length >= 5);
      expect(receiver.on('/retry')[4]!.id).toBe(got[0]!.id);
      expect(receiver.unverified).toEqual([]);
      await call(h().app, 'DELETE', `/api/Webhook/${hook.Id}`, { token: admin });
    });

    it('a loopback address WEBHOOK_ALLOW_NETWORKS leaves out is refused with a clear message, nothing sent', async () => {
      const before = receiver.received.length;
      for (const lang of ['en', 'zh']) {
        const reply = await call(h().app, 'POST', '/api/Webhook', {
          token: admin,
          lang,
          body: { Url: receiver.url('/outside', '127.0.0.2'), AreaIds: [1], Events: ['swipe.recorded'] },
        });
        expect(reply.status).toBe(400);
        expect(reply.msg).toContain('127.0.0.2');
        expect(reply.msg).toContain('WEBHOOK_ALLOW_NETWORKS');
      }
      const link = await call(h().app, 'POST', '/api/Webhook', {
        token: admin,
        lang: 'en',
        body: { Url: 'http://169.254.169.254/latest', AreaIds: [1], Events: ['swipe.recorded'] },
      });
      expect(link.status).toBe(400);
      expect(link.msg).toContain('169.254.169.254');
      const count = await h().db.kysely.selectFrom('Webhook').select('Url').execute();
      expect(count.map((w) => w.Url).filter((u) => u.includes('127.0.0.2') || u.includes('169.254'))).toEqual(
        [],
      );
      expect(receiver.received.length).toBe(before);
    });

    it('a subscription whose deliveries fail for a day is disabled and shown as failing', async () => {
      const hook = await subscribe('/down');
      receiver.answer('/down', ...Array<number>(100).fill(503));
      await swipe();
      await waitFor('the first attempt', () => receiver.on('/down').length >= 1);
      // Each retry's delay passes, for a day and more.
      for (let i = 0; i < 14; i++) {
        const n = receiver.on('/down').length;
        await waitFor(`attempt ${n} recorded`, async () => {
          const [row] = await deliveries(hook.Id);
          return row!.Attempts.length === n;
        });
        h().clock.advance(4 * 3_600_000);
        await waitFor(`attempt ${n + 1}`, async () => {
          const [row] = await deliveries(hook.Id);
          return receiver.on('/down').length > n || row!.Status === 'failed';
        });
        const [row] = await deliveries(hook.Id);
        if (row!.Status === 'failed') break;
      }
      const [row] = await deliveries(hook.Id);
      expect(row!.Status).toBe('failed');
      const shown = await call<WebhookItem>(h().app, 'GET', `/api/Webhook/${hook.Id}`, { token: admin });
      expect(shown.data).toMatchObject({ State: 'failing', Disabled: true });
      expect(shown.data.FailingSince).not.toBeNull();
      // Disabled: a new event is not delivered to it.
      const before = receiver.on('/down').length;
      await swipe();
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(receiver.on('/down').length).toBe(before);
    });
  },
  { WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32' },
);

describe('WEBHOOK_ALLOW_NETWORKS and MQTT_URL', () => {
  const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env });

  it('reads CIDRs (IPv4 and IPv6, a bare address as one host) and names the variable on a bad one', () => {
    expect(load({}).webhookAllowNetworks).toEqual([]);
    expect(
      load({ WEBHOOK_ALLOW_NETWORKS: '10.20.0.0/16, 192.168.1.10, fd00::/8' }).webhookAllowNetworks,
    ).toEqual([
      { address: '10.20.0.0', prefix: 16, family: 'ipv4' },
      { address: '192.168.1.10', prefix: 32, family: 'ipv4' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
    for (const bad of ['10.0.0.0/33', 'example.com/8', '10.0.0.0/8/1', 'fd00::/129', '10.0.0.0/x'])
      expect(() => load({ WEBHOOK_ALLOW_NETWORKS: bad }), bad).toThrow(/WEBHOOK_ALLOW_NETWORKS/);
    expect(load({ MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqttUrl).toBe('mqtt://127.0.0.1:1883');
    expect(() => load({ MQTT_URL: 'http://broker' })).toThrow(/MQTT_URL/);
  });

  it('refuses private, loopback and link-local addresses unless an allowed network holds them', () => {
    const none = new TargetPolicy([]);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ])
      expect(none.permits(address), address).toBe(false);
    for (const address of ['93.184.216.34', '2606:2800:220:1::1'])
      expect(none.permits(address), address).toBe(true);
    const some = new TargetPolicy(
      load({ WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32,10.20.0.0/16' }).webhookAllowNetworks,
    );
    expect(some.permits('127.0.0.1')).toBe(true);
    expect(some.permits('127.0.0.2')).toBe(false);
    expect(some.permits('10.20.5.6')).toBe(true);
    expect(some.permits('10.21.0.1')).toBe(false);
  });
});

describe('one attempt', () => {
  const policy = new TargetPolicy([{ address: '127.0.0.1', prefix: 32, family: 'ipv4' }]);

  it('does not follow a redirect: a failure naming it, nothing sent to its target', async () => {
    let followed = 0;
    const target = createServer((_q, r) => {
      followed += 1;
      r.end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const redirect = createServer((_q, r) =>
      r.writeHead(302, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` }).end(),
    );
    await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
    try {
      const result = await sendOnce(
        policy,
        `http://127.0.0.1:${(redirect.address() as AddressInfo).port}/hook`,
        {},
        '{}',
      );
      expect(result.statusCode).toBe(302);
      expect(result.error).toMatch(/^redirect not followed/);
      expect(followed).toBe(0);
    } finally {
      redirect.close();
      target.close();
    }
  });

  it('a receiver that never answers holds the attempt 10 s at most', async () => {
    const silent = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const result = await sendOnce(
        policy,
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`,
        {},
        '{}',
      );
      const took = Date.now() - started;
      expect(result).toMatchObject({ statusCode: null, error: 'no answer within 10 s' });
      expect(took).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 100);
      expect(took).toBeLessThan(ATTEMPT_TIMEOUT_MS + 2_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 20_000);

  it('refuses before connecting when the address is outside the allowed networks', async () => {
    const result = await sendOnce(policy, 'http://127.0.0.2:9/hook', {}, '{}');
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain('webhookTargetRefused');
    expect(result.error).toContain('127.0.0.2');
  });
});
