import type { AddressInfo } from 'node:net';
import { RPCServer } from 'ocpp-rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChargePoint, Simulator, startControlApi } from '../src/index.ts';

/**
 * A charger made to overheat (docs/chargers.md "Heat", issue 30): with a sensor and Temperature in its
 * MeterValuesSampledData, its body (connector 0) or a connector reads what the demo or test sets, and reports it
 * at once and with every later sample; without either, nothing about temperature leaves it. Against a minimal
 * strict central system that records what it receives.
 */
interface ServerClient {
  identity: string;
  call(method: string, params?: unknown): Promise<unknown>;
  handle(method: string, handler: (args: { params: Record<string, unknown> }) => unknown): void;
  handle(handler: (args: { method?: string; params?: Record<string, unknown> }) => unknown): void;
  on(event: string, listener: (event: unknown) => void): void;
}
interface Sample {
  value: string;
  measurand?: string;
  unit?: string;
  location?: string;
}
interface MeterValues {
  connectorId: number;
  transactionId?: number;
  meterValue: { timestamp: string; sampledValue: Sample[] }[];
}

const PASSWORD = 'sim-heat-secret';
let server: RPCServer;
let url = '';
const clients = new Map<string, ServerClient>();
const meters: { identity: string; params: MeterValues }[] = [];
const failures: unknown[] = [];
const points: ChargePoint[] = [];

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
    client.handle('StartTransaction', () => ({ idTagInfo: { status: 'Accepted' }, transactionId: 7 }));
    client.handle('MeterValues', ({ params }) => {
      meters.push({ identity: client.identity, params: params as unknown as MeterValues });
      return {};
    });
    client.handle('StopTransaction', () => ({}));
    client.handle(() => ({}));
  });
  const http = await server.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ocpp`;
});

afterAll(async () => {
  await Promise.all(points.map((p) => p.close()));
  await server.close({ force: true });
});

afterEach(() => {
  meters.length = 0;
  expect(failures).toEqual([]);
});

async function online(id: string, temperature: boolean): Promise<ChargePoint> {
  const cp = new ChargePoint({ url, id, password: PASSWORD, connectors: 2, timers: false, temperature });
  points.push(cp);
  await cp.goOnline();
  return cp;
}

/** The central system asks for Temperature as Gatehouse's configuration pass does. */
const askTemperature = (id: string) =>
  clients.get(id)!.call('ChangeConfiguration', {
    key: 'MeterValuesSampledData',
    value: 'Energy.Active.Import.Register,Power.Active.Import,Temperature',
  });

const temperatures = (id: string) =>
  meters
    .filter((m) => m.identity === id)
    .flatMap((m) =>
      m.params.meterValue.flatMap((mv) =>
        mv.sampledValue
          .filter((s) => s.measurand === 'Temperature')
          .map((s) => ({
            connectorId: m.params.connectorId,
            transactionId: m.params.transactionId ?? null,
            value: s.value,
            unit: s.unit,
            location: s.location ?? null,
          })),
      ),
    );

describe('overheating on demand', () => {
  it("reports its body's temperature on connector 0 at once and with every sample, until it is normal again", async () => {
    const cp = await online('HEAT-1', true);
    expect(await askTemperature('HEAT-1')).toEqual({ status: 'Accepted' });
    expect(await cp.overheat(85)).toEqual({ reported: true });
    expect(temperatures('HEAT-1')).toEqual([
      { connectorId: 0, transactionId: null, value: '85.0', unit: 'Celsius', location: 'Body' },
    ]);
    await cp.advance(60);
    expect(temperatures('HEAT-1')).toHaveLength(2);
    await cp.overheat(null);
    meters.length = 0;
    await cp.advance(60);
    expect(temperatures('HEAT-1')).toEqual([]);
  });

  it("heats a connector's sensor inside its transaction", async () => {
    const cp = await online('HEAT-2', true);
    await askTemperature('HEAT-2');
    await cp.plugIn(1, { soc: 0.3 });
    await cp.swipe(1, '0012345678');
    meters.length = 0;
    await cp.overheat(72.5, 1);
    expect(temperatures('HEAT-2')).toEqual([
      { connectorId: 1, transactionId: 7, value: '72.5', unit: 'Celsius', location: null },
    ]);
    await cp.advance(30);
    expect(temperatures('HEAT-2').at(-1)).toMatchObject({ connectorId: 1, value: '72.5' });
  });

  it('says nothing about temperature without a sensor, or before the central system asks for it', async () => {
    const bare = await online('HEAT-3', false);
    expect(await askTemperature('HEAT-3')).toEqual({ status: 'Rejected' });
    expect(await bare.overheat(90)).toEqual({ reported: false });
    const sensor = await online('HEAT-4', true);
    expect(await sensor.overheat(90)).toEqual({ reported: false });
    expect(meters).toEqual([]);
  });

  it('is driven through the control API: POST /points/:id/temperature', async () => {
    const sim = new Simulator({
      url,
      points: ['HEAT-5'],
      connectors: 2,
      password: PASSWORD,
      timers: false,
      temperature: true,
    });
    await sim.start();
    await askTemperature('HEAT-5');
    const api = await startControlApi(sim);
    try {
      const post = (body: unknown) =>
        fetch(`${api.url}/points/HEAT-5/temperature`, { method: 'POST', body: JSON.stringify(body) });
      const hot = await post({ celsius: 95 });
      expect(hot.status).toBe(200);
      expect(await hot.json()).toEqual({ reported: true });
      expect(temperatures('HEAT-5')).toEqual([
        { connectorId: 0, transactionId: null, value: '95.0', unit: 'Celsius', location: 'Body' },
      ]);
      expect((await post({ celsius: 'hot' })).status).toBe(400);
      expect((await post({ celsius: null })).status).toBe(200);
      const snapshot = (await (await fetch(`${api.url}/points`)).json()) as {
        bodyTemperatureC: number | null;
      }[];
      expect(snapshot[0]!.bodyTemperatureC).toBeNull();
    } finally {
      await api.close();
      await sim.stop();
    }
  });
});
