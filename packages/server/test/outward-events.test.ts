import type { AddressInfo } from 'node:net';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import { displayToCard, type WebhookWithSecret } from '@gatehouse/shared';
import { WgSimulator } from '@gatehouse/wg-simulator';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { WebhookReceiver, waitFor } from './support/webhook-receiver.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

/**
 * Issue 29, must show 3: a swipe at a simulated WG controller and a forced power-off at a simulated OCPP charge
 * point reach a webhook receiver (verified with standardwebhooks) and an MQTT subscriber (Mosquitto at
 * 127.0.0.1:1883) within 2 s, with the values the swipe list and the power-off list show.
 */
const MQTT_URL = 'mqtt://127.0.0.1:1883';

describeEachDb(
  'Outward events: webhooks and MQTT',
  (h) => {
    const receiver = new WebhookReceiver();
    let subscriber: MqttClient;
    const messages: {
      topic: string;
      payload: { type: string; data: Record<string, unknown> };
      at: number;
    }[] = [];
    let admin: string;

    beforeAll(async () => {
      await receiver.start();
      admin = await login(h().app, 'admin', ADMIN_PASSWORD);
      subscriber = await mqtt.connectAsync(MQTT_URL, { clientId: `gh-test-${process.pid}-${Date.now()}` });
      subscriber.on('message', (topic, payload) =>
        messages.push({ topic, payload: JSON.parse(payload.toString('utf8')), at: Date.now() }),
      );
      await subscriber.subscribeAsync('gatehouse/+/swipe.recorded', { qos: 1 });
      await subscriber.subscribeAsync('gatehouse/+/socket.power_off', { qos: 1 });
    });
    afterAll(async () => {
      await subscriber?.endAsync(true);
      await receiver.close();
    });

    async function subscribe(path: string, areaId: number, events: string[]) {
      const reply = await call<WebhookWithSecret>(h().app, 'POST', '/api/Webhook', {
        token: admin,
        body: { Url: receiver.url(path), AreaIds: [areaId], Events: events },
      });
      expect(reply.status, reply.msg).toBe(200);
      receiver.expect(path, reply.data.Secret);
    }

    it('a swipe at a simulated controller reaches the receiver and the broker within 2 s, as the swipe list shows it', async () => {
      const k = h().db.kysely;
      const device = await k
        .selectFrom('AccessControlDevice')
        .select(['Id', 'SerialNumber', 'AreaId'])
        .where('AreaId', '=', 1)
        .where('Protocol', '=', 0)
        .where('Disabled', '=', 0)
        .where('SerialNumber', 'like', '2%')
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      const card = await k
        .selectFrom('Card')
        .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
        .select(['Card.CardNumber', 'CardUser.Name'])
        .where('Card.AreaId', '=', 1)
        .orderBy('Card.Id')
        .executeTakeFirstOrThrow();
      await subscribe('/swipes', 1, ['swipe.recorded']);
      const serial = Number(device.SerialNumber);
      const sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: 'Asia/Shanghai' });
      await fleetOfSimulated(h().db, sim, [device]);
      const gateway = await WgGateway.start({
        db: h().db,
        clock: systemClock,
        hub: h().hub,
        listen: '127.0.0.1:0',
        pollSeconds: 0.2,
        syncSeconds: 0.1,
        driftMinutes: 60,
        backoff: { baseMs: 20, maxMs: 300 },
        driver: { timeoutMs: 40, tries: 3 },
      });
      try {
        await waitFor(
          'the controller configured',
          async () =>
            !!(
              await k
                .selectFrom('AccessControlDeviceState')
                .select('ListenerAddress')
                .where('DeviceId', '=', device.Id)
                .executeTakeFirst()
            )?.ListenerAddress,
          20_000,
        );
        const value = displayToCard(card.CardNumber);
        const mine = (data: Record<string, unknown>) =>
          data.DeviceId === device.Id && data.CardValue === value;
        const swipedAt = Date.now();
        sim.swipe(serial, value, 1);
        await waitFor(
          'the webhook and the MQTT message',
          () =>
            receiver.on('/swipes').some((r) => mine(r.payload.data)) &&
            messages.some((m) => m.payload.type === 'swipe.recorded' && mine(m.payload.data)),
          5_000,
        );
        const took = Date.now() - swipedAt;
        expect(took, `arrived after ${took} ms`).toBeLessThan(2_000);
        const hook = receiver.on('/swipes').find((r) => mine(r.payload.data))!;
        const message = messages.find((m) => m.payload.type === 'swipe.recorded' && mine(m.payload.data))!;
        expect(message.topic).toBe(`gatehouse/1/swipe.recorded`);
        expect(message.payload).toEqual(hook.payload);
        // The values the swipe list shows for the same record.
        const list = await call<{ Items: Record<string, unknown>[] }>(
          h().app,
          'GET',
          '/api/DoorOpeningRecord',
          {
            token: admin,
            area: 1,
            query: { DeviceId: device.Id, PageSize: 5 },
          },
        );
        const shown = list.data.Items.find((i) => i.Id === hook.payload.data.Id)!;
        expect(shown).toBeDefined();
        expect(hook.payload.data).toMatchObject({ ...shown, OpenedBy: null, AreaId: 1 });
        expect(hook.payload.data.HolderName).toBe(card.Name);
        expect(receiver.unverified).toEqual([]);
      } finally {
        await gateway.close();
        await sim.close();
      }
    });

    it('a door opened at a simulated controller is door.state, kept retained: a late subscriber sees it as the door monitor shows it', async () => {
      const k = h().db.kysely;
      const device = await k
        .selectFrom('AccessControlDevice')
        .select(['Id', 'SerialNumber', 'AreaId'])
        .where('AreaId', '=', 1)
        .where('Protocol', '=', 0)
        .where('Disabled', '=', 0)
        .where('SerialNumber', 'like', '2%')
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      const serial = Number(device.SerialNumber);
      const sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: 'Asia/Shanghai' });
      await fleetOfSimulated(h().db, sim, [device]);
      const gateway = await WgGateway.start({
        db: h().db,
        clock: systemClock,
        hub: h().hub,
        listen: '127.0.0.1:0',
        pollSeconds: 0.2,
        syncSeconds: 0.1,
        driftMinutes: 60,
        backoff: { baseMs: 20, maxMs: 300 },
        driver: { timeoutMs: 40, tries: 3 },
      });
      const late = await mqtt.connectAsync(MQTT_URL, { clientId: `gh-door-${process.pid}-${Date.now()}` });
      try {
        await waitFor(
          'the controller configured',
          async () =>
            !!(
              await k
                .selectFrom('AccessControlDeviceState')
                .select('ListenerAddress')
                .where('DeviceId', '=', device.Id)
                .executeTakeFirst()
            )?.ListenerAddress,
          20_000,
        );
        sim.setDoorSensor(serial, 1, true);
        // Stored as open and published: door.state events of this door, every one taken by the broker.
        const doorEvents = () =>
          k
            .selectFrom('OutboxEvent')
            .select(['Id', 'Payload', 'Published'])
            .where('Type', '=', 'door.state')
            .orderBy('Id')
            .execute()
            .then((rows) =>
              rows.filter((r) => {
                const data = (JSON.parse(r.Payload) as { data: { DeviceId: number; DoorNumber: number } })
                  .data;
                return data.DeviceId === device.Id && data.DoorNumber === 1;
              }),
            );
        await waitFor('door 1 open, published', async () => {
          const rows = await doorEvents();
          const last = rows.at(-1);
          return (
            !!last &&
            (JSON.parse(last.Payload) as { data: { Open: boolean } }).data.Open &&
            rows.every((r) => Number(r.Published) === 1)
          );
        });
        const retained: Record<string, unknown>[] = [];
        late.on('message', (_topic, payload, packet) => {
          if (packet.retain) retained.push(JSON.parse(payload.toString('utf8')));
        });
        await late.subscribeAsync(`gatehouse/1/state/door/${device.Id}-1`, { qos: 1 });
        await waitFor('the retained door state', () => retained.length > 0, 2_000);
        const monitor = await call<{ Doors: Record<string, unknown>[] }>(h().app, 'GET', '/api/DoorMonitor', {
          token: admin,
          area: 1,
        });
        const shown = monitor.data.Doors.find((d) => d.DeviceId === device.Id && d.DoorNumber === 1)!;
        expect(shown.State).toBe(2);
        expect(retained.at(-1)).toEqual({ ...shown, AreaId: 1, AreaName: expect.any(String) });
      } finally {
        await late.endAsync(true);
        await gateway.close();
        await sim.close();
      }
    });

    it('a forced power-off reaches the receiver and the broker within 2 s, as the power-off list shows it', async () => {
      await h().app.listen({ port: 0, host: '127.0.0.1' });
      const port = (h().app.server.address() as AddressInfo).port;
      const k = h().db.kysely;
      const host = await k
        .selectFrom('ChargeHost')
        .select(['Id', 'SerialNumber', 'AreaId'])
        .where('ChargingSystemType', '=', 2)
        .where('Disabled', '=', 0)
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      await subscribe('/power', host.AreaId, ['socket.power_off']);
      await setOcppPassword(h().db, host.Id, 'outward-ocpp-password');
      const cp = new ChargePoint({
        url: `ws://127.0.0.1:${port}/ocpp`,
        id: host.SerialNumber,
        password: 'outward-ocpp-password',
        connectors: 2,
        timers: false,
        now: () => h().clock.now(),
      });
      try {
        await cp.goOnline();
        await waitFor('boot accepted', () => cp.bootStatus === 'Accepted', 10_000);
        const socket = await k
          .selectFrom('ChargeEquipment')
          .select('Id')
          .where('ChargeHostId', '=', host.Id)
          .where('PortNumber', '<=', 2)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('ChargeRecord')
                  .select('Id')
                  .whereRef('ChargeRecord.ChargeEquipmentId', '=', 'ChargeEquipment.Id')
                  .where('EndAt', 'is', null),
              ),
            ),
          )
          .orderBy('PortNumber')
          .executeTakeFirstOrThrow();
        const token = await login(h().app, 'bikeadmin', DEMO_PASSWORD);
        const started = Date.now();
        const cut = await call<Record<string, unknown>>(
          h().app,
          'POST',
          '/api/ChargeEquipment/ForcedPowerOff',
          {
            token,
            area: host.AreaId,
            lang: 'en',
            body: { ChargeEquipmentId: socket.Id, Reason: 'fire drill' },
          },
        );
        expect(cut.status, cut.msg).toBe(200);
        const mine = (data: Record<string, unknown>) => data.Id === cut.data.Id;
        await waitFor(
          'the webhook and the MQTT message',
          () =>
            receiver.on('/power').some((r) => mine(r.payload.data)) &&
            messages.some((m) => m.payload.type === 'socket.power_off' && mine(m.payload.data)),
          5_000,
        );
        const took = Date.now() - started;
        expect(took, `arrived after ${took} ms`).toBeLessThan(2_000);
        const hook = receiver.on('/power').find((r) => mine(r.payload.data))!;
        const message = messages.find((m) => m.payload.type === 'socket.power_off' && mine(m.payload.data))!;
        expect(message.topic).toBe(`gatehouse/${host.AreaId}/socket.power_off`);
        expect(message.payload).toEqual(hook.payload);
        // What the operator's answer (the power-off list's item) shows: socket, operator, reason, outcome.
        expect(hook.payload.data).toMatchObject({ ...cut.data, AreaId: host.AreaId });
        expect(hook.payload.data).toMatchObject({ Reason: 'fire drill', UserName: 'bikeadmin', Result: 1 });
        expect(receiver.unverified).toEqual([]);

        // The charger's status reports are socket.state events; MQTT keeps each socket's last one retained, so a
        // subscriber arriving now sees the socket's present state at once, as the socket list shows it.
        const shown = async () =>
          (
            await call<{ State: number }>(h().app, 'GET', `/api/ChargeEquipment/${socket.Id}`, {
              token,
              area: host.AreaId,
            })
          ).data.State;
        const late = await mqtt.connectAsync(MQTT_URL, { clientId: `gh-late-${process.pid}-${Date.now()}` });
        try {
          const retained: { State: number; Id: number; PreviousState: number }[] = [];
          late.on('message', (_topic, payload, packet) => {
            if (packet.retain) retained.push(JSON.parse(payload.toString('utf8')));
          });
          const topic = `gatehouse/${host.AreaId}/state/socket/${socket.Id}`;
          await waitFor('a socket.state published', async () => {
            const row = await k
              .selectFrom('OutboxEvent')
              .select('Id')
              .where('Type', '=', 'socket.state')
              .where('Published', '=', 1)
              .executeTakeFirst();
            return !!row;
          });
          await waitFor('the state settled', async () => {
            const row = await k
              .selectFrom('OutboxEvent')
              .select('Id')
              .where('Published', '!=', 1)
              .where('Type', '=', 'socket.state')
              .executeTakeFirst();
            return !row;
          });
          await late.subscribeAsync(topic, { qos: 1 });
          await waitFor('the retained state', () => retained.length > 0, 2_000);
          expect(retained.at(-1)!.Id).toBe(socket.Id);
          expect(retained.at(-1)!.State).toBe(await shown());
        } finally {
          await late.endAsync(true);
        }
      } finally {
        await cp.close();
      }
    });
  },
  { WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32', MQTT_URL },
);
