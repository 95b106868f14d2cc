import type { AddressInfo } from 'node:net';
import type { ChargePoint } from '@gatehouse/ocpp-simulator';
import { CATALOGUE_EVENT_TYPES, STOP_REASON, displayToCard, type WebhookWithSecret } from '@gatehouse/shared';
import { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { areaTimeZone } from '../src/platform/area-zone.ts';
import { ManualClock, systemClock } from '../src/platform/clock.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './support/harness.ts';
import {
  insertCardVehicles,
  insertChargingHost,
  insertZone,
  plugInAndSwipe,
  simulator,
} from './support/ocpp-charging.ts';
import { WebhookReceiver, waitFor } from './support/webhook-receiver.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

/**
 * Issue 29: what leaves Gatehouse is what its screens show, across a restart. Real device paths only: a WG
 * controller in the simulator (swipes, a door forced open and closed again) through the WG gateway, and a charge
 * point in the OCPP simulator (an ocpp-rpc client: sessions started and stopped, a forced power-off of a running
 * session and of an idle socket) through the app's own OCPP endpoint. Halfway the app is closed and another is
 * built on the same database (a restart), while the controller records a swipe and the charger ends a session,
 * both only told once Gatehouse is back. Then more of the same.
 *
 * A webhook receiver verifies every delivery with the `standardwebhooks` package. At the end every event of the
 * outbox the subscription covers was delivered exactly once (none lost, none twice, across the restart), byte
 * for byte as stored, and each says of its record what the API's list of those records says now (the screens'
 * source): the same card, holder, door, result, reason, times (the instant the controller or the charger gave,
 * at its zone's offset), energy, amounts, stop reason, operator and outcome.
 */
const PATH = '/all';
const OCPP_PASSWORD = 'outward-restart-ocpp-2026';
const CARDS = ['0088001001', '0088001002', '0088001003', '0088001004'];
/** A card no one in the demo has: refused as unknown (reason 2). */
const UNKNOWN_CARD = 4_000_123;
/** Every list is read over this window around the test (the swipe list's own limit is 61 days). */
const DAY = 86_400_000;

type Data = Record<string, unknown>;

describe.each(childDbKinds)('[%s] Outward events across a restart, as the record lists show them', (kind) => {
  let database: ChildDatabase;
  /** The app's clock: the charger stamps its messages with it, so a session lasts what the test says. */
  const clock = new ManualClock(Date.now());
  const receiver = new WebhookReceiver();
  let port = 0;
  let running: { built: Built; db: Db; wg: WgGateway } | undefined;
  let sim: WgSimulator | undefined;
  let device: { Id: number; SerialNumber: string };
  let cp: ChargePoint | undefined;

  /** An app on the database, listening on the same port every time (the charger reconnects there by itself). */
  async function start(): Promise<{ built: Built; db: Db; wg: WgGateway }> {
    const db = database.open();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SEED: 'demo',
      ADMIN_PASSWORD,
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
    await built.app.listen({ port, host: '127.0.0.1' });
    port = (built.app.server.address() as AddressInfo).port;
    // Tests start the WG gateway by hand with test timings, on the app's hub and metrics (as main.ts would).
    const wg = await WgGateway.start({
      db,
      clock: systemClock,
      hub: built.hub,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
      metrics: built.metrics,
    });
    built.platform.seams.doorControllers = wg;
    running = { built, db, wg };
    return running;
  }

  /** A graceful stop, as main.ts does it: the gateways, then the app (its outbox workers), then the database. */
  async function stop(): Promise<void> {
    if (!running) return;
    const { built, db, wg } = running;
    running = undefined;
    delete built.platform.seams.doorControllers;
    await wg.close();
    // As main.ts on SIGINT: the hub's sockets and the charger connections close first, then the app.
    await built.drain(0);
    await built.app.close();
    await db.close();
  }

  beforeAll(async () => {
    await receiver.start();
    database = await childDatabase(kind, 'outward-restart');
    const db = database.open();
    await migrateToLatest(db);
    await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
    // The demo's first WG controller of area 1, simulated in the area's zone, alone in the WG fleet before any
    // gateway starts.
    device = await db.kysely
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    sim = await WgSimulator.start({
      controllers: [{ serial: Number(device.SerialNumber) }],
      timeZone: await areaTimeZone(db.kysely, 1),
    });
    await fleetOfSimulated(db, sim, [device]);
    await db.close();
  }, 120_000);

  afterAll(async () => {
    await cp?.close();
    await stop();
    await sim?.close();
    await database?.drop();
    await receiver.close();
  });

  it('delivers every event once across the restart, each as the record lists show its record', async () => {
    let app = await start();
    const k = () => running!.db.kysely;
    const started = clock.now();
    const window = () => ({
      StartTime: new Date(started - DAY).toISOString(),
      EndTime: new Date(Math.max(Date.now(), clock.now()) + DAY).toISOString(),
    });

    // The gateway's first sync pass confirms the demo's authorisations on the controller, each told as
    // `authorisation.changed`. It is over, and its events dispatched, before the subscription: the dispatcher
    // hands a new subscription what it has not dispatched yet, and the test removes one of those authorisations
    // below straight from the table, so a late confirmation would be an event of a row no list shows.
    const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) =>
      Number((await query.executeTakeFirstOrThrow()).n);
    await waitFor(
      'the first sync pass over and its events dispatched',
      async () =>
        (await count(
          k()
            .selectFrom('CardUserLinkChannel')
            .select(sql<number>`count(*)`.as('n'))
            .where('DeviceId', '=', device.Id)
            .where('IssueStatus', 'in', [-1, 1, 2]),
        )) === 0 &&
        (await count(
          k()
            .selectFrom('OutboxEvent')
            .select(sql<number>`count(*)`.as('n'))
            .where('Dispatched', '=', 0),
        )) === 0,
      30_000,
    );

    // ---- the subscription: every type of the catalogue in area 1 ------------------------------------------
    const admin = await login(app.built.app, 'admin', ADMIN_PASSWORD);
    const hook = await call<WebhookWithSecret>(app.built.app, 'POST', '/api/Webhook', {
      token: admin,
      body: { Url: receiver.url(PATH), AreaIds: [1], Events: CATALOGUE_EVENT_TYPES },
    });
    expect(hook.status, hook.msg).toBe(200);
    receiver.expect(PATH, hook.data.Secret);
    // What the outbox held before the subscription is not the subscription's (the webhook worker sends what
    // was written after it was made).
    const mark = Number(
      (
        await k()
          .selectFrom('OutboxEvent')
          .select(sql<number>`coalesce(max("Id"), 0)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

    // ---- the controller (simulated since beforeAll): door 1, and a holder granted there ----------------------
    const serial = Number(device.SerialNumber);
    const channel = await k()
      .selectFrom('AccessControlChannel')
      .select(['Id'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 1)
      .orderBy('Direction')
      .executeTakeFirstOrThrow();
    // A holder valid now with a card, granted on door 1 afresh (so the sync writes the controller's cards).
    const now = Date.now();
    const holder = await k()
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'CardUser.Name', 'Card.CardNumber'])
      .where('CardUser.AreaId', '=', 1)
      .where('CardUser.Disabled', '=', 0)
      .where('CardUser.ValidFrom', '<=', now - DAY)
      .where('CardUser.ValidTo', '>=', now + 30 * DAY)
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    await k()
      .deleteFrom('CardUserLinkChannel')
      .where('CardUserId', '=', holder.Id)
      .where('ChannelId', '=', channel.Id)
      .execute();
    const acToken = await login(app.built.app, 'acadmin', DEMO_PASSWORD);
    const granted = await call(app.built.app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token: acToken,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [channel.Id] },
    });
    expect(granted.status, granted.msg).toBe(200);
    await waitFor(
      'the controller configured and the grant on it',
      async () => {
        const state = await k()
          .selectFrom('AccessControlDeviceState')
          .select('ListenerAddress')
          .where('DeviceId', '=', device.Id)
          .executeTakeFirst();
        const auth = await k()
          .selectFrom('CardUserLinkChannel')
          .select('IssueStatus')
          .where('CardUserId', '=', holder.Id)
          .where('ChannelId', '=', channel.Id)
          .executeTakeFirst();
        return !!state?.ListenerAddress && auth?.IssueStatus === 3;
      },
      30_000,
    );

    /** Wall-clock instants of what the test did at the controller, to check the stored instants against. */
    const acted: { what: string; at: number }[] = [];
    const holderCard = displayToCard(holder.CardNumber);
    const swipes = () =>
      k()
        .selectFrom('DoorOpeningRecord')
        .select(sql<number>`count(*)`.as('n'))
        .where('DeviceId', '=', device.Id)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const doorShown = async (token: string) => {
      const monitor = await call<{ Doors: Data[] }>(running!.built.app, 'GET', '/api/DoorMonitor', {
        token,
        area: 1,
      });
      return monitor.data.Doors.find((d) => d.DeviceId === device.Id && d.DoorNumber === 1)!;
    };
    /** Swipes (granted, unknown card), then door 1 forced open and closed again, each waited for. */
    async function atTheDoor(token: string, label: string) {
      let before = await swipes();
      acted.push({ what: `${label} granted`, at: Date.now() });
      sim!.swipe(serial, holderCard, 1);
      acted.push({ what: `${label} unknown`, at: Date.now() });
      sim!.swipe(serial, UNKNOWN_CARD, 1);
      await waitFor(`${label}: two swipes stored`, async () => (await swipes()) >= before + 2, 10_000);
      before = await swipes();
      acted.push({ what: `${label} forced`, at: Date.now() });
      sim!.forceDoor(serial, 1);
      await waitFor(`${label}: door 1 forced`, async () => (await doorShown(token)).State === 5, 10_000);
      acted.push({ what: `${label} closed`, at: Date.now() });
      sim!.setDoorSensor(serial, 1, false);
      await waitFor(`${label}: door 1 closed`, async () => (await doorShown(token)).State === 1, 10_000);
      await waitFor(`${label}: the door's records`, async () => (await swipes()) >= before + 2, 10_000);
    }
    await atTheDoor(acToken, 'before');

    // ---- the charger: a zone and an OCPP host of our own in area 1, the simulator connected ---------------
    const zoneRow = await insertZone(k(), {
      name: 'Outward restart zone',
      now: clock.now(),
      rule: { name: 'Outward restart tariff', unitPriceCents: 150, freeMinutes: 0 },
    });
    const host = await insertChargingHost(app.db, {
      zoneId: zoneRow.id,
      serial: 'OUTWARD-RESTART-1',
      now: clock.now(),
      password: OCPP_PASSWORD,
    });
    await insertCardVehicles(
      k(),
      CARDS.map((card, i) => ({ card, plate: `沪E${i}0001`, owner: `Rider ${i + 1}` })),
      clock.now(),
    );
    cp = simulator({
      url: `ws://127.0.0.1:${port}/ocpp`,
      serial: host.serial,
      password: OCPP_PASSWORD,
      now: () => clock.now(),
    });
    await cp.goOnline();
    await waitFor('boot accepted', () => cp!.bootStatus === 'Accepted', 10_000);
    const bikeToken = await login(app.built.app, 'bikeadmin', DEMO_PASSWORD);
    const session = (socketId: number) =>
      k()
        .selectFrom('ChargeRecord')
        .select(['Id', 'EndAt'])
        .where('ChargeEquipmentId', '=', socketId)
        .orderBy('Id', 'desc')
        .executeTakeFirst();
    const ended = (socketId: number, id: number) =>
      waitFor(
        `session ${id} ended`,
        async () => {
          const s = await session(socketId);
          return s?.Id === id && s.EndAt !== null;
        },
        15_000,
      );
    async function charge(connector: number, card: string, minutes: number): Promise<number> {
      const start = await plugInAndSwipe(cp!, connector, card, { capacityWh: 2_000, soc: 0.2 });
      expect(start.status).toBe('Accepted');
      clock.advance(minutes * 60_000);
      await cp!.advance(minutes * 60);
      return start.transactionId!;
    }

    // A session started and stopped at the socket.
    const s1 = await charge(1, CARDS[0]!, 20);
    await cp.stop(1);
    await ended(host.sockets[0]!, s1);
    // A session cut by a forced power-off: sent, then confirmed by the charger's stop report.
    const s2 = await charge(2, CARDS[1]!, 10);
    const cut = await call<Data>(app.built.app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: bikeToken,
      area: 1,
      body: { ChargeEquipmentId: host.sockets[1]!, ChargeRecordId: s2, Reason: 'smoke at bay 2' },
    });
    expect(cut.status, cut.msg).toBe(200);
    await ended(host.sockets[1]!, s2);
    // A session that runs across the restart, stopped while Gatehouse is away.
    const s3 = await charge(3, CARDS[2]!, 5);

    // ---- the restart: Gatehouse stops; meanwhile the controller and the charger go on -------------------------
    await stop();
    acted.push({ what: 'while away granted', at: Date.now() });
    sim!.swipe(serial, holderCard, 1);
    await waitFor('the charger sees Gatehouse gone', () => !cp!.online, 10_000);
    clock.advance(2 * 60_000);
    // The charger queues its messages while Gatehouse is away (each settles once sent, after the restart).
    const away = Promise.all([cp.advance(120), cp.stop(3)]);
    expect(cp.queued).toBeGreaterThan(0);
    app = await start();
    await away;
    const ac2 = await login(app.built.app, 'acadmin', DEMO_PASSWORD);
    const bike2 = await login(app.built.app, 'bikeadmin', DEMO_PASSWORD);
    await waitFor('the charger back, its stop report in', () => cp!.queued === 0, 20_000);
    await ended(host.sockets[2]!, s3);
    await waitFor(
      'the swipe made while away collected',
      async () =>
        !!(await k()
          .selectFrom('DoorOpeningRecord')
          .select('Id')
          .where('DeviceId', '=', device.Id)
          .where('At', '>=', acted.at(-1)!.at - 2_000)
          .where('CardNumber', '=', holder.CardNumber)
          .executeTakeFirst()),
      15_000,
    );

    // ---- more after the restart ---------------------------------------------------------------------------------
    await atTheDoor(ac2, 'after');
    const s4 = await charge(4, CARDS[3]!, 15);
    await cp.stop(4);
    await ended(host.sockets[3]!, s4);
    // An idle socket switched off (no session: the charger makes it Inoperative, "power cut" at once).
    const idleCut = await call<Data>(app.built.app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: bike2,
      area: 1,
      body: { ChargeEquipmentId: host.sockets[0]!, Reason: 'relay check' },
    });
    expect(idleCut.status, idleCut.msg).toBe(200);

    // ---- every event of the subscription delivered, once ------------------------------------------------------
    const outbox = async () =>
      (
        await k()
          .selectFrom('OutboxEvent')
          .select(['Id', 'Type', 'AreaId', 'Payload', 'Dispatched'])
          .where('Id', '>', mark)
          .orderBy('Id')
          .execute()
      ).filter((r) => r.AreaId === 1);
    await waitFor(
      'every event dispatched and delivered',
      async () => {
        const rows = await outbox();
        const delivered = await k()
          .selectFrom('WebhookDelivery')
          .select(sql<number>`count(*)`.as('n'))
          .where('WebhookId', '=', hook.data.Id)
          .where('Status', '!=', 'delivered')
          .executeTakeFirstOrThrow();
        return (
          rows.every((r) => Number(r.Dispatched) === 1) &&
          Number(delivered.n) === 0 &&
          receiver.on(PATH).length >= rows.length
        );
      },
      30_000,
    );
    // Time for a duplicate to show up, were one to be sent.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.unverified).toEqual([]);
    const got = receiver.on(PATH);
    expect(got.every((r) => r.answered === 200)).toBe(true);
    // None lost: every event of area 1 written since the subscription has its delivery. None twice: no webhook-id
    // arrived twice. Each delivered in the order stored, byte for byte what the outbox holds.
    const deliveries = await k()
      .selectFrom('WebhookDelivery')
      .select(['EventId'])
      .where('WebhookId', '=', hook.data.Id)
      .orderBy('EventId')
      .execute();
    const deliveredIds = deliveries.map((d) => Number(d.EventId));
    expect(deliveredIds).toEqual(expect.arrayContaining((await outbox()).map((r) => r.Id)));
    expect(new Set(got.map((r) => r.id)).size, 'a webhook-id delivered twice').toBe(got.length);
    expect(got).toHaveLength(deliveredIds.length);
    const rows = await k()
      .selectFrom('OutboxEvent')
      .select(['Id', 'Payload'])
      .where('Id', 'in', deliveredIds.length ? deliveredIds : [0])
      .orderBy('Id')
      .execute();
    expect(got.map((r) => r.payload)).toEqual(rows.map((r) => JSON.parse(r.Payload)));
    const events = got.map((r) => r.payload);
    const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    /** The last event of each record of a type (earlier ones told what it was then). */
    const lastOf = (type: string) => {
      const byId = new Map<unknown, Data>();
      for (const data of ofType(type)) byId.set(data.Id, data);
      return byId;
    };
    const AREA = { AreaId: 1, AreaName: expect.any(String) };

    // ---- swipes: as the swipe list shows them, at the instant the controller recorded ---------------------------
    const swipeList = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/DoorOpeningRecord', {
      token: ac2,
      area: 1,
      query: { DeviceId: device.Id, PageSize: 100, ...window() },
    });
    expect(swipeList.status, swipeList.msg).toBe(200);
    const swipeEvents = events.filter((e) => e.type === 'swipe.recorded');
    const ours = swipeEvents.filter((e) => e.data.DeviceId === device.Id);
    expect(ours.length).toBeGreaterThanOrEqual(9);
    for (const event of swipeEvents) {
      const shown = swipeList.data.Items.find((i) => i.Id === event.data.Id);
      expect(shown, `swipe ${String(event.data.Id)} in the list`).toBeDefined();
      expect(event.data).toEqual({ ...shown, ...AREA });
      expect(event.timestamp).toBe(event.data.At);
    }
    const granted3 = ours.filter((e) => e.data.CardNumber === holder.CardNumber && e.data.EventType === 1);
    expect(granted3.map((e) => [e.data.Result, e.data.Reason, e.data.HolderName, e.data.ChannelId])).toEqual(
      Array(3).fill([true, 1, holder.Name, channel.Id]),
    );
    const unknown = ours.filter((e) => e.data.CardValue === UNKNOWN_CARD);
    expect(unknown.map((e) => [e.data.Result, e.data.Reason, e.data.CardUserId])).toEqual(
      Array(2).fill([false, 2, null]),
    );
    const forcedRecords = ours.filter((e) => e.data.EventType === 3 && e.data.EventReason === 38);
    expect(forcedRecords).toHaveLength(2);
    // The controller's local time read at its zone's offset: each record is the instant the test acted.
    const actedAt = (what: string) => acted.find((a) => a.what === what)!.at;
    const instants: [string, Data | undefined][] = [
      ['before granted', granted3[0]?.data],
      ['while away granted', granted3[1]?.data],
      ['after granted', granted3[2]?.data],
      ['before unknown', unknown[0]?.data],
      ['after unknown', unknown[1]?.data],
      ['before forced', forcedRecords[0]?.data],
      ['after forced', forcedRecords[1]?.data],
    ];
    for (const [what, data] of instants) {
      // Records carry whole seconds of the controller's clock.
      const off = Date.parse(String(data?.At)) - actedAt(what);
      expect(Math.abs(off), `${what}: stored ${String(data?.At)}, off by ${off} ms`).toBeLessThan(1_500);
    }

    // ---- the door: its states in order, the last as the door monitor shows it; the alarms as listed -----------
    const doorStates = ofType('door.state').filter((d) => d.DeviceId === device.Id && d.DoorNumber === 1);
    const states = doorStates.map((d) => d.State);
    // Forced (5), then closed (1), twice; whatever else the controller's reports showed in between.
    expect(states.filter((s, i) => s === 5 && states.indexOf(1, i) > i)).toHaveLength(2);
    expect(doorStates.at(-1)).toEqual({ ...(await doorShown(ac2)), ...AREA });
    const alarmList = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/DoorAlarm', {
      token: ac2,
      area: 1,
      query: { DeviceId: device.Id, PageSize: 100, ...window() },
    });
    expect(alarmList.status, alarmList.msg).toBe(200);
    const raised = ofType('door.alarm.raised').filter((d) => d.DeviceId === device.Id);
    expect(raised.filter((d) => d.Kind === 1)).toHaveLength(2);
    for (const data of raised) {
      const shown = alarmList.data.Items.find((i) => i.Id === data.Id)!;
      expect(shown, `alarm ${String(data.Id)} in the list`).toBeDefined();
      // Raised: what the list says of the alarm, before the door closed it (ClearedAt) or anyone acknowledged it.
      expect(data).toEqual({
        ...shown,
        ...AREA,
        State: 0,
        ClearedAt: null,
        LastAt: data.LastAt,
        Count: data.Count,
        Detail: data.Detail,
      });
      expect(shown.ClearedAt, 'the closed door cleared it').not.toBeNull();
    }

    // ---- the authorisations the sync confirmed: the last event of each as the authorisation list shows it ----
    for (const [id, data] of lastOf('authorisation.changed')) {
      const page = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/CardUserLinkChannel', {
        token: ac2,
        area: 1,
        query: { CardUserId: Number(data.CardUserId), ChannelId: Number(data.ChannelId) },
      });
      const shown = page.data.Items.find((i) => i.Id === id);
      expect(shown, `authorisation ${String(id)} in the list`).toBeDefined();
      expect(data).toEqual({ ...shown, ...AREA, Change: data.Change });
    }
    // The holder's own: granted (pending issue), then updated when the controller confirmed it (issue succeeded).
    expect(
      ofType('authorisation.changed')
        .filter((d) => d.CardUserId === holder.Id && d.ChannelId === channel.Id)
        .map((d) => [d.Change, d.IssueStatus]),
    ).toEqual([
      ['granted', 1],
      ['updated', 3],
    ]);

    // ---- charging: sessions, orders and power-offs as their lists show them ------------------------------------
    const records = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/ChargeRecord', {
      token: bike2,
      area: 1,
      query: { ChargeHostId: host.id, PageSize: 100, ...window() },
    });
    expect(records.status, records.msg).toBe(200);
    const startedEvents = ofType('charging.session.started').filter((d) => d.ChargeHostId === host.id);
    const endedEvents = ofType('charging.session.ended').filter((d) => d.ChargeHostId === host.id);
    expect(startedEvents.map((d) => d.Id)).toEqual([s1, s2, s3, s4]);
    expect(endedEvents.map((d) => d.Id)).toEqual([s1, s2, s3, s4]);
    for (const data of endedEvents) {
      const shown = records.data.Items.find((i) => i.Id === data.Id)!;
      expect(shown, `session ${String(data.Id)} in the list`).toBeDefined();
      const { Holder: who, ...session } = data;
      expect(session).toEqual({ ...shown, ...AREA });
      const card = String(shown.CardNumber);
      expect(who).toMatchObject({
        Plate: `沪E${CARDS.indexOf(card)}0001`,
        Name: `Rider ${CARDS.indexOf(card) + 1}`,
      });
    }
    for (const data of startedEvents) {
      const shown = records.data.Items.find((i) => i.Id === data.Id)!;
      // Started: the same session as it began (where, which card, when, its order), before it ran.
      for (const field of [
        'ChargeEquipmentId',
        'PortNumber',
        'ChargeHostId',
        'HostName',
        'ParkAreaId',
        'ZoneName',
        'CardNumber',
        'StartAt',
        'ChargeOrderId',
        'OrderNo',
      ])
        expect(data[field], `session ${String(data.Id)} started: ${field}`).toEqual(shown[field]);
      expect(data).toMatchObject({ Open: true, EndAt: null, StopReason: null });
    }
    // The instants the charger gave: start and stop as the test's clock stood (the one stopped while away too).
    const byId = new Map(records.data.Items.map((i) => [i.Id, i]));
    const minutes = (id: number) =>
      (Date.parse(String(byId.get(id)!.EndAt)) - Date.parse(String(byId.get(id)!.StartAt))) / 60_000;
    expect([s1, s2, s3, s4].map(minutes)).toEqual([20, 10, 7, 15]);
    expect(byId.get(s2)).toMatchObject({ StopReason: STOP_REASON.forcedPowerOff });
    expect([s1, s3, s4].map((id) => byId.get(id)!.StopReason)).toEqual(Array(3).fill(STOP_REASON.byUser));

    const orders = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/ChargeOrder', {
      token: bike2,
      area: 1,
      query: { ChargeHostId: host.id, PageSize: 100, ...window() },
    });
    expect(orders.status, orders.msg).toBe(200);
    const settled = ofType('order.settled').filter((d) => d.ChargeHostId === host.id);
    expect(settled.map((d) => d.ChargeRecordId)).toEqual([s1, s2, s3, s4]);
    for (const data of settled) {
      const { Actions: _actions, ...shown } = orders.data.Items.find((i) => i.Id === data.Id)!;
      expect(data).toEqual({ ...shown, Kind: 'ChargeOrder', ...AREA });
      // The amount the session's own event carries, and a real one (metered at ¥1.50/kWh, nothing free).
      expect(endedEvents.find((e) => e.Id === data.ChargeRecordId)!.AmountCents).toBe(data.AmountCents);
      expect(Number(data.AmountCents)).toBeGreaterThan(0);
    }

    const powerOffs = await call<{ Items: Data[] }>(app.built.app, 'GET', '/api/ForcedOutageRecord', {
      token: bike2,
      area: 1,
      lang: 'en',
      query: { ChargeHostId: host.id, PageSize: 100, ...window() },
    });
    expect(powerOffs.status, powerOffs.msg).toBe(200);
    const offEvents = ofType('socket.power_off').filter((d) => d.ChargeHostId === host.id);
    expect([...new Set(offEvents.map((d) => d.Id))]).toEqual([cut.data.Id, idleCut.data.Id]);
    for (const [id, data] of lastOf('socket.power_off')) {
      if (data.ChargeHostId !== host.id) continue;
      const shown = powerOffs.data.Items.find((i) => i.Id === id)!;
      expect(shown, `power-off ${String(id)} in the list`).toBeDefined();
      // The last word on each power-off is what its list says now: the session's cut confirmed, power cut (1).
      expect(data).toEqual({ ...shown, ...AREA });
      expect(data).toMatchObject({ Result: 1 });
    }
    // The running session's power-off: answered "sent, not confirmed" (3), then told again as cut (1) by the
    // charger's stop report (or cut twice, when the stop report was stored before the answer).
    const told = offEvents.filter((d) => d.Id === cut.data.Id).map((d) => d.Result);
    expect(told).toHaveLength(2);
    expect(told[1]).toBe(1);
    expect(powerOffs.data.Items.find((i) => i.Id === cut.data.Id)).toMatchObject({
      ChargeRecordId: s2,
      UserName: 'bikeadmin',
      Reason: 'smoke at bay 2',
    });
  }, 240_000);
});
