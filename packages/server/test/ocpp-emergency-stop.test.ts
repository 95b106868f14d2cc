import {
  STOP_REASON,
  translate,
  type ApiKeyCreated,
  type HubEventInput,
  type ParkAreaItem,
  type ZoneEmergencyStopItem,
} from '@gatehouse/shared';
import type { ChargePoint } from '@gatehouse/ocpp-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { call, login } from './support/client.ts';
import { fakeCharger, type FakeCharger } from './support/fake-charger.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import {
  insertCardVehicles,
  listenForChargers,
  plugInAndSwipe,
  simulatorOnline,
  until,
} from './support/ocpp-charging.ts';

/**
 * Issue 30, "Emergency stop of a zone" (docs/garage.md, docs/chargers.md "Emergency stop"): strict OCPP 1.6J
 * clients (ocpp-rpc) play the zone's chargers. The stop ends the running sessions with stop reason 10, sends
 * ChangeAvailability Inoperative to every connector, refuses new starts (StartTransaction Blocked) and remote
 * starts; a charger offline at the time, or reconnecting during the stop, is made Inoperative when it connects;
 * the release sends Operative (not to a socket an operator disabled) and starts work again. An API key with
 * Bicycle/Admin may stop a zone (a fire panel), one without it is 403, and another area's zone is 404. Across two
 * instances on PostgreSQL: cluster-emergency-stop.test.ts.
 */
const PASSWORD = 'emergency-stop-password-2026';
const CARDS = ['0077100001', '0077100002', '0077100003', '0077100004'];

type Client = FakeCharger['client'];

describeEachDb('zone emergency stop (strict OCPP 1.6J chargers)', (h: () => Harness) => {
  let url = '';
  let admin = '';
  let bikeAdmin = '';
  let bikeUser = '';
  const open: Client[] = [];
  const simulators: ChargePoint[] = [];
  const published: HubEventInput[] = [];
  let zone = 0;
  let other = 0;
  const main = { id: 0, serial: '', sockets: [] as number[] };
  const offline = { id: 0, serial: '', sockets: [] as number[] };
  const k = () => h().db.kysely;
  const now = () => h().clock.now();
  const en = (key: string) => translate('en', key);

  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown, token = bikeAdmin, area = 1) =>
    call<T>(h().app, method, path, { token, area, lang: 'en', ...(body === undefined ? {} : { body }) });

  async function makeZone(name: string): Promise<number> {
    const rule = await api<{ Id: number }>('POST', '/api/ChargeRule', {
      Name: `${name} rule`,
      ChargeType: 3,
      TemporaryChargeType: 2,
      UnitPriceCents: 120,
      FreeMinutes: 0,
    });
    expect(rule.status, rule.msg).toBe(200);
    const made = await api<{ Id: number }>('POST', '/api/ParkArea', {
      Name: name,
      Capacity: 10,
      ChargeRuleIds: [rule.data.Id],
    });
    expect(made.status, made.msg).toBe(200);
    return made.data.Id;
  }

  async function makeHost(zoneId: number, serial: string, ports: number) {
    const made = await api<{ Id: number }>('POST', '/api/ChargeHost', {
      SerialNumber: serial,
      Name: serial,
      ParkAreaId: zoneId,
      PortCount: ports,
      ChargingSystemType: 2,
      // The charging-API type asks for an address and a secret (the OCPP password is set apart, below).
      Endpoint: 'https://charger.example.com/api',
      Password: 'api-secret',
    });
    expect(made.status, made.msg).toBe(200);
    await setOcppPassword(h().db, made.data.Id, PASSWORD);
    const sockets = await k()
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('ChargeHostId', '=', made.data.Id)
      .orderBy('PortNumber')
      .execute();
    return { id: made.data.Id, serial, sockets: sockets.map((s) => s.Id) };
  }

  const connect = async (serial: string, options?: { boot?: boolean }) => {
    const fake = await fakeCharger(url, serial, PASSWORD, now, options);
    open.push(fake.client);
    return fake;
  };
  const record = (id: number) =>
    k().selectFrom('ChargeRecord').selectAll().where('Id', '=', id).executeTakeFirstOrThrow();
  const stop = (zoneId: number, reason = 'smoke reported by the fire panel', token = bikeAdmin) =>
    api<ZoneEmergencyStopItem>('POST', '/api/ParkArea/EmergencyStop', { Id: zoneId, Reason: reason }, token);
  const release = (zoneId: number, note = 'fire brigade: all clear', token = bikeAdmin) =>
    api<ZoneEmergencyStopItem>('POST', '/api/ParkArea/EmergencyRelease', { Id: zoneId, Note: note }, token);
  const setStatus = (socketId: number, disabled: boolean) =>
    call(h().app, 'POST', '/api/ChargeEquipment/SetStatus', {
      token: bikeAdmin,
      area: 1,
      query: { Id: socketId, Disabled: disabled },
    });

  beforeAll(async () => {
    url = await listenForChargers(h().app);
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    bikeAdmin = await login(h().app, 'bikeadmin', DEMO_PASSWORD);
    bikeUser = await login(h().app, 'bikeuser', DEMO_PASSWORD);
    const tag = Math.random().toString(36).slice(2, 6).toUpperCase();
    zone = await makeZone(`急停区 ${tag}`);
    other = await makeZone(`邻区 ${tag}`);
    Object.assign(main, await makeHost(zone, `ESTOPA${tag}`, 3));
    Object.assign(offline, await makeHost(zone, `ESTOPB${tag}`, 2));
    await insertCardVehicles(
      k(),
      CARDS.map((card, i) => ({ card, plate: `京E7000${i}` })),
      now(),
    );
    const publish = h().hub.publish.bind(h().hub);
    vi.spyOn(h().hub, 'publish').mockImplementation((areaId, event) => {
      published.push(event);
      return publish(areaId, event);
    });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.map((c) => c.close({ force: true }).catch(() => {})));
    await Promise.all(simulators.map((cp) => cp.close()));
  });

  it('stops the running sessions with reason "emergency stop", makes every connector Inoperative and says so', async () => {
    const charger = await connect(main.serial);
    const first = await charger.start(1, CARDS[0]!);
    const second = await charger.start(2, CARDS[1]!);
    expect([first.status, second.status]).toEqual(['Accepted', 'Accepted']);

    const stopped = await stop(zone);
    expect(stopped.status, stopped.msg).toBe(200);
    expect(stopped.data).toMatchObject({
      ParkAreaId: zone,
      Reason: 'smoke reported by the fire panel',
      StoppedByKind: 'user',
      ReleasedAt: null,
      Stop: {
        SessionsRunning: 2,
        SessionsStopped: 2,
        // Three connectors of the connected host, two of the one that is not connected.
        Sockets: 5,
        SocketsInoperative: 3,
        NotReached: [{ ChargeHostId: offline.id, HostName: offline.serial, Outcome: 'notConnected' }],
      },
    });
    // The charger was asked to stop both transactions and to take every connector out of service.
    expect(
      charger.calls.filter((c) => c.action === 'RemoteStopTransaction').map((c) => c.params.transactionId),
    ).toEqual([first.transactionId, second.transactionId]);
    expect(charger.availability()).toEqual([
      { connectorId: 1, type: 'Inoperative' },
      { connectorId: 2, type: 'Inoperative' },
      { connectorId: 3, type: 'Inoperative' },
    ]);
    // Their stop reports end them as emergency stops.
    for (const id of [first.transactionId, second.transactionId]) {
      await until(async () => (await record(id)).EndAt !== null);
      expect((await record(id)).StopReason).toBe(STOP_REASON.emergencyStop);
    }

    // Audited with who and why, told to the browsers and, once, to other systems.
    const entries = await k()
      .selectFrom('AuditLog')
      .select(['Action', 'UserName', 'After'])
      .where('Entity', '=', 'ParkArea')
      .where('EntityId', '=', String(zone))
      .where('Action', 'like', 'emergency%')
      .orderBy('Id')
      .execute();
    expect(entries.map((e) => e.Action)).toEqual(['emergencyStop', 'emergencyStop.result']);
    expect(entries[0]!.UserName).toBe('bikeadmin');
    expect(JSON.parse(entries[0]!.After!)).toMatchObject({ Reason: 'smoke reported by the fire panel' });
    const events = published.filter((e) => e.Type === 'ZoneEmergency');
    expect(events.map((e) => (e as ZoneEmergencyStopItem).Stop === null)).toEqual([true, false]);
    const outbox = await k()
      .selectFrom('OutboxEvent')
      .select(['Type', 'Payload'])
      .where('Type', '=', 'zone.emergency_stopped')
      .execute();
    expect(outbox).toHaveLength(1);
    expect(JSON.parse(outbox[0]!.Payload).data).toMatchObject({
      AreaId: 1,
      ParkAreaId: zone,
      StoppedBy: expect.any(String),
      Stop: { SessionsStopped: 2, SocketsInoperative: 3 },
    });
  });

  it('refuses new starts (Blocked) and remote starts while stopped, and a second stop', async () => {
    const charger = await connect(main.serial);
    expect(await charger.start(3, CARDS[2]!)).toEqual({ status: 'Blocked', transactionId: 0 });
    const remote = await api('POST', '/api/ChargeEquipment/RemoteStart', {
      ChargeEquipmentId: main.sockets[0]!,
      CardNumber: CARDS[2]!,
    });
    expect(remote.status).toBe(409);
    expect(remote.msg).toBe(en('garage.error.startRefused.emergencyStop'));
    expect(charger.calls.some((c) => c.action === 'RemoteStartTransaction')).toBe(false);
    const again = await stop(zone);
    expect(again.status).toBe(409);
    expect(again.msg).toBe(en('garage.error.zoneEmergencyStopped'));
    // The zone list and the stops in force show it; the other zone is untouched.
    const listed = await api<{ Items: ZoneEmergencyStopItem[] }>('GET', '/api/ParkArea/EmergencyStops');
    expect(listed.data.Items.map((s) => s.ParkAreaId)).toEqual([zone]);
    const item = await api<ParkAreaItem>('GET', `/api/ParkArea/${zone}`);
    expect(item.data.EmergencyStop).toMatchObject({ Reason: 'smoke reported by the fire panel' });
    expect((await api<ParkAreaItem>('GET', `/api/ParkArea/${other}`)).data.EmergencyStop).toBeNull();
  });

  it('makes a charger that reconnects during the stop, and one that was offline, Inoperative when it connects', async () => {
    // Reconnecting without a reboot: told once its first call is answered.
    const back = await connect(main.serial, { boot: false });
    await back.client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Unavailable',
      timestamp: new Date(now()).toISOString(),
    });
    await until(() => back.availability().length === 3);
    expect(back.availability().every((a) => a.type === 'Inoperative')).toBe(true);
    // Offline when the zone was stopped: it boots now, and is told after its boot is answered.
    const late = await connect(offline.serial);
    await until(() => late.availability().length === 2);
    expect(late.availability()).toEqual([
      { connectorId: 1, type: 'Inoperative' },
      { connectorId: 2, type: 'Inoperative' },
    ]);
    expect(await late.start(1, CARDS[2]!)).toEqual({ status: 'Blocked', transactionId: 0 });
  });

  it('enabling a socket during the stop sends no Operative; the release makes the others Operative and starts work again', async () => {
    const charger = await connect(main.serial);
    await until(() => charger.availability().length === 3);
    charger.calls.length = 0;
    // Socket 3 disabled on purpose: it stays Inoperative after the release.
    expect((await setStatus(main.sockets[2]!, true)).status).toBe(200);
    // Socket 2 disabled and enabled again while stopped: no Operative goes out for it yet.
    expect((await setStatus(main.sockets[1]!, true)).status).toBe(200);
    expect((await setStatus(main.sockets[1]!, false)).status).toBe(200);
    expect(charger.availability().filter((a) => a.type === 'Operative')).toEqual([]);
    // The offline host goes away again: the release cannot reach it now.
    for (const c of open.slice(0, -1)) await c.close({ force: true }).catch(() => {});
    await until(async () => {
      const row = await k()
        .selectFrom('ChargeHost')
        .select('OcppOnline')
        .where('Id', '=', offline.id)
        .executeTakeFirst();
      return row?.OcppOnline === 0;
    });
    charger.calls.length = 0;

    const released = await release(zone);
    expect(released.status, released.msg).toBe(200);
    expect(released.data).toMatchObject({
      ReleasedBy: expect.any(String),
      ReleasedByKind: 'user',
      Note: 'fire brigade: all clear',
      Release: {
        Sockets: 4,
        SocketsOperative: 2,
        SocketsKeptDisabled: 1,
        NotReached: [{ ChargeHostId: offline.id, Outcome: 'notConnected' }],
      },
    });
    expect(charger.availability()).toEqual([
      { connectorId: 1, type: 'Operative' },
      { connectorId: 2, type: 'Operative' },
    ]);
    expect((await charger.start(1, CARDS[0]!)).status).toBe('Accepted');
    const remote = await api<{ Status: string }>('POST', '/api/ChargeEquipment/RemoteStart', {
      ChargeEquipmentId: main.sockets[1]!,
      CardNumber: CARDS[1]!,
    });
    expect(remote.status, remote.msg).toBe(200);
    await until(() => charger.tx.has(2));
    const again = await release(zone);
    expect(again.status).toBe(409);
    expect(again.msg).toBe(en('garage.error.zoneNotEmergencyStopped'));
    expect(
      (
        await k()
          .selectFrom('OutboxEvent')
          .select('Type')
          .where('Type', '=', 'zone.emergency_released')
          .execute()
      ).length,
    ).toBe(1);

    // The charger the release missed is made Operative when it connects, once.
    const late = await connect(offline.serial);
    await until(() => late.availability().length === 2);
    expect(late.availability()).toEqual([
      { connectorId: 1, type: 'Operative' },
      { connectorId: 2, type: 'Operative' },
    ]);
    await late.client.close({ force: true });
    const later = await connect(offline.serial);
    await new Promise((r) => setTimeout(r, 300));
    expect(later.availability()).toEqual([]);
    expect((await setStatus(main.sockets[2]!, false)).status).toBe(200);
  });

  it("drives the repo's simulator: its connectors report Unavailable, it starts nothing until the release", async () => {
    const simZone = await makeZone(`模拟区 ${Math.random().toString(36).slice(2, 6)}`);
    const host = await makeHost(
      simZone,
      `ESTOPSIM${Math.random().toString(36).slice(2, 6).toUpperCase()}`,
      2,
    );
    const cp = await simulatorOnline(
      { url, serial: host.serial, password: PASSWORD, connectors: 2, now },
      simulators,
    );
    const started = await plugInAndSwipe(cp, 1, CARDS[3]!, { soc: 0.4 });
    expect(started.transactionId).toBeGreaterThan(0);

    const stopped = await stop(simZone, 'smoke near B3');
    expect(stopped.status, stopped.msg).toBe(200);
    expect(stopped.data.Stop).toMatchObject({ SessionsStopped: 1, SocketsInoperative: 2 });
    await until(() => cp.connector(1).status === 'Unavailable' && cp.connector(2).status === 'Unavailable');
    await until(async () => (await record(started.transactionId!)).StopReason === STOP_REASON.emergencyStop);
    // The charger's reports reach the sockets: both out of service (state 12) while stopped.
    const states = () =>
      k()
        .selectFrom('ChargeEquipment')
        .select(['OcppStatus', 'State'])
        .where('ChargeHostId', '=', host.id)
        .orderBy('PortNumber')
        .execute();
    await until(async () => (await states()).every((s) => s.OcppStatus === 'Unavailable'));
    expect((await states()).map((s) => s.State)).toEqual([12, 12]);
    expect((await cp.swipe(1, CARDS[3]!)).transactionId).toBeUndefined();

    expect((await release(simZone)).status).toBe(200);
    await until(() => cp.connector(1).status === 'Preparing' && cp.connector(2).status === 'Available');
    expect((await cp.swipe(1, CARDS[3]!)).transactionId).toBeGreaterThan(0);
  });

  describe('who may stop a zone', () => {
    async function key(codes: string[]): Promise<ApiKeyCreated> {
      const made = await call<ApiKeyCreated>(h().app, 'POST', '/api/ApiKey', {
        token: admin,
        body: { Name: `fire panel ${codes.join('+')}`, AreaIds: [1], Codes: codes },
      });
      expect(made.status, made.msg).toBe(200);
      return made.data;
    }

    it('an API key holding Bicycle/Admin in the area (a fire panel) stops and releases; the log names the key', async () => {
      const panel = await key(['Bicycle/Admin']);
      const stopped = await stop(other, 'fire panel: smoke detector 3 in alarm', panel.Secret);
      expect(stopped.status, stopped.msg).toBe(200);
      // The key's name and prefix, as the operation log names it.
      expect(stopped.data).toMatchObject({
        StoppedBy: `${panel.Name} (${panel.Prefix}…)`,
        StoppedByKind: 'key',
      });
      const entry = await k()
        .selectFrom('AuditLog')
        .select(['ActorKind', 'UserName'])
        .where('Action', '=', 'emergencyStop')
        .where('EntityId', '=', String(other))
        .executeTakeFirstOrThrow();
      expect(entry).toEqual({ ActorKind: 'key', UserName: stopped.data.StoppedBy });
      const released = await release(other, 'detector reset', panel.Secret);
      expect(released.status, released.msg).toBe(200);
    });

    it('a key without the code, the User code and another area are refused, and nothing is stopped', async () => {
      const reader = await key(['Bicycle/User']);
      expect((await stop(other, 'no', reader.Secret)).status).toBe(403);
      expect((await stop(other, 'no', bikeUser)).status).toBe(403);
      expect((await release(other, 'no', bikeUser)).status).toBe(403);
      // bikeadmin operates area 2 too: a zone of area 1 named with area 2's header is not found there.
      const foreign = await call(h().app, 'POST', '/api/ParkArea/EmergencyStop', {
        token: bikeAdmin,
        area: 2,
        body: { Id: other, Reason: 'wrong area' },
      });
      expect(foreign.status).toBe(404);
      const inForce = await k()
        .selectFrom('ParkAreaEmergencyStop')
        .select('Id')
        .where('ReleasedAt', 'is', null)
        .execute();
      expect(inForce).toEqual([]);
      // A reason is required.
      expect((await stop(other, '   ')).status).toBe(400);
    });
  });
});
