import type { AddressInfo } from 'node:net';
import { priceSession, type Tariff } from '@gatehouse/shared';
import { beforeAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Db } from '../src/db/database.ts';
import {
  deviceTime,
  latestReadings,
  stopReasonFromOcpp,
  isOcppPath,
  ocppChargerGateway,
  setOcppPassword,
  type SocketStateEvent,
} from '../src/gateways/ocpp/index.ts';
import { describeEachDb, type Harness } from './support/harness.ts';
import {
  insertCardVehicles,
  insertChargingHost,
  insertZone,
  plugInAndSwipe,
  simulator,
  strictClient,
  until,
  type Client,
} from './support/ocpp-charging.ts';

const PASSWORD = 'ocpp-test-password-2026';
const HEX_KEY = '00112233445566778899AABBCCDDEEFF00112233';

interface Hosts {
  ocpp: number;
  hex: number;
  disabled: number;
  login: number;
  noPassword: number;
}

let serial = 0;
async function insertHost(
  db: Db,
  areaId: number,
  options: { type: number; disabled?: boolean; ports?: number },
): Promise<{ id: number; serial: string }> {
  const zone = await db.kysely
    .selectFrom('ParkArea')
    .select('Id')
    .where('AreaId', '=', areaId)
    .orderBy('Id')
    .executeTakeFirstOrThrow();
  const sn = `OCPP-T-${++serial}-${Math.random().toString(36).slice(2, 8)}`;
  const host = await insertChargingHost(db, {
    zoneId: zone.Id,
    serial: sn,
    now: Date.UTC(2026, 10, 1),
    areaId,
    type: options.type,
    disabled: options.disabled ?? false,
    ...(options.ports !== undefined ? { ports: options.ports } : {}),
  });
  return { id: host.id, serial: sn };
}

describe('deviceTime', () => {
  it('believes a charge point clock only between a week ago and now', () => {
    const now = Date.UTC(2026, 10, 1, 8);
    expect(deviceTime(new Date(now - 60_000).toISOString(), now)).toBe(now - 60_000);
    expect(deviceTime(new Date(now + 60_000).toISOString(), now)).toBe(now);
    expect(deviceTime('1970-01-01T00:00:00Z', now)).toBe(now);
    expect(deviceTime(undefined, now)).toBe(now);
  });
});

describe('meter readings and stop reasons', () => {
  it('reads OCPP defaults, converts kWh and kW, skips signed and per-phase values, keeps the newest', () => {
    const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 8, m)).toISOString();
    const read = latestReadings([
      {
        timestamp: at(2),
        sampledValue: [
          { value: '1.5', unit: 'kWh' },
          { value: '0.2', measurand: 'Power.Active.Import', unit: 'kW' },
        ],
      },
      {
        timestamp: at(1),
        sampledValue: [{ value: '900' }, { value: '120', measurand: 'Power.Active.Import' }],
      },
      {
        timestamp: at(3),
        sampledValue: [
          { value: 'c2lnbmVk', format: 'SignedData' },
          { value: '9999', phase: 'L1' },
        ],
      },
    ]);
    // The power comes with its own time (a zone's live draw counts only recent readings).
    expect(read).toMatchObject({ registerWh: 1500, powerW: 200, powerAt: at(2) });
    expect(Object.keys(read).filter((key) => !key.endsWith('At'))).toEqual(['registerWh', 'powerW']);
    expect(latestReadings([])).toEqual({});
  });

  it('maps StopTransaction reasons to chargeStopReason', () => {
    expect(stopReasonFromOcpp(undefined, 'Charging')).toBe(1);
    expect(stopReasonFromOcpp('EVDisconnected', 'Charging')).toBe(1);
    expect(stopReasonFromOcpp('Local', 'SuspendedEV')).toBe(0);
    expect(stopReasonFromOcpp('EmergencyStop', 'Charging')).toBe(4);
    expect(stopReasonFromOcpp('PowerLoss', null)).toBe(5);
    expect(stopReasonFromOcpp('SoftReset', 'Charging')).toBe(5);
  });
});

describe('isOcppPath', () => {
  it('takes /ocpp/<id> and nothing else', () => {
    expect(isOcppPath('/ocpp/CP-1')).toBe(true);
    expect(isOcppPath('/ocpp/CP-1?x=1')).toBe(true);
    expect(isOcppPath('/ocpp/')).toBe(false);
    expect(isOcppPath('/ocpp')).toBe(false);
    expect(isOcppPath('/api/hub?AreaId=1')).toBe(false);
    expect(isOcppPath('/ocppx/CP-1')).toBe(false);
  });
});

describeEachDb('OCPP 1.6J central system', (h: () => Harness) => {
  let url: string;
  let base: string;
  const serials = {} as Record<keyof Hosts, string>;
  const ids = {} as Hosts;
  const open: Client[] = [];
  const validationFailures: unknown[] = [];

  beforeAll(async () => {
    await h().app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h().app.server.address() as AddressInfo).port;
    base = `127.0.0.1:${port}`;
    url = `ws://${base}/ocpp`;
    const make = async (name: keyof Hosts, type: number, password: string | null, disabled = false) => {
      const host = await insertHost(h().db, 1, { type, disabled });
      if (password) await setOcppPassword(h().db, host.id, password);
      ids[name] = host.id;
      serials[name] = host.serial;
    };
    await make('ocpp', 2, PASSWORD);
    await make('hex', 2, HEX_KEY);
    await make('disabled', 2, PASSWORD, true);
    await make('login', 1, PASSWORD);
    await make('noPassword', 2, null);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close({ force: true })));
    expect(validationFailures).toEqual([]);
  });

  async function connect(name: keyof Hosts, password: string | Buffer | undefined = PASSWORD) {
    const client = strictClient(url, serials[name], password);
    client.on('strictValidationFailure', (e: unknown) => validationFailures.push(e));
    open.push(client);
    await client.connect();
    return client;
  }

  /** The HTTP status the handshake was refused with. */
  async function refusal(name: keyof Hosts | string, password?: string): Promise<number> {
    const identity = name in serials ? serials[name as keyof Hosts] : name;
    const client = strictClient(url, identity, password);
    try {
      await client.connect();
      await client.close({ force: true });
      return 101;
    } catch (error) {
      return (error as { code?: number }).code ?? -1;
    }
  }

  it('refuses unknown, wrong-password, password-less, disabled and non-OCPP hosts at the handshake', async () => {
    expect(await refusal('NO-SUCH-SERIAL', PASSWORD)).toBe(401);
    expect(await refusal('ocpp', 'not-the-password-at-all')).toBe(401);
    expect(await refusal('ocpp')).toBe(401);
    expect(await refusal('noPassword', PASSWORD)).toBe(401);
    expect(await refusal('disabled', PASSWORD)).toBe(401);
    expect(await refusal('login', PASSWORD)).toBe(401);
    expect(h().ocpp.connected()).toEqual([]);
  });

  it('accepts the right password, boots with an interval, answers heartbeats and tracks the connection', async () => {
    const client = await connect('ocpp');
    expect(client.protocol).toBe('ocpp1.6');
    const boot = (await client.call('BootNotification', {
      chargePointVendor: 'Test',
      chargePointModel: 'EBike-10',
      firmwareVersion: '2.1.0',
    })) as { status: string; interval: number; currentTime: string };
    expect(boot.status).toBe('Accepted');
    expect(boot.interval).toBe(h().ocpp.heartbeatSeconds);
    expect(boot.interval).toBeGreaterThan(0);
    expect(Date.parse(boot.currentTime)).toBe(h().clock.now());
    const hb = (await client.call('Heartbeat', {})) as { currentTime: string };
    expect(Date.parse(hb.currentTime)).toBe(h().clock.now());

    const connection = h().ocpp.connection(ids.ocpp)!;
    expect(connection).toMatchObject({ serial: serials.ocpp, areaId: 1, lastHeartbeatAt: h().clock.now() });
    const host = await h()
      .db.kysely.selectFrom('ChargeHost')
      .select(['LastSeenAt', 'OcppBootInfo'])
      .where('Id', '=', ids.ocpp)
      .executeTakeFirstOrThrow();
    expect(host.LastSeenAt).toBe(h().clock.now());
    expect(JSON.parse(host.OcppBootInfo!)).toMatchObject({
      chargePointModel: 'EBike-10',
      firmwareVersion: '2.1.0',
    });
    expect(await client.call('DataTransfer', { vendorId: 'Acme' })).toEqual({ status: 'UnknownVendorId' });

    // Disabled after the handshake: the next boot is rejected with an interval to come back after.
    await h().db.kysely.updateTable('ChargeHost').set({ Disabled: 1 }).where('Id', '=', ids.ocpp).execute();
    const rejected = (await client.call('BootNotification', {
      chargePointVendor: 'Test',
      chargePointModel: 'EBike-10',
    })) as {
      status: string;
      interval: number;
    };
    await h().db.kysely.updateTable('ChargeHost').set({ Disabled: 0 }).where('Id', '=', ids.ocpp).execute();
    expect(rejected).toMatchObject({ status: 'Rejected', interval: h().ocpp.heartbeatSeconds });
  });

  it('accepts a 40-digit key sent as text or as its 20 octets', async () => {
    await connect('hex', HEX_KEY.toLowerCase());
    await connect('hex', Buffer.from(HEX_KEY, 'hex'));
    expect(h().ocpp.connection(ids.hex)).toBeDefined();
  });

  it('maps StatusNotification to socket states and connector 0 to the host', async () => {
    const client = await connect('ocpp');
    const events: SocketStateEvent[] = [];
    const listener = (e: SocketStateEvent) => events.push(e);
    h().ocpp.on('socketState', listener);
    // Past times: a charge point's timestamp from the future reads as now.
    const at = (s: number) => new Date(h().clock.now() + (s - 100) * 1000).toISOString();
    const socketState = async (port: number) =>
      h()
        .db.kysely.selectFrom('ChargeEquipment')
        .select(['State', 'StateChangedAt', 'OcppStatus', 'OcppErrorCode', 'OcppVendorErrorCode'])
        .where('ChargeHostId', '=', ids.ocpp)
        .where('PortNumber', '=', port)
        .executeTakeFirstOrThrow();

    expect(
      await client.call('StatusNotification', {
        connectorId: 1,
        errorCode: 'NoError',
        status: 'Charging',
        timestamp: at(1),
      }),
    ).toEqual({});
    expect(await socketState(1)).toMatchObject({
      State: 1,
      OcppStatus: 'Charging',
      OcppErrorCode: 'NoError',
    });
    await client.call('StatusNotification', {
      connectorId: 2,
      errorCode: 'NoError',
      status: 'Preparing',
      timestamp: at(1),
    });
    expect((await socketState(2)).State).toBe(170);
    await client.call('StatusNotification', {
      connectorId: 3,
      errorCode: 'OtherError',
      status: 'Faulted',
      vendorId: 'Gatehouse',
      vendorErrorCode: 'RelayStuck',
      timestamp: at(1),
    });
    expect(await socketState(3)).toMatchObject({ State: 9, OcppVendorErrorCode: 'RelayStuck' });
    await client.call('StatusNotification', {
      connectorId: 4,
      errorCode: 'OverCurrentFailure',
      status: 'Faulted',
    });
    expect((await socketState(4)).State).toBe(8);

    // Finishing after SuspendedEV: the battery was full.
    await client.call('StatusNotification', {
      connectorId: 2,
      errorCode: 'NoError',
      status: 'SuspendedEV',
      timestamp: at(1.2),
    });
    expect((await socketState(2)).State).toBe(3);
    await client.call('StatusNotification', {
      connectorId: 2,
      errorCode: 'NoError',
      status: 'Finishing',
      timestamp: at(1.4),
    });
    expect((await socketState(2)).State).toBe(3);

    // A late report older than the one applied changes nothing.
    await client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Available',
      timestamp: at(0),
    });
    expect((await socketState(1)).State).toBe(1);

    // A connector the host has no socket for is answered and ignored.
    expect(
      await client.call('StatusNotification', { connectorId: 9, errorCode: 'NoError', status: 'Available' }),
    ).toEqual({});

    await client.call('StatusNotification', {
      connectorId: 0,
      errorCode: 'NoError',
      status: 'Unavailable',
      timestamp: at(2),
    });
    const host = await h()
      .db.kysely.selectFrom('ChargeHost')
      .select('OcppStatus')
      .where('Id', '=', ids.ocpp)
      .executeTakeFirstOrThrow();
    expect(host.OcppStatus).toBe('Unavailable');
    h().ocpp.off('socketState', listener);
    expect(events.map((e) => [e.portNumber, e.previousState, e.state])).toEqual([
      [1, 0, 1],
      [2, 0, 170],
      [3, 0, 9],
      [4, 0, 8],
      [2, 170, 3],
      [2, 3, 3],
    ]);
    expect(events[0]).toMatchObject({
      hostId: ids.ocpp,
      areaId: 1,
      serial: serials.ocpp,
      ocppStatus: 'Charging',
    });
  });

  it('keeps a disabled socket disabled whatever the charge point reports', async () => {
    const k = h().db.kysely;
    await k
      .updateTable('ChargeEquipment')
      .set({ Disabled: 1, State: 12 })
      .where('ChargeHostId', '=', ids.ocpp)
      .where('PortNumber', '=', 2)
      .execute();
    const client = await connect('ocpp');
    await client.call('StatusNotification', {
      connectorId: 2,
      errorCode: 'NoError',
      status: 'Charging',
      timestamp: new Date(h().clock.now() + 60_000).toISOString(),
    });
    const socket = await k
      .selectFrom('ChargeEquipment')
      .select(['State', 'OcppStatus'])
      .where('ChargeHostId', '=', ids.ocpp)
      .where('PortNumber', '=', 2)
      .executeTakeFirstOrThrow();
    expect(socket).toEqual({ State: 12, OcppStatus: 'Charging' });
  });

  it('sends only schema-valid calls to the charge point and reads its answers', async () => {
    const client = await connect('ocpp');
    client.handle('GetConfiguration', async () => ({
      configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '60' }],
    }));
    client.handle('ChangeAvailability', async () => ({ status: 'Accepted' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await h().ocpp.call(ids.ocpp, 'GetConfiguration', { key: ['HeartbeatInterval'] })).toEqual({
      configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '60' }],
    });
    expect(
      await h().ocpp.call(ids.ocpp, 'ChangeAvailability', { connectorId: 1, type: 'Operative' }),
    ).toEqual({ status: 'Accepted' });
    // Strict mode refuses a payload outside the schema before it leaves Gatehouse.
    await expect(
      // A value the types forbid, sent anyway as a careless caller might (the cast is the test's point).
      h().ocpp.call(ids.ocpp, 'ChangeAvailability', { connectorId: 1, type: 'Sideways' as 'Operative' }),
    ).rejects.toThrow();
    await expect(h().ocpp.call(ids.disabled, 'Reset', { type: 'Soft' })).rejects.toThrow(/not connected/);
  });

  it('replaces an old connection of the same charge point and notices the disconnect', async () => {
    const first = await connect('ocpp');
    const closed = new Promise((resolve) => first.once('close', resolve));
    const second = await connect('ocpp');
    await closed;
    expect(h().ocpp.connection(ids.ocpp)).toBeDefined();
    const gone = new Promise((resolve) => h().ocpp.once('disconnected', resolve));
    await second.close();
    await gone;
    expect(h().ocpp.connection(ids.ocpp)).toBeUndefined();
  });

  it('closes a charge point silent for three heartbeat intervals', async () => {
    const client = await connect('ocpp');
    await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-10' });
    const closed = new Promise((resolve) => client.once('close', resolve));
    h().clock.advance(3 * h().ocpp.heartbeatSeconds * 1000);
    expect(h().ocpp.sweep()).toEqual([]);
    h().clock.advance(1);
    expect(h().ocpp.sweep()).toEqual([ids.ocpp]);
    expect(h().ocpp.connection(ids.ocpp)).toBeUndefined();
    await closed;
  });

  it('leaves the live hub reachable on the same server', async () => {
    const ws = new WebSocket(`ws://${base}/api/hub?AreaId=1`);
    const code = await new Promise<number>((resolve, reject) => {
      ws.on('close', (c) => resolve(c));
      ws.on('error', reject);
    });
    // Without a ticket the hub closes with its own "unauthorized" code: the upgrade reached its route.
    expect(code).toBe(4401);
  });

  it('drives socket states from the simulator', async () => {
    const cp = simulator({ url, serial: serials.ocpp, password: PASSWORD, now: () => h().clock.now() });
    try {
      await cp.goOnline();
      await until(() => cp.bootStatus === 'Accepted');
      h().clock.advance(120_000);
      await cp.plugIn(4);
      const socket = await h()
        .db.kysely.selectFrom('ChargeEquipment')
        .select('State')
        .where('ChargeHostId', '=', ids.ocpp)
        .where('PortNumber', '=', 4)
        .executeTakeFirstOrThrow();
      expect(socket.State).toBe(170);
    } finally {
      await cp.close();
    }
  });
  describe('sessions and orders', () => {
    const now = Date.UTC(2026, 10, 1);
    let hostSerial: string;
    let hostId: number;
    let ruleId: number;
    const CARD = '0012345678';
    const PASS_CARD = '0087654321';
    const BLOCKED_CARD = '0011110000';

    beforeAll(async () => {
      const k = h().db.kysely;
      const tag = Math.random().toString(36).slice(2, 8);
      const zone = await insertZone(k, {
        name: `OCPP zone ${tag}`,
        now,
        rule: { name: `OCPP metered ${tag}` },
      });
      ruleId = zone.ruleId!;
      const monthly = await k
        .insertInto('ChargeRule')
        .values({
          AreaId: 1,
          Name: `OCPP monthly ${tag}`,
          ChargeType: 2,
          TemporaryChargeType: 0,
          UnitPriceCents: 3000,
          TimeUnit: 2,
          FreeMinutes: 0,
          CapCents: null,
          Remark: null,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await k
        .insertInto('ParkAreaChargeRule')
        .values({ ParkAreaId: zone.id, ChargeRuleId: monthly.Id })
        .execute();
      const [, , passHolder] = await insertCardVehicles(
        k,
        [
          { card: CARD, plate: `OC${tag}1` },
          { card: BLOCKED_CARD, plate: `OC${tag}3`, disabled: true },
          { card: PASS_CARD, plate: `OC${tag}2` },
        ],
        now,
      );
      await k
        .insertInto('MonthlyPass')
        .values({
          AreaId: 1,
          VehicleId: passHolder!,
          ChargeRuleId: monthly.Id,
          StartAt: now - 86_400_000,
          EndAt: now + 30 * 86_400_000,
          Units: 1,
          AmountCents: 3000,
          RenewedFromId: null,
          Remark: null,
          UserName: 'test',
          CreatedAt: now,
          UpdatedAt: now,
        })
        .execute();
      const host = await insertHost(h().db, 1, { type: 2, ports: 4 });
      await k.updateTable('ChargeHost').set({ ParkAreaId: zone.id }).where('Id', '=', host.id).execute();
      await setOcppPassword(h().db, host.id, PASSWORD);
      hostSerial = host.serial;
      hostId = host.id;
    });

    async function connectSessionHost() {
      const client = strictClient(url, hostSerial, PASSWORD);
      client.on('strictValidationFailure', (e: unknown) => validationFailures.push(e));
      open.push(client);
      await client.connect();
      await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-4' });
      return client;
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    const order = (recordId: number) =>
      h()
        .db.kysely.selectFrom('ChargeOrder')
        .selectAll()
        .where('ChargeRecordId', '=', recordId)
        .executeTakeFirstOrThrow();
    const record = (recordId: number) =>
      h()
        .db.kysely.selectFrom('ChargeRecord')
        .selectAll()
        .where('Id', '=', recordId)
        .executeTakeFirstOrThrow();

    it('authorizes cards the area knows', async () => {
      const client = await connectSessionHost();
      expect(await client.call('Authorize', { idTag: CARD })).toEqual({ idTagInfo: { status: 'Accepted' } });
      expect(await client.call('Authorize', { idTag: BLOCKED_CARD })).toEqual({
        idTagInfo: { status: 'Blocked' },
      });
      expect(await client.call('Authorize', { idTag: 'NOBODY-KNOWS' })).toEqual({
        idTagInfo: { status: 'Invalid' },
      });
      const refused = await client.call('StartTransaction', {
        connectorId: 1,
        idTag: 'NOBODY-KNOWS',
        meterStart: 0,
        timestamp: iso(h().clock.now()),
      });
      expect(refused).toEqual({ idTagInfo: { status: 'Invalid' }, transactionId: 0 });
      // Its stop finds no session and changes nothing.
      expect(
        await client.call('StopTransaction', {
          transactionId: 0,
          meterStop: 5,
          timestamp: iso(h().clock.now()),
        }),
      ).toEqual({});
    });

    it('boot, status, authorize, start, meter values, stop: the order is the tariff engine price, once', async () => {
      const client = await connectSessionHost();
      // Times in the past: a charge point's timestamp from the future reads as now.
      const t0 = h().clock.now() - 2 * 3_600_000;
      await client.call('StatusNotification', {
        connectorId: 1,
        errorCode: 'NoError',
        status: 'Preparing',
        timestamp: iso(t0),
      });
      await client.call('Authorize', { idTag: CARD });
      const startPayload = { connectorId: 1, idTag: CARD, meterStart: 10_000, timestamp: iso(t0) };
      const started = (await client.call('StartTransaction', startPayload)) as {
        transactionId: number;
        idTagInfo: { status: string };
      };
      expect(started.idTagInfo.status).toBe('Accepted');
      const txId = started.transactionId;
      expect(txId).toBeGreaterThan(0);
      // The charge point retries: the same start is the same session.
      expect(await client.call('StartTransaction', startPayload)).toEqual(started);
      await client.call('StatusNotification', {
        connectorId: 1,
        errorCode: 'NoError',
        status: 'Charging',
        timestamp: iso(t0 + 1000),
      });

      const sample = (wh: number, w: number, at: number) => ({
        connectorId: 1,
        transactionId: txId,
        meterValue: [
          {
            timestamp: iso(at),
            sampledValue: [
              {
                value: String(wh),
                measurand: 'Energy.Active.Import.Register',
                unit: 'Wh',
                context: 'Sample.Periodic',
              },
              { value: String(w), measurand: 'Power.Active.Import', unit: 'W', context: 'Sample.Periodic' },
            ],
          },
        ],
      });
      await client.call('MeterValues', sample(10_600, 250, t0 + 45 * 60_000));
      expect((await record(txId)).EnergyWh).toBe(600);
      // A late, older reading never lowers the energy.
      await client.call('MeterValues', sample(10_300, 250, t0 + 20 * 60_000));
      expect((await record(txId)).EnergyWh).toBe(600);
      const running = await order(txId);
      expect(running).toMatchObject({
        ChargeRuleId: ruleId,
        UnitPriceCents: 120,
        AmountCents: null,
        SettledAt: null,
      });

      const end = t0 + 90 * 60_000;
      const stopPayload = {
        transactionId: txId,
        meterStop: 11_234,
        timestamp: iso(end),
        idTag: CARD,
        reason: 'EVDisconnected',
      };
      expect(await client.call('StopTransaction', stopPayload)).toEqual({
        idTagInfo: { status: 'Accepted' },
      });
      const ended = await record(txId);
      expect(ended).toMatchObject({
        StartAt: t0,
        EndAt: end,
        EnergyWh: 1234,
        StopReason: 1,
        MeterStartWh: 10_000,
      });
      const settled = await order(txId);
      const expected = priceSession(
        {
          ChargeType: 3,
          TemporaryChargeType: 2,
          UnitPriceCents: 120,
          TimeUnit: null,
          FreeMinutes: 5,
          CapCents: null,
        } as Tariff,
        { StartAt: t0, EndAt: end, EnergyWh: 1234 },
      );
      expect(expected.AmountCents).toBe(148);
      expect(settled).toMatchObject({ AmountCents: expected.AmountCents, SettledAt: end, PaymentState: 0 });

      // The retried stop changes nothing: no second settlement.
      const audits = async () =>
        Number(
          (
            await h()
              .db.kysely.selectFrom('AuditLog')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('Entity', '=', 'ChargeOrder')
              .where('EntityId', '=', String(settled.Id))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await audits();
      expect(before).toBe(1);
      await client.call('StopTransaction', { ...stopPayload, meterStop: 99_999 });
      expect(await record(txId)).toEqual(ended);
      expect(await order(txId)).toEqual(settled);
      expect(await audits()).toBe(before);
      const log = await h()
        .db.kysely.selectFrom('AuditLog')
        .select(['ActorKind', 'ActorId', 'UserName', 'Action'])
        .where('Entity', '=', 'ChargeOrder')
        .where('EntityId', '=', String(settled.Id))
        .executeTakeFirstOrThrow();
      expect(log).toEqual({ ActorKind: 'device', ActorId: hostId, UserName: hostSerial, Action: 'settle' });
    });

    it('prices a vehicle with a monthly charging pass at 0 and closes the order', async () => {
      const client = await connectSessionHost();
      const t0 = h().clock.now() - 3 * 3_600_000;
      const started = (await client.call('StartTransaction', {
        connectorId: 2,
        idTag: PASS_CARD,
        meterStart: 0,
        timestamp: iso(t0),
      })) as {
        transactionId: number;
      };
      await client.call('StopTransaction', {
        transactionId: started.transactionId,
        meterStop: 400,
        timestamp: iso(t0 + 3_600_000),
      });
      expect(await order(started.transactionId)).toMatchObject({
        ChargeType: 2,
        AmountCents: 0,
        PaymentState: 1,
      });
    });

    it('a charger that reboots and reports the port Finishing or Available without the transaction ends the session at once, at its time (issue 27)', async () => {
      const tariff = {
        ChargeType: 3,
        TemporaryChargeType: 2,
        UnitPriceCents: 120,
        TimeUnit: null,
        FreeMinutes: 5,
        CapCents: null,
      } as Tariff;
      const socketOf = (port: number) =>
        h()
          .db.kysely.selectFrom('ChargeEquipment')
          .select(['Id', 'State'])
          .where('ChargeHostId', '=', hostId)
          .where('PortNumber', '=', port)
          .executeTakeFirstOrThrow();
      const openOn = async (socketId: number) =>
        (
          await h()
            .db.kysely.selectFrom('ChargeRecord')
            .select('Id')
            .where('ChargeEquipmentId', '=', socketId)
            .where('EndAt', 'is', null)
            .execute()
        ).length;
      const first = await connectSessionHost();
      const t0 = h().clock.now() - 60 * 60_000;
      const start = async (connectorId: number, idTag: string, at: number) => {
        const started = (await first.call('StartTransaction', {
          connectorId,
          idTag,
          meterStart: 1000,
          timestamp: iso(at),
        })) as { transactionId: number };
        await first.call('StatusNotification', {
          connectorId,
          errorCode: 'NoError',
          status: 'Charging',
          timestamp: iso(at + 1000),
        });
        await first.call('MeterValues', {
          connectorId,
          transactionId: started.transactionId,
          meterValue: [
            {
              timestamp: iso(at + 30 * 60_000),
              sampledValue: [{ value: '1300', measurand: 'Energy.Active.Import.Register', unit: 'Wh' }],
            },
          ],
        });
        return started.transactionId;
      };
      const finishing = await start(3, CARD, t0);
      const available = await start(4, PASS_CARD, t0 + 60_000);
      expect((await socketOf(3)).State).toBe(1);

      // The charger restarts: a new connection, BootNotification, then its connectors without the transactions.
      await first.close({ force: true });
      const second = strictClient(url, hostSerial, PASSWORD);
      second.on('strictValidationFailure', (e: unknown) => validationFailures.push(e));
      open.push(second);
      await second.connect();
      h().clock.advance(5_000);
      const bootAt = h().clock.now();
      await second.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-4' });
      const reportedAt = bootAt - 2 * 60_000;
      await second.call('StatusNotification', {
        connectorId: 3,
        errorCode: 'NoError',
        status: 'Finishing',
        timestamp: iso(reportedAt),
      });
      // No timestamp: the boot is the charger's time.
      await second.call('StatusNotification', { connectorId: 4, errorCode: 'NoError', status: 'Available' });

      // At once, not after a wait or the offline grace period: ended by the charger, at the time it gave.
      for (const [recordId, endAt] of [
        [finishing, reportedAt],
        [available, bootAt],
      ] as const) {
        const ended = await record(recordId);
        expect(ended).toMatchObject({ EndAt: endAt, StopReason: 7, EnergyWh: 300, EndProvisional: 1 });
        expect(await order(recordId)).toMatchObject({
          AmountCents: priceSession(recordId === available ? { ...tariff, ChargeType: 2 } : tariff, {
            StartAt: ended.StartAt,
            EndAt: endAt,
            EnergyWh: 300,
          }).AmountCents,
          SettledAt: endAt,
        });
      }
      // Neither socket counts a session charging: the plugged-in one is occupied, not charging.
      expect(await openOn((await socketOf(3)).Id)).toBe(0);
      expect(await openOn((await socketOf(4)).Id)).toBe(0);
      expect((await socketOf(3)).State).toBe(2);
      expect((await socketOf(4)).State).toBe(0);

      // The charger's own stop, sent late from its queue, still corrects the session once.
      await second.call('StopTransaction', {
        transactionId: finishing,
        meterStop: 1350,
        timestamp: iso(reportedAt - 60_000),
        reason: 'Reboot',
      });
      expect(await record(finishing)).toMatchObject({
        EndAt: reportedAt - 60_000,
        EnergyWh: 350,
        StopReason: 5,
        EndProvisional: 0,
      });

      // A charger that reboots still carrying its transaction (Charging) keeps the session running.
      const kept = await (async () => {
        const started = (await second.call('StartTransaction', {
          connectorId: 3,
          idTag: CARD,
          meterStart: 0,
          timestamp: iso(h().clock.now() - 10 * 60_000),
        })) as { transactionId: number };
        return started.transactionId;
      })();
      await second.close({ force: true });
      const third = strictClient(url, hostSerial, PASSWORD);
      open.push(third);
      await third.connect();
      await third.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-4' });
      await third.call('StatusNotification', {
        connectorId: 3,
        errorCode: 'NoError',
        status: 'Charging',
        timestamp: iso(h().clock.now()),
      });
      expect((await record(kept)).EndAt).toBeNull();
      await third.call('StopTransaction', {
        transactionId: kept,
        meterStop: 10,
        timestamp: iso(h().clock.now()),
      });
    });

    it('runs a whole session from the simulator', async () => {
      const cp = simulator({ url, serial: hostSerial, password: PASSWORD, now: () => h().clock.now() });
      const strict: string[] = [];
      cp.on('log', (text: string) => strict.push(text));
      try {
        await cp.goOnline();
        await until(() => cp.bootStatus === 'Accepted');
        h().clock.advance(4 * 3_600_000);
        const started = await plugInAndSwipe(cp, 3, CARD, { soc: 0.3 }, 300);
        expect(started.status).toBe('Accepted');
        h().clock.advance(3_600_000);
        await cp.advance(3600);
        await cp.unplug(3);
        const ended = await record(started.transactionId!);
        // 300 W until 80 %, then the taper: what the simulated meter counted is what the session holds.
        expect(ended.EnergyWh).toBe(Math.round(cp.connector(3).registerWh));
        expect(ended.EnergyWh).toBeGreaterThan(250);
        expect(ended.EnergyWh).toBeLessThan(300);
        expect(ended.StopReason).toBe(1);
        const expected = priceSession(
          {
            ChargeType: 3,
            TemporaryChargeType: 2,
            UnitPriceCents: 120,
            TimeUnit: null,
            FreeMinutes: 5,
            CapCents: null,
          } as Tariff,
          { StartAt: ended.StartAt, EndAt: ended.EndAt!, EnergyWh: ended.EnergyWh },
        );
        expect((await order(started.transactionId!)).AmountCents).toBe(expected.AmountCents);

        // The power-off seam over OCPP: RemoteStopTransaction reaches the charge point, which stops and says so.
        const second = await plugInAndSwipe(cp, 4, CARD, { soc: 0.5 });
        const gateway = ocppChargerGateway(h().ocpp, 5000);
        const command = { hostId, serialNumber: hostSerial, chargingSystemType: 2, portNumber: 4 };
        // The seam answers with the charger's answer (sent); its StopTransaction follows on its own connection.
        expect(await gateway.powerOff({ ...command, chargeRecordId: second.transactionId! })).toEqual({
          outcome: 'sent',
        });
        const endedBy = Date.now() + 5000;
        while ((await record(second.transactionId!)).EndAt === null && Date.now() < endedBy)
          await new Promise((r) => setTimeout(r, 10));
        expect((await record(second.transactionId!)).EndAt).not.toBeNull();
        expect((await record(second.transactionId!)).StopReason).toBe(1);
        expect(await gateway.powerOff({ ...command, chargeRecordId: 424242 })).toMatchObject({
          outcome: 'failed',
          reason: 'refused',
        });
        expect(await gateway.powerOff({ ...command, chargingSystemType: 1, chargeRecordId: null })).toEqual({
          outcome: 'notSent',
          reason: 'noDeviceLink',
        });
        expect(await gateway.powerOff({ ...command, chargeRecordId: null })).toEqual({ outcome: 'cut' });
        await new Promise((r) => setTimeout(r, 50));
        expect(cp.connector(4).status).toBe('Unavailable');
        expect(strict).toEqual([]);
      } finally {
        await cp.close();
      }
    });
  });
});
