import type { AddressInfo } from 'node:net';
import { RPCServer } from 'ocpp-rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChargePoint, Simulator, startControlApi } from '../src/index.ts';

/**
 * Smart charging in the simulator (issue 30, zone power budget): a charge point told it supports SmartCharging
 * lists it, takes a TxProfile on its running transaction and draws no more than the limit; it can be made to
 * draw more than its share; one without it answers NotImplemented. Against a minimal strict central system.
 */
interface ServerClient {
  identity: string;
  call(method: string, params?: unknown): Promise<Record<string, unknown>>;
  handle(method: string, handler: (args: { params: Record<string, unknown> }) => unknown): void;
  handle(handler: (args: { method?: string; params?: Record<string, unknown> }) => unknown): void;
  on(event: string, listener: (event: unknown) => void): void;
}

let server: RPCServer;
let url = '';
const clients = new Map<string, ServerClient>();
const meter = new Map<string, number[]>();
const failures: unknown[] = [];
let nextTx = 500;

beforeAll(async () => {
  server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true });
  server.auth((accept) => accept({}));
  server.on('client', (raw: unknown) => {
    const client = raw as ServerClient;
    clients.set(client.identity, client);
    client.on('strictValidationFailure', (e: unknown) => failures.push(e));
    const now = () => new Date().toISOString();
    client.handle('BootNotification', () => ({ status: 'Accepted', currentTime: now(), interval: 300 }));
    client.handle('StatusNotification', () => ({}));
    client.handle('Authorize', () => ({ idTagInfo: { status: 'Accepted' } }));
    client.handle('StartTransaction', () => ({ idTagInfo: { status: 'Accepted' }, transactionId: nextTx++ }));
    client.handle('MeterValues', ({ params }) => {
      const values = params.meterValue as { sampledValue: { measurand?: string; value: string }[] }[];
      for (const mv of values)
        for (const s of mv.sampledValue)
          if (s.measurand === 'Power.Active.Import')
            meter.set(client.identity, [...(meter.get(client.identity) ?? []), Number(s.value)]);
      return {};
    });
    client.handle('StopTransaction', () => ({ idTagInfo: { status: 'Accepted' } }));
    client.handle(() => ({}));
  });
  const http = await server.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ocpp`;
});

afterAll(async () => {
  await server.close({ force: true });
});

const points: ChargePoint[] = [];
afterEach(async () => {
  await Promise.all(points.splice(0).map((cp) => cp.close()));
  expect(failures).toEqual([]);
});

async function charging(id: string, smartCharging: boolean): Promise<{ cp: ChargePoint; tx: number }> {
  const cp = new ChargePoint({ url, id, connectors: 2, timers: false, smartCharging, callTimeoutMs: 5000 });
  points.push(cp);
  await cp.goOnline();
  for (let i = 0; i < 200 && !clients.get(id); i++) await new Promise((r) => setTimeout(r, 10));
  await cp.plugIn(1, { soc: 0.2 });
  cp.setPower(1, 300);
  const started = await cp.swipe(1, 'CARD0001');
  return { cp, tx: started.transactionId! };
}

const lastPower = (id: string) => meter.get(id)?.at(-1);

const profile = (transactionId: number, limit: number, extra: Record<string, unknown> = {}) => ({
  connectorId: 1,
  csChargingProfiles: {
    chargingProfileId: transactionId,
    transactionId,
    stackLevel: 0,
    chargingProfilePurpose: 'TxProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit }] },
    ...extra,
  },
});

describe('smart charging', () => {
  it('lists SmartCharging, honours a TxProfile limit, replaces it, and draws its bulk rate again once cleared', async () => {
    const { cp, tx } = await charging('SC-ONE', true);
    const server = clients.get('SC-ONE')!;
    const config = await server.call('GetConfiguration', { key: ['SupportedFeatureProfiles'] });
    expect(JSON.stringify(config)).toContain('SmartCharging');

    await cp.advance(60);
    expect(lastPower('SC-ONE')).toBe(300);
    expect(await server.call('SetChargingProfile', profile(tx, 120))).toEqual({ status: 'Accepted' });
    await cp.advance(60);
    expect(lastPower('SC-ONE')).toBe(120);
    // The same profile id replaces the limit.
    expect(await server.call('SetChargingProfile', profile(tx, 180))).toEqual({ status: 'Accepted' });
    await cp.advance(60);
    expect(lastPower('SC-ONE')).toBe(180);
    // A limit in amperes is single-phase at 230 V: 0.5 A = 115 W.
    const amps = profile(tx, 0.5);
    amps.csChargingProfiles.chargingSchedule.chargingRateUnit = 'A';
    expect(await server.call('SetChargingProfile', amps)).toEqual({ status: 'Accepted' });
    await cp.advance(60);
    expect(lastPower('SC-ONE')).toBe(115);

    expect(await server.call('ClearChargingProfile', { id: tx })).toEqual({ status: 'Accepted' });
    expect(await server.call('ClearChargingProfile', { id: tx })).toEqual({ status: 'Unknown' });
    await cp.advance(60);
    expect(lastPower('SC-ONE')).toBe(300);
  });

  it('refuses a TxProfile for another transaction or an idle connector, and forgets it when the transaction ends', async () => {
    const { cp, tx } = await charging('SC-TWO', true);
    const server = clients.get('SC-TWO')!;
    expect(await server.call('SetChargingProfile', profile(tx + 1000, 100))).toEqual({ status: 'Rejected' });
    expect(await server.call('SetChargingProfile', { ...profile(tx, 100), connectorId: 2 })).toEqual({
      status: 'Rejected',
    });
    const max = profile(tx, 100);
    max.csChargingProfiles.chargingProfilePurpose = 'ChargePointMaxProfile';
    expect(await server.call('SetChargingProfile', { ...max, connectorId: 0 })).toEqual({
      status: 'NotSupported',
    });
    expect(await server.call('SetChargingProfile', profile(tx, 100))).toEqual({ status: 'Accepted' });
    await cp.stop(1);
    expect(await server.call('ClearChargingProfile', { id: tx })).toEqual({ status: 'Unknown' });
  });

  it('can be made to draw more than its limit (overdraw), from code and the HTTP control API', async () => {
    const sim = new Simulator({
      url,
      points: ['SC-OVER'],
      connectors: 2,
      timers: false,
      smartCharging: true,
    });
    const cp = sim.point('SC-OVER');
    points.push(cp);
    await cp.goOnline();
    for (let i = 0; i < 200 && !clients.get('SC-OVER'); i++) await new Promise((r) => setTimeout(r, 10));
    await cp.plugIn(1, { soc: 0.2 });
    cp.setPower(1, 250);
    const tx = (await cp.swipe(1, 'CARD0002')).transactionId!;
    expect(await clients.get('SC-OVER')!.call('SetChargingProfile', profile(tx, 100))).toEqual({
      status: 'Accepted',
    });
    const api = await startControlApi(sim);
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${api.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect((await post('/points/SC-OVER/connectors/1/overdraw', { watts: 400 })).status).toBe(200);
      await cp.advance(60);
      expect(lastPower('SC-OVER')).toBe(400);
      const snapshot = (await (await fetch(`${api.url}/points`)).json()) as {
        connectors: { limitW: number | null; overdrawW: number | null }[];
      }[];
      expect(snapshot[0]!.connectors[0]).toMatchObject({ limitW: 100, overdrawW: 400 });
      expect((await post('/points/SC-OVER/connectors/1/overdraw', { watts: 'lots' })).status).toBe(400);
      expect((await post('/points/SC-OVER/connectors/1/overdraw', { watts: null })).status).toBe(200);
      await cp.advance(60);
      expect(lastPower('SC-OVER')).toBe(100);
    } finally {
      await api.close();
    }
  });

  it('without SmartCharging: not listed, and SetChargingProfile is NotImplemented', async () => {
    const { tx } = await charging('SC-NONE', false);
    const server = clients.get('SC-NONE')!;
    const config = await server.call('GetConfiguration', { key: ['SupportedFeatureProfiles'] });
    expect(JSON.stringify(config)).not.toContain('SmartCharging');
    await expect(server.call('SetChargingProfile', profile(tx, 100))).rejects.toMatchObject({
      rpcErrorCode: 'NotImplemented',
    });
  });
});
