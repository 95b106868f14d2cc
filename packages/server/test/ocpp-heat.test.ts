import {
  STOP_REASON,
  type ChargeEquipmentGrid,
  type ChargeHostItem,
  type HeatAlarmItem,
  type ParkAreaItem,
} from '@gatehouse/shared';
import type { ChargePoint } from '@gatehouse/ocpp-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hottestTemperature, readTemperature } from '../src/gateways/ocpp/protocol.ts';
import { auditRows, garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';
import {
  insertCardVehicles,
  insertChargingHost,
  insertZone,
  listenForChargers,
  plugInAndSwipe,
  simulatorOnline,
  strictClient,
  until,
  type Client,
} from './support/ocpp-charging.ts';

/**
 * Issue 30, "Heat" (docs/garage.md and docs/chargers.md "Heat"): a charger's Temperature above its zone's
 * MaxTemperatureC, or its HighTemperature fault, puts its host in heat alarm: every session there is stopped
 * with the stop reason "over temperature" and its order settled, new starts are refused (StartTransaction
 * Blocked, remote start 409) until an operator clears the alarm with a note. Strict OCPP 1.6J clients (ocpp-rpc
 * in strict mode, and the simulator, itself one) play the chargers.
 */
const PASSWORD = 'ocpp-heat-password-2026';
const CARDS = ['0088001101', '0088001102', '0088001103', '0088001104', '0088001105', '0088001106'];

describe('Temperature samples (OCPP 1.6 UnitOfMeasure)', () => {
  const sample = (value: string, unit?: string, extra: Record<string, string> = {}) =>
    ({ value, measurand: 'Temperature', ...(unit ? { unit } : {}), ...extra }) as never;

  it('reads Celsius by default, converts Fahrenheit and kelvin, and skips what is not a temperature', () => {
    expect(readTemperature(sample('61.5'))).toBe(61.5);
    expect(readTemperature(sample('61.5', 'Celsius'))).toBe(61.5);
    // The 1.6 schema also lists the misspelling.
    expect(readTemperature(sample('61.5', 'Celcius'))).toBe(61.5);
    expect(readTemperature(sample('140', 'Fahrenheit'))).toBeCloseTo(60, 10);
    expect(readTemperature(sample('333.15', 'K'))).toBeCloseTo(60, 10);
    expect(readTemperature(sample('61', 'Wh'))).toBeUndefined();
    expect(readTemperature(sample('hot'))).toBeUndefined();
    expect(readTemperature(sample('61', undefined, { format: 'SignedData' }))).toBeUndefined();
    expect(readTemperature({ value: '61', measurand: 'Power.Active.Import' } as never)).toBeUndefined();
  });

  it('takes the hottest sample of a MeterValues, with its location and time', () => {
    const now = Date.parse('2026-11-01T08:00:00Z');
    const hottest = hottestTemperature(
      [
        {
          timestamp: '2026-11-01T07:59:00Z',
          sampledValue: [
            sample('40', 'Celsius', { location: 'Body' }),
            { value: '1200', measurand: 'Energy.Active.Import.Register', unit: 'Wh' } as never,
          ],
        },
        {
          timestamp: '2026-11-01T07:59:30Z',
          sampledValue: [sample('158', 'Fahrenheit', { location: 'EV' })],
        },
      ],
      now,
    );
    expect(hottest).toEqual({ temperatureC: 70, location: 'EV', at: Date.parse('2026-11-01T07:59:30Z') });
    expect(
      hottestTemperature([{ timestamp: '2026-11-01T07:59:00Z', sampledValue: [] }], now),
    ).toBeUndefined();
  });
});

/** A strict charger whose answers the test decides; it remembers the RemoteStopTransactions it received. */
interface Charger {
  client: Client;
  serial: string;
  remoteStops: number[];
  /** Start a transaction on a connector with a card: the central system's answer. */
  start(
    connectorId: number,
    idTag: string,
  ): Promise<{ idTagInfo: { status: string }; transactionId: number }>;
  meter(connectorId: number, transactionId: number | undefined, samples: object[]): Promise<unknown>;
  status(connectorId: number, status: string, errorCode?: string): Promise<unknown>;
}

describeEachDb('OCPP heat: over-temperature alarm of a charging host', (h: () => Harness) => {
  let url = '';
  let admin = '';
  let user = '';
  const open: Client[] = [];
  const points: ChargePoint[] = [];
  const failures: unknown[] = [];
  const k = () => h().db.kysely;
  let cardIndex = 0;

  const record = (id: number) =>
    k().selectFrom('ChargeRecord').selectAll().where('Id', '=', id).executeTakeFirstOrThrow();
  const order = (recordId: number) =>
    k()
      .selectFrom('ChargeOrder')
      .selectAll()
      .where('ChargeRecordId', '=', recordId)
      .executeTakeFirstOrThrow();

  /** A zone with the given heat limit and a metered charging rule, and a charging-API host of 4 sockets in it. */
  async function makeHost(limit: number | null) {
    const now = h().clock.now();
    const tag = Math.random().toString(36).slice(2, 8);
    const zone = await insertZone(k(), {
      name: `Heat ${tag}`,
      maxTemperatureC: limit,
      now,
      rule: { name: `Heat rule ${tag}`, freeMinutes: 0 },
    });
    const serial = `HEAT${tag.toUpperCase()}`.replace(/[^A-Z0-9]/g, '');
    const host = await insertChargingHost(h().db, { zoneId: zone.id, serial, now, password: PASSWORD });
    return { ...host, zoneId: zone.id };
  }

  /**
   * Connects a strict client for the host and boots it. `stopAnswers` say what it answers to each
   * RemoteStopTransaction in turn (then Accepted); an accepted one is followed by its StopTransaction.
   */
  async function charger(serial: string, stopAnswers: string[] = []): Promise<Charger> {
    const client = strictClient(url, serial, PASSWORD);
    client.on('strictValidationFailure', (e: unknown) => failures.push(e));
    const remoteStops: number[] = [];
    const registers = new Map<number, number>();
    // The configuration pass after boot: nothing to configure here.
    client.handle('GetConfiguration', async () => ({ configurationKey: [] }));
    client.handle('ChangeConfiguration', async () => ({ status: 'NotSupported' }));
    client.handle('RemoteStopTransaction', async ({ params }) => {
      const { transactionId } = params as { transactionId: number };
      remoteStops.push(transactionId);
      const status = stopAnswers.shift() ?? 'Accepted';
      if (status === 'Accepted')
        setImmediate(() => {
          void client
            .call('StopTransaction', {
              transactionId,
              meterStop: registers.get(transactionId) ?? 1000,
              timestamp: new Date(h().clock.now()).toISOString(),
              reason: 'Remote',
            })
            .catch((error: unknown) => failures.push(error));
        });
      return { status };
    });
    open.push(client);
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-H' });
    const iso = () => new Date(h().clock.now()).toISOString();
    return {
      client,
      serial,
      remoteStops,
      async start(connectorId, idTag) {
        const conf = (await client.call('StartTransaction', {
          connectorId,
          idTag,
          meterStart: 1000,
          timestamp: iso(),
        })) as { idTagInfo: { status: string }; transactionId: number };
        if (conf.transactionId) registers.set(conf.transactionId, 1000);
        return conf;
      },
      meter(connectorId, transactionId, samples) {
        const register = samples.find(
          (s) => (s as { measurand?: string }).measurand === 'Energy.Active.Import.Register',
        ) as { value: string } | undefined;
        if (transactionId && register) registers.set(transactionId, Number(register.value));
        return client.call('MeterValues', {
          connectorId,
          ...(transactionId !== undefined ? { transactionId } : {}),
          meterValue: [{ timestamp: iso(), sampledValue: samples }],
        });
      },
      status(connectorId, status, errorCode = 'NoError') {
        return client.call('StatusNotification', { connectorId, status, errorCode, timestamp: iso() });
      },
    };
  }

  const nextCard = () => CARDS[cardIndex++ % CARDS.length]!;
  const temperature = (value: string, unit: string, location = 'Body') => ({
    value,
    measurand: 'Temperature',
    unit,
    location,
  });
  const register = (wh: number) => ({
    value: String(wh),
    measurand: 'Energy.Active.Import.Register',
    unit: 'Wh',
  });

  const hostItem = async (id: number) => {
    const reply = await call<ChargeHostItem>(h().app, 'GET', `/api/ChargeHost/${id}`, {
      token: user,
      area: 1,
    });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  };
  const clear = (hostId: number, note: unknown, token = admin, area = 1, lang = 'en') =>
    call<HeatAlarmItem>(h().app, 'POST', '/api/ChargeHost/ClearAlarm', {
      token,
      area,
      lang,
      body: { Id: hostId, ...(note === undefined ? {} : { Note: note }) },
    });
  const outbox = (type: string) =>
    k()
      .selectFrom('OutboxEvent')
      .select(['Type', 'Payload'])
      .where('Type', '=', type)
      .orderBy('Id')
      .execute()
      .then((rows) =>
        rows.map((r) => JSON.parse(r.Payload) as { data: HeatAlarmItem & { AreaName: string } }),
      );

  beforeAll(async () => {
    url = await listenForChargers(h().app);
    ({ admin, user } = await garageTokens(h()));
    // One vehicle per card: a card charges one bike at a time.
    await insertCardVehicles(
      k(),
      CARDS.map((card, i) => ({ card, plate: `浙A9H${String(i).padStart(3, '0')}`, owner: null })),
      h().clock.now(),
    );
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close({ force: true })));
    vi.restoreAllMocks();
    expect(failures).toEqual([]);
  });

  afterAll(async () => {
    await Promise.all(points.map((p) => p.close()));
  });

  it('a temperature over the limit stops the host\'s sessions "over temperature", settles their orders, and refuses starts until cleared with a note', async () => {
    const host = await makeHost(60);
    const published = vi.spyOn(h().hub, 'publish');
    const c = await charger(host.serial);
    const first = await c.start(1, nextCard());
    const second = await c.start(2, nextCard());
    expect([first.idTagInfo.status, second.idTagInfo.status]).toEqual(['Accepted', 'Accepted']);

    // 45 °C in a transaction: below the limit, nothing happens.
    await c.meter(1, first.transactionId, [register(1100), temperature('45', 'Celsius', 'Outlet')]);
    expect((await hostItem(host.id)).HeatAlarm).toBeNull();

    // The charger's body at 158 °F = 70 °C, on connector 0: above the zone's 60 °C.
    h().clock.advance(60_000);
    await c.meter(2, second.transactionId, [register(1150)]);
    await c.meter(0, undefined, [temperature('158', 'Fahrenheit')]);
    await until(async () => (await record(first.transactionId)).EndAt !== null);
    await until(async () => (await record(second.transactionId)).EndAt !== null);
    expect(c.remoteStops.sort()).toEqual([first.transactionId, second.transactionId].sort());
    for (const tx of [first, second]) {
      expect((await record(tx.transactionId)).StopReason).toBe(STOP_REASON.overTemperature);
      // The order is settled as every stopped session's is: priced, with its end.
      const settled = await order(tx.transactionId);
      expect(settled.SettledAt).not.toBeNull();
      expect(settled.AmountCents).not.toBeNull();
    }
    expect(Number((await order(first.transactionId)).AmountCents)).toBe(12); // 100 Wh at ¥1.20/kWh
    const stopAudit = (await auditRows(h(), 'ChargeRecord', first.transactionId)).find(
      (a) => a.Action === 'safetyStop',
    );
    expect(JSON.parse(stopAudit!.After!)).toMatchObject({
      StopReason: STOP_REASON.overTemperature,
      HeatTrigger: 'temperature',
      TemperatureC: 70,
      LimitC: 60,
    });

    const alarm = (await hostItem(host.id)).HeatAlarm!;
    expect(alarm).toMatchObject({
      ChargeHostId: host.id,
      ParkAreaId: host.zoneId,
      Trigger: 'temperature',
      TemperatureC: 70,
      LimitC: 60,
      ConnectorId: 0,
      Location: 'Body',
      ClearedAt: null,
    });
    expect(alarm.Sessions.map((s) => [s.ChargeRecordId, s.PortNumber])).toEqual([
      [first.transactionId, 1],
      [second.transactionId, 2],
    ]);
    // The grid shows it over the host's sockets; the browsers heard it; the outbox carries it outward.
    const grid = await call<ChargeEquipmentGrid>(h().app, 'GET', '/api/ChargeEquipment/Grid', {
      token: user,
      area: 1,
      query: { ChargeHostId: host.id },
    });
    expect(grid.data.Host.HeatAlarm?.Id).toBe(alarm.Id);
    expect(published).toHaveBeenCalledWith(
      1,
      expect.objectContaining({ Type: 'HeatAlarm', HostId: host.id, InAlarm: true }),
    );
    const [raised] = (await outbox('charger.heat_alarm.raised')).filter((e) => e.data.Id === alarm.Id);
    expect(raised!.data).toMatchObject({
      AreaId: 1,
      TemperatureC: 70,
      LimitC: 60,
      ZoneName: expect.any(String),
    });
    expect(raised!.data.Sessions.map((s) => s.ChargeRecordId)).toEqual([
      first.transactionId,
      second.transactionId,
    ]);
    const raiseAudit = (await auditRows(h(), 'ChargeHost', host.id)).find((a) => a.Action === 'heatAlarm');
    expect(JSON.parse(raiseAudit!.After!)).toMatchObject({ HeatTrigger: 'temperature', TemperatureC: 70 });

    // Still hot: the alarm keeps the latest reading, and nothing more is raised.
    h().clock.advance(30_000);
    await c.meter(0, undefined, [temperature('340', 'K')]);
    const kept = (await hostItem(host.id)).HeatAlarm!;
    expect(kept.Id).toBe(alarm.Id);
    expect(kept.LastTemperatureC).toBe(66.9);

    // No start while in alarm: the charger's own start is Blocked, the operator's remote start refused.
    const refused = await c.start(3, nextCard());
    expect(refused).toEqual({ idTagInfo: { status: 'Blocked' }, transactionId: 0 });
    const remote = await call(h().app, 'POST', '/api/ChargeEquipment/RemoteStart', {
      token: user,
      area: 1,
      lang: 'en',
      body: { ChargeEquipmentId: host.sockets[2], CardNumber: CARDS[5] },
    });
    expect(remote.status).toBe(409);
    expect(remote.msg).toBe(
      'The charging host is in over-temperature alarm: no charging starts until the alarm is cleared',
    );

    // Clearing needs a note, the Admin code, and the host's own area.
    expect((await clear(host.id, undefined)).status).toBe(400);
    expect((await clear(host.id, '   ')).status).toBe(400);
    expect((await clear(host.id, '已检查', user)).status).toBe(403);
    expect((await clear(host.id, '已检查', user, 2)).status).toBe(403);
    expect((await clear(host.id, '已检查', admin, 2)).status).toBe(404);
    expect((await hostItem(host.id)).HeatAlarm).not.toBeNull();

    h().clock.advance(10 * 60_000);
    const cleared = await clear(host.id, '现场检查：风扇故障已更换');
    expect(cleared.status, cleared.msg).toBe(200);
    expect(cleared.data).toMatchObject({
      Id: alarm.Id,
      ClearedAt: new Date(h().clock.now()).toISOString(),
      ClearedBy: '冯志伟',
      Note: '现场检查：风扇故障已更换',
    });
    expect((await hostItem(host.id)).HeatAlarm).toBeNull();
    const clearAudit = (await auditRows(h(), 'ChargeHost', host.id)).find(
      (a) => a.Action === 'clearHeatAlarm',
    );
    expect(clearAudit!.UserName).toBe('bikeadmin');
    expect(JSON.parse(clearAudit!.After!)).toMatchObject({ Note: '现场检查：风扇故障已更换' });
    expect(JSON.parse(clearAudit!.Before!)).toMatchObject({ HeatTrigger: 'temperature', TemperatureC: 70 });
    const [clearedEvent] = (await outbox('charger.heat_alarm.cleared')).filter((e) => e.data.Id === alarm.Id);
    expect(clearedEvent!.data).toMatchObject({ Note: '现场检查：风扇故障已更换', LimitC: 60 });
    expect(published).toHaveBeenCalledWith(
      1,
      expect.objectContaining({ Type: 'HeatAlarm', HostId: host.id, InAlarm: false }),
    );

    // Cleared: a second clear is 409 with the catalogued message, and sessions start again.
    const again = await clear(host.id, 'twice');
    expect(again.status).toBe(409);
    expect(again.msg).toBe('This charging host has no over-temperature alarm to clear');
    expect((await clear(host.id, 'twice', admin, 1, 'zh')).msg).toBe('该充电主机没有需要解除的过温报警');
    const restarted = await c.start(3, nextCard());
    expect(restarted.idTagInfo.status).toBe('Accepted');
    await c.client.call('StopTransaction', {
      transactionId: restarted.transactionId,
      meterStop: 1000,
      timestamp: new Date(h().clock.now()).toISOString(),
    });
  });

  it('a HighTemperature fault puts the host in alarm whatever the limit: its sessions stop, starts are Blocked until cleared', async () => {
    const host = await makeHost(null);
    const c = await charger(host.serial);
    const running = await c.start(1, nextCard());
    expect(running.idTagInfo.status).toBe('Accepted');
    // A warning with a working status counts: heat is never a mere warning in a garage.
    await c.status(2, 'Available', 'HighTemperature');
    await until(async () => (await record(running.transactionId)).EndAt !== null);
    expect((await record(running.transactionId)).StopReason).toBe(STOP_REASON.overTemperature);
    expect((await order(running.transactionId)).SettledAt).not.toBeNull();
    expect((await hostItem(host.id)).HeatAlarm).toMatchObject({
      Trigger: 'fault',
      TemperatureC: null,
      LimitC: null,
      ConnectorId: 2,
      Location: null,
    });
    // A second fault report while open raises nothing more.
    await c.status(0, 'Faulted', 'HighTemperature');
    const alarms = await k()
      .selectFrom('ChargeHostHeatAlarm')
      .select('Id')
      .where('ChargeHostId', '=', host.id)
      .execute();
    expect(alarms).toHaveLength(1);

    expect((await c.start(3, nextCard())).idTagInfo.status).toBe('Blocked');
    expect((await clear(host.id, 'Charger replaced')).status).toBe(200);
    const after = await c.start(3, nextCard());
    expect(after.idTagInfo.status).toBe('Accepted');
    await c.client.call('StopTransaction', {
      transactionId: after.transactionId,
      meterStop: 1000,
      timestamp: new Date(h().clock.now()).toISOString(),
    });
  });

  it('below the limit, or in a zone without one, nothing happens; clearing without an alarm is 409', async () => {
    const limited = await makeHost(60);
    const free = await makeHost(null);
    const a = await charger(limited.serial);
    const b = await charger(free.serial);
    const tx = await a.start(1, nextCard());
    // 59.9 °C and 333 K (59.85 °C): at most the limit; the pack's 60 °C exactly: not above it.
    await a.meter(1, tx.transactionId, [register(1050), temperature('59.9', 'Celsius', 'EV')]);
    await a.meter(0, undefined, [temperature('333', 'K')]);
    await a.meter(1, tx.transactionId, [register(1060), temperature('60', 'Celsius', 'EV')]);
    // No limit: even 90 °C raises nothing (only the charger's own HighTemperature would).
    await b.meter(0, undefined, [temperature('90', 'Celsius')]);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.remoteStops).toEqual([]);
    expect((await record(tx.transactionId)).EndAt).toBeNull();
    expect((await hostItem(limited.id)).HeatAlarm).toBeNull();
    expect((await hostItem(free.id)).HeatAlarm).toBeNull();
    const other = await b.start(1, nextCard());
    expect(other.idTagInfo.status).toBe('Accepted');

    const none = await clear(limited.id, 'nothing to clear');
    expect(none.status).toBe(409);
    expect(none.msg).toBe('This charging host has no over-temperature alarm to clear');
    for (const [client, id] of [
      [a, tx.transactionId],
      [b, other.transactionId],
    ] as const)
      await client.client.call('StopTransaction', {
        transactionId: id,
        meterStop: 1060,
        timestamp: new Date(h().clock.now()).toISOString(),
      });
  });

  it('a stop the charger refuses is asked again at its next reading while the alarm is open', async () => {
    const host = await makeHost(55);
    const c = await charger(host.serial, ['Rejected']);
    const tx = await c.start(1, nextCard());
    await c.meter(1, tx.transactionId, [register(1200), temperature('57.5', 'Celsius', 'EV')]);
    await until(() => c.remoteStops.length === 1);
    // Refused: released, the session runs on.
    await until(async () => (await record(tx.transactionId)).StopRequest === null);
    expect((await record(tx.transactionId)).EndAt).toBeNull();
    // The next reading of the transaction (cooler now, the alarm still open) asks again: accepted, it stops.
    await c.meter(1, tx.transactionId, [register(1210), temperature('50', 'Celsius', 'EV')]);
    await until(async () => (await record(tx.transactionId)).EndAt !== null);
    expect(c.remoteStops).toEqual([tx.transactionId, tx.transactionId]);
    expect((await record(tx.transactionId)).StopReason).toBe(STOP_REASON.overTemperature);
    expect((await hostItem(host.id)).HeatAlarm).toMatchObject({ TemperatureC: 57.5, LastTemperatureC: 50 });
    expect((await clear(host.id, 'ok')).status).toBe(200);
  });

  it("takes a zone's limit through the zone API, within a sane range; absent keeps it, null removes it", async () => {
    const body = { Name: `Heat zone ${Math.random().toString(36).slice(2, 7)}`, Capacity: 20 };
    const make = (extra: object) =>
      call<ParkAreaItem>(h().app, 'POST', '/api/ParkArea', {
        token: admin,
        area: 1,
        body: { ...body, ...extra },
      });
    expect((await make({ MaxTemperatureC: 29 })).status).toBe(400);
    expect((await make({ MaxTemperatureC: 121 })).status).toBe(400);
    expect((await make({ MaxTemperatureC: 55.5 })).status).toBe(400);
    const made = await make({ MaxTemperatureC: 55 });
    expect(made.status, made.msg).toBe(200);
    expect(made.data.MaxTemperatureC).toBe(55);
    const put = (extra: object) =>
      call<ParkAreaItem>(h().app, 'PUT', '/api/ParkArea', {
        token: admin,
        area: 1,
        body: { Id: made.data.Id, ...body, ...extra },
      });
    expect((await put({})).data.MaxTemperatureC).toBe(55);
    expect((await put({ MaxTemperatureC: 70 })).data.MaxTemperatureC).toBe(70);
    expect((await put({ MaxTemperatureC: null })).data.MaxTemperatureC).toBeNull();
    // The User code reads it, and may not set it.
    expect(
      (
        await call(h().app, 'PUT', '/api/ParkArea', {
          token: user,
          area: 1,
          body: { Id: made.data.Id, ...body, MaxTemperatureC: 60 },
        })
      ).status,
    ).toBe(403);
  });

  it('the simulator meters Temperature once configured, and made to overheat puts its host in alarm', async () => {
    const host = await makeHost(60);
    const cp = await simulatorOnline(
      { url, serial: host.serial, password: PASSWORD, now: () => h().clock.now(), temperature: true },
      points,
    );
    // Gatehouse's configuration pass at boot adds Temperature to what it meters.
    await until(() => cp.configuration.measurands().has('Temperature'));
    const started = await plugInAndSwipe(cp, 1, nextCard(), { soc: 0.3 });
    expect(started.status).toBe('Accepted');
    h().clock.advance(60_000);
    await cp.advance(60);
    expect((await hostItem(host.id)).HeatAlarm).toBeNull();

    expect(await cp.overheat(85)).toEqual({ reported: true });
    await until(async () => (await record(started.transactionId!)).EndAt !== null);
    expect((await record(started.transactionId!)).StopReason).toBe(STOP_REASON.overTemperature);
    expect((await hostItem(host.id)).HeatAlarm).toMatchObject({
      Trigger: 'temperature',
      TemperatureC: 85,
      ConnectorId: 0,
      Location: 'Body',
    });
    expect((await plugInAndSwipe(cp, 2, nextCard(), { soc: 0.3 })).status).toBe('Blocked');
    await cp.overheat(null);
    expect((await clear(host.id, 'Cooled down, checked')).status).toBe(200);
    await cp.unplug(1);
    await cp.unplug(2);
  });
});
