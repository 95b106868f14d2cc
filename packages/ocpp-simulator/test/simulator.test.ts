import type { AddressInfo } from 'node:net';
import { RPCServer } from 'ocpp-rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChargePoint, Simulator, charge, chargePower, startControlApi, TRICKLE_W } from '../src/index.ts';

/** A minimal strict central system: records every call, answers per the 1.6 schemas. */
interface Received {
  identity: string;
  method: string;
  params: Record<string, unknown>;
}

interface ServerClient {
  identity: string;
  call(method: string, params?: unknown): Promise<unknown>;
  handle(method: string, handler: (args: { params: Record<string, unknown> }) => unknown): void;
  handle(handler: (args: { method?: string; params?: Record<string, unknown> }) => unknown): void;
  on(event: string, listener: (event: unknown) => void): void;
}

const PASSWORD = 'sim-secret-1';
let server: RPCServer;
let url: string;
const received: Received[] = [];
const failures: unknown[] = [];
const clients = new Map<string, ServerClient>();
/** BootNotification answers to give, per identity, before Accepted. */
const bootPlan = new Map<string, ('Pending' | 'Rejected')[]>();
let nextTx = 100;
const startAnswers = new Map<string, number>();

beforeAll(async () => {
  server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true });
  server.auth((accept, reject, handshake) => {
    if (handshake.password?.toString('utf8') === PASSWORD) accept({});
    else reject(401, 'Unauthorized');
  });
  server.on('client', (raw: unknown) => {
    const client = raw as ServerClient;
    clients.set(client.identity, client);
    client.on('strictValidationFailure', (e: unknown) => failures.push(e));
    const record = (method: string, params: Record<string, unknown>) =>
      received.push({ identity: client.identity, method, params });
    const now = () => new Date().toISOString();
    client.handle('BootNotification', ({ params }) => {
      record('BootNotification', params);
      const next = bootPlan.get(client.identity)?.shift();
      if (next) return { status: next, currentTime: now(), interval: 1 };
      return { status: 'Accepted', currentTime: now(), interval: 300 };
    });
    client.handle('Heartbeat', ({ params }) => (record('Heartbeat', params), { currentTime: now() }));
    client.handle('StatusNotification', ({ params }) => (record('StatusNotification', params), {}));
    client.handle('Authorize', ({ params }) => {
      record('Authorize', params);
      return { idTagInfo: { status: params.idTag === 'BLOCKED' ? 'Blocked' : 'Accepted' } };
    });
    client.handle('StartTransaction', ({ params }) => {
      record('StartTransaction', params);
      // Idempotent like a real central system: the same start gets the same id.
      const key = `${client.identity}/${String(params.connectorId)}/${String(params.timestamp)}`;
      const id = startAnswers.get(key) ?? nextTx++;
      startAnswers.set(key, id);
      return { idTagInfo: { status: 'Accepted' }, transactionId: id };
    });
    client.handle('MeterValues', ({ params }) => (record('MeterValues', params), {}));
    client.handle(
      'StopTransaction',
      ({ params }) => (record('StopTransaction', params), { idTagInfo: { status: 'Accepted' } }),
    );
    client.handle(({ method, params }: { method?: string; params?: Record<string, unknown> }) => {
      record(method ?? '?', params ?? {});
      return {};
    });
  });
  const http = await server.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ocpp`;
});

afterAll(async () => {
  await server.close({ force: true });
});

const points: ChargePoint[] = [];
function point(id: string, connectors = 2, password = PASSWORD) {
  const cp = new ChargePoint({ url, id, password, connectors, timers: false, callTimeoutMs: 5000 });
  cp.on('log', (text: string) => {
    if (/strict|refused|dropped/.test(text)) failures.push(text);
  });
  points.push(cp);
  return cp;
}

afterEach(async () => {
  await Promise.all(points.splice(0).map((cp) => cp.close()));
  expect(failures).toEqual([]);
  failures.length = 0;
});

async function waitFor<T>(probe: () => T | undefined | false, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const of = (identity: string, method?: string) =>
  received.filter((r) => r.identity === identity && (method === undefined || r.method === method));

describe('battery model', () => {
  it('charges at the bulk rate, tapers above 80 % and stops when full', () => {
    expect(chargePower({ capacityWh: 500, soc: 0.5 }, 250)).toBe(250);
    expect(chargePower({ capacityWh: 500, soc: 0.9 }, 250)).toBeCloseTo(127.5);
    expect(chargePower({ capacityWh: 500, soc: 1 }, 250)).toBe(0);
    const battery = { capacityWh: 500, soc: 0.95 };
    const step = charge(battery, 300, 3600 * 3);
    expect(battery.soc).toBe(1);
    expect(step.powerW).toBe(0);
    expect(step.energyWh).toBeCloseTo(25, 0);
    expect(chargePower({ capacityWh: 500, soc: 0.99999 }, 300)).toBeGreaterThanOrEqual(TRICKLE_W);
  });
});

describe('charge point', () => {
  it('is refused with a wrong password', async () => {
    await expect(point('CP-WRONG', 1, 'nope').goOnline()).rejects.toThrow();
    expect(of('CP-WRONG')).toEqual([]);
  });

  it('boots again after Pending and Rejected, then reports connector 0 and every connector', async () => {
    bootPlan.set('CP-BOOT', ['Pending', 'Rejected']);
    const cp = point('CP-BOOT', 3);
    await cp.goOnline();
    await waitFor(() => of('CP-BOOT', 'StatusNotification').length === 4, 8000);
    expect(of('CP-BOOT', 'BootNotification')).toHaveLength(3);
    expect(of('CP-BOOT', 'StatusNotification').map((r) => r.params.connectorId)).toEqual([0, 1, 2, 3]);
    expect(cp.bootStatus).toBe('Accepted');
    expect(await cp.heartbeat()).toMatch(/Z$/);
  });

  it('runs a session: plug in, swipe, meter values in Wh and W, unplug', async () => {
    const cp = point('CP-SESSION');
    await cp.goOnline();
    await waitFor(() => cp.bootStatus === 'Accepted' && of('CP-SESSION', 'StatusNotification').length === 3);
    await cp.plugIn(1, { soc: 0.78, capacityWh: 500 });
    cp.setPower(1, 300);
    expect(await cp.swipe(1, 'BLOCKED')).toEqual({ status: 'Blocked' });
    const started = await cp.swipe(1, '12345678');
    expect(started.status).toBe('Accepted');
    const txId = started.transactionId!;
    await cp.advance(600);
    await cp.advance(600);
    await cp.unplug(1);

    const statuses = of('CP-SESSION', 'StatusNotification')
      .filter((r) => r.params.connectorId === 1)
      .map((r) => r.params.status);
    expect(statuses).toEqual(['Available', 'Preparing', 'Charging', 'Available']);
    const start = of('CP-SESSION', 'StartTransaction')[0]!.params;
    expect(start).toMatchObject({ connectorId: 1, idTag: '12345678', meterStart: 0 });
    const meters = of('CP-SESSION', 'MeterValues').map((r) => r.params);
    expect(meters).toHaveLength(2);
    const sample = (m: Record<string, unknown>, measurand: string) =>
      (
        m.meterValue as { sampledValue: { measurand: string; value: string; unit: string }[] }[]
      )[0]!.sampledValue.find((v) => v.measurand === measurand)!;
    expect(meters[0]).toMatchObject({ connectorId: 1, transactionId: txId });
    expect(sample(meters[0]!, 'Energy.Active.Import.Register').unit).toBe('Wh');
    const e1 = Number(sample(meters[0]!, 'Energy.Active.Import.Register').value);
    const e2 = Number(sample(meters[1]!, 'Energy.Active.Import.Register').value);
    const p1 = Number(sample(meters[0]!, 'Power.Active.Import').value);
    const p2 = Number(sample(meters[1]!, 'Power.Active.Import').value);
    expect(sample(meters[0]!, 'Power.Active.Import').unit).toBe('W');
    expect(e2).toBeGreaterThan(e1);
    expect(e1).toBeGreaterThan(20);
    // Above 80 % the power tapers below the 300 W bulk rate.
    expect(p1).toBeLessThan(300);
    expect(p2).toBeLessThan(p1);
    const stop = of('CP-SESSION', 'StopTransaction')[0]!.params;
    expect(stop).toMatchObject({
      transactionId: txId,
      meterStop: e2,
      reason: 'EVDisconnected',
      idTag: '12345678',
    });
  });

  it('queues transaction messages offline and resends them in order with the right transaction id', async () => {
    const cp = point('CP-OFFLINE');
    await cp.goOnline();
    await waitFor(() => cp.bootStatus === 'Accepted' && of('CP-OFFLINE', 'StatusNotification').length === 3);
    await cp.plugIn(1, { soc: 0.2 });
    const first = await cp.swipe(1, 'AAAA1111');
    await cp.goOffline();
    await cp.advance(300);
    await cp.unplug(1);
    // A session started while offline: accepted locally, its id comes from the queued StartTransaction.
    await cp.plugIn(2, { soc: 0.5 });
    expect(await cp.swipe(2, 'BBBB2222')).toEqual({ status: 'Accepted' });
    await cp.advance(300);
    await cp.stop(2);
    expect(cp.queued).toBe(5);
    const before = received.length;
    await cp.goOnline();
    await waitFor(() => cp.queued === 0 && of('CP-OFFLINE', 'StopTransaction').length === 2);
    const after = received
      .slice(before)
      .filter((r) => r.identity === 'CP-OFFLINE' && r.method !== 'StatusNotification');
    expect(after.map((r) => r.method)).toEqual([
      'MeterValues',
      'StopTransaction',
      'StartTransaction',
      'MeterValues',
      'StopTransaction',
    ]);
    expect(after[0]!.params.transactionId).toBe(first.transactionId);
    expect(after[1]!.params.transactionId).toBe(first.transactionId);
    const secondId = of('CP-OFFLINE', 'StartTransaction').length && cp.connectors[1]!.transaction;
    expect(secondId).toBeUndefined();
    expect(after[3]!.params.transactionId).toBe(after[4]!.params.transactionId);
    expect(after[4]!.params.transactionId).not.toBe(first.transactionId);
    expect(after[4]!.params.reason).toBe('Local');
  });

  it('loses its transaction in a power cycle: no StopTransaction, a new boot, Finishing with the bike still in', async () => {
    const cp = point('CP-POWER', 2);
    await cp.goOnline();
    await waitFor(() => cp.bootStatus === 'Accepted' && of('CP-POWER', 'StatusNotification').length === 3);
    await cp.plugIn(1, { soc: 0.4 });
    const started = await cp.swipe(1, 'CCCC3333');
    expect(started.status).toBe('Accepted');
    await cp.goOffline();
    await cp.advance(300); // a MeterValues queued while offline: lost with the power
    expect(cp.queued).toBe(1);
    const before = received.length;
    await cp.powerCycle();
    const since = () => received.slice(before).filter((r) => r.identity === 'CP-POWER');
    const after = since();
    expect(after.map((r) => [r.method, r.params.connectorId, r.params.status])).toEqual([
      ['BootNotification', undefined, undefined],
      ['StatusNotification', 0, 'Available'],
      ['StatusNotification', 1, 'Finishing'],
      ['StatusNotification', 2, 'Available'],
    ]);
    expect(cp.connector(1).transaction).toBeUndefined();
    expect(cp.queued).toBe(0);
    expect(of('CP-POWER', 'StopTransaction')).toEqual([]);
    await cp.unplug(1);
    await waitFor(() => since().length === 5);
    expect(since().at(-1)!.params).toMatchObject({
      connectorId: 1,
      status: 'Available',
    });
  });

  it('answers the central system: remote start and stop, availability, configuration, trigger, unlock, reset', async () => {
    const cp = point('CP-CALLS');
    await cp.goOnline();
    await waitFor(() => cp.bootStatus === 'Accepted' && of('CP-CALLS', 'StatusNotification').length === 3);
    const cs = clients.get('CP-CALLS')!;

    expect(await cs.call('RemoteStartTransaction', { connectorId: 1, idTag: 'REMOTE01' })).toEqual({
      status: 'Rejected',
    });
    await cp.plugIn(1);
    expect(await cs.call('RemoteStartTransaction', { connectorId: 1, idTag: 'REMOTE01' })).toEqual({
      status: 'Accepted',
    });
    const start = await waitFor(() => of('CP-CALLS', 'StartTransaction')[0]);
    expect(start.params).toMatchObject({ connectorId: 1, idTag: 'REMOTE01' });
    const txId = await waitFor(() => cp.connectors[0]!.transaction?.id);

    expect(await cs.call('ChangeAvailability', { connectorId: 1, type: 'Inoperative' })).toEqual({
      status: 'Scheduled',
    });
    expect(await cs.call('RemoteStopTransaction', { transactionId: 999 })).toEqual({ status: 'Rejected' });
    expect(await cs.call('RemoteStopTransaction', { transactionId: txId })).toEqual({ status: 'Accepted' });
    const stop = await waitFor(() => of('CP-CALLS', 'StopTransaction')[0]);
    expect(stop.params).toMatchObject({ transactionId: txId, reason: 'Remote' });
    await waitFor(() => cp.connectors[0]!.status === 'Unavailable');
    expect(await cs.call('ChangeAvailability', { connectorId: 0, type: 'Operative' })).toEqual({
      status: 'Accepted',
    });
    await waitFor(() => cp.connectors[0]!.status === 'Preparing');

    expect(await cs.call('GetConfiguration', { key: ['HeartbeatInterval', 'Nope'] })).toEqual({
      configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }],
      unknownKey: ['Nope'],
    });
    expect(await cs.call('ChangeConfiguration', { key: 'HeartbeatInterval', value: '120' })).toEqual({
      status: 'Accepted',
    });
    expect(await cs.call('ChangeConfiguration', { key: 'NumberOfConnectors', value: '4' })).toEqual({
      status: 'Rejected',
    });
    expect(await cs.call('ChangeConfiguration', { key: 'Nope', value: '1' })).toEqual({
      status: 'NotSupported',
    });

    const count = of('CP-CALLS', 'Heartbeat').length;
    expect(await cs.call('TriggerMessage', { requestedMessage: 'Heartbeat' })).toEqual({
      status: 'Accepted',
    });
    await waitFor(() => of('CP-CALLS', 'Heartbeat').length === count + 1);
    expect(await cs.call('UnlockConnector', { connectorId: 2 })).toEqual({ status: 'Unlocked' });
    expect(await cs.call('UnlockConnector', { connectorId: 9 })).toEqual({ status: 'NotSupported' });
    await expect(
      cs.call('ReserveNow', {
        connectorId: 1,
        expiryDate: new Date().toISOString(),
        idTag: 'X',
        reservationId: 1,
      }),
    ).rejects.toThrow();

    const boots = of('CP-CALLS', 'BootNotification').length;
    expect(await cs.call('Reset', { type: 'Soft' })).toEqual({ status: 'Accepted' });
    await waitFor(
      () => of('CP-CALLS', 'BootNotification').length === boots + 1 && cp.bootStatus === 'Accepted',
    );
  });

  it('honours ChangeAvailability as an emergency stop uses it: Unavailable, no start while Inoperative, back when Operative', async () => {
    const cp = point('CP-AVAIL');
    await cp.goOnline();
    await waitFor(() => cp.bootStatus === 'Accepted' && of('CP-AVAIL', 'StatusNotification').length === 3);
    const cs = clients.get('CP-AVAIL')!;
    const reported = (connectorId: number) =>
      of('CP-AVAIL', 'StatusNotification')
        .filter((r) => r.params.connectorId === connectorId)
        .map((r) => r.params.status);
    await cp.plugIn(1);
    expect((await cp.swipe(1, 'CARD0001')).transactionId).toBeGreaterThan(0);

    // Behind a running transaction Inoperative is Scheduled; the stop asked next ends it, then it is Unavailable.
    expect(await cs.call('ChangeAvailability', { connectorId: 1, type: 'Inoperative' })).toEqual({
      status: 'Scheduled',
    });
    expect(await cs.call('ChangeAvailability', { connectorId: 2, type: 'Inoperative' })).toEqual({
      status: 'Accepted',
    });
    const txId = cp.connectors[0]!.transaction!.id;
    expect(await cs.call('RemoteStopTransaction', { transactionId: txId })).toEqual({ status: 'Accepted' });
    await waitFor(() => of('CP-AVAIL', 'StopTransaction').length === 1);
    await waitFor(() => reported(1).at(-1) === 'Unavailable' && reported(2).at(-1) === 'Unavailable');

    // Nothing starts while Inoperative: not a swipe with a bike plugged in, not a remote start.
    await cp.plugIn(2);
    expect(cp.connectors[1]!.status).toBe('Unavailable');
    expect((await cp.swipe(1, 'CARD0002')).transactionId).toBeUndefined();
    expect(await cs.call('RemoteStartTransaction', { connectorId: 2, idTag: 'CARD0003' })).toEqual({
      status: 'Rejected',
    });
    expect(of('CP-AVAIL', 'StartTransaction')).toHaveLength(1);

    // Operative again: the plugged-in connectors wait for a card, and a start goes through.
    for (const connectorId of [1, 2])
      expect(await cs.call('ChangeAvailability', { connectorId, type: 'Operative' })).toEqual({
        status: 'Accepted',
      });
    await waitFor(() => reported(1).at(-1) === 'Preparing' && reported(2).at(-1) === 'Preparing');
    expect((await cp.swipe(2, 'CARD0002')).transactionId).toBeGreaterThan(0);
  });

  it('takes the configuration a central system sets: known measurands, Temperature only with a sensor, the unplug flag', async () => {
    const plain = point('CP-CONF');
    const sensor = new ChargePoint({
      url,
      id: 'CP-CONF-T',
      password: PASSWORD,
      connectors: 1,
      timers: false,
      callTimeoutMs: 5000,
      temperature: true,
    });
    points.push(sensor);
    await plain.goOnline();
    await sensor.goOnline();
    await waitFor(() => plain.bootStatus === 'Accepted' && sensor.bootStatus === 'Accepted');
    const cs = clients.get('CP-CONF')!;
    const ts = clients.get('CP-CONF-T')!;
    const value = async (client: ServerClient, key: string) =>
      (
        (await client.call('GetConfiguration', { key: [key] })) as {
          configurationKey: { key: string; readonly: boolean; value: string }[];
        }
      ).configurationKey[0];

    expect(await value(cs, 'StopTransactionOnEVSideDisconnect')).toEqual({
      key: 'StopTransactionOnEVSideDisconnect',
      readonly: false,
      value: 'true',
    });
    expect(await value(cs, 'MeterValuesSampledData')).toMatchObject({ readonly: false });
    const change = (client: ServerClient, key: string, v: string) =>
      client.call('ChangeConfiguration', { key, value: v });
    expect(await change(cs, 'StopTransactionOnEVSideDisconnect', 'FALSE')).toEqual({ status: 'Accepted' });
    expect((await value(cs, 'StopTransactionOnEVSideDisconnect'))!.value).toBe('false');
    expect(await change(cs, 'StopTransactionOnEVSideDisconnect', 'maybe')).toEqual({ status: 'Rejected' });
    // Unknown measurands, and Temperature without a sensor, are refused; the list stays as it was.
    const withTemperature = 'Energy.Active.Import.Register,Power.Active.Import,Temperature';
    expect(await change(cs, 'MeterValuesSampledData', 'Energy.Active.Import.Register,Nope')).toEqual({
      status: 'Rejected',
    });
    expect(await change(cs, 'MeterValuesSampledData', withTemperature)).toEqual({ status: 'Rejected' });
    expect((await value(cs, 'MeterValuesSampledData'))!.value).toBe(
      'Energy.Active.Import.Register,Power.Active.Import',
    );
    expect(await change(cs, 'MeterValuesSampledData', 'Energy.Active.Import.Register')).toEqual({
      status: 'Accepted',
    });
    expect(await change(ts, 'MeterValuesSampledData', withTemperature)).toEqual({ status: 'Accepted' });

    // What each now meters: the register only; the register, power and temperature.
    for (const cp of [plain, sensor]) {
      await cp.plugIn(1, { soc: 0.5, capacityWh: 500 });
      expect((await cp.swipe(1, '12345678')).status).toBe('Accepted');
      await cp.advance(60);
    }
    const measurands = (id: string) =>
      (
        of(id, 'MeterValues')[0]!.params.meterValue as {
          sampledValue: { measurand: string; unit: string }[];
        }[]
      )[0]!.sampledValue.map((v) => `${v.measurand}:${v.unit}`);
    expect(measurands('CP-CONF')).toEqual(['Energy.Active.Import.Register:Wh']);
    expect(measurands('CP-CONF-T')).toEqual([
      'Energy.Active.Import.Register:Wh',
      'Power.Active.Import:W',
      'Temperature:Celsius',
    ]);
  });

  it('reports a fault with the e-bike vendor error code and clears it', async () => {
    const sim = new Simulator({
      url,
      points: ['CP-FAULT'],
      connectors: 2,
      password: PASSWORD,
      timers: false,
    });
    points.push(sim.point('CP-FAULT'));
    expect(await sim.start()).toEqual([]);
    await waitFor(
      () =>
        sim.point('CP-FAULT').bootStatus === 'Accepted' && of('CP-FAULT', 'StatusNotification').length === 3,
    );
    await sim.fault('CP-FAULT', 2, 'OtherError', 'RelayStuck');
    await sim.clearFault('CP-FAULT', 2);
    const reports = of('CP-FAULT', 'StatusNotification').filter((r) => r.params.connectorId === 2);
    expect(reports[1]!.params).toMatchObject({
      status: 'Faulted',
      errorCode: 'OtherError',
      vendorErrorCode: 'RelayStuck',
    });
    expect(reports[2]!.params).toMatchObject({ status: 'Available', errorCode: 'NoError' });
    expect(sim.snapshot()[0]!.connectors[1]).toMatchObject({ status: 'Available', plugged: false });
  });

  it('is driven through the HTTP control API', async () => {
    const sim = new Simulator({ url, points: ['CP-HTTP'], connectors: 2, password: PASSWORD, timers: false });
    points.push(sim.point('CP-HTTP'));
    await sim.start();
    await waitFor(
      () =>
        sim.point('CP-HTTP').bootStatus === 'Accepted' && of('CP-HTTP', 'StatusNotification').length === 3,
    );
    const api = await startControlApi(sim);
    try {
      const post = (path: string, body: unknown = {}) =>
        fetch(`${api.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect((await post('/points/CP-HTTP/connectors/1/plug-in', { soc: 40 })).status).toBe(200);
      const swiped = await post('/points/CP-HTTP/connectors/1/swipe', { idTag: 'HTTP0001' });
      expect(await swiped.json()).toMatchObject({ status: 'Accepted', transactionId: expect.any(Number) });
      expect((await post('/points/CP-HTTP/connectors/1/power', { watts: 180 })).status).toBe(200);
      expect((await post('/points/NOPE/connectors/1/unplug')).status).toBe(404);
      const snapshot = (await (await fetch(`${api.url}/points`)).json()) as ReturnType<Simulator['snapshot']>;
      expect(snapshot[0]!.connectors[0]).toMatchObject({
        status: 'Charging',
        plugged: true,
        soc: 40,
        idTag: 'HTTP0001',
      });
      expect((await post('/points/CP-HTTP/connectors/1/unplug')).status).toBe(200);
      expect(of('CP-HTTP', 'StopTransaction')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});
