import type { AddressInfo } from 'node:net';
import type { ChargerConfiguration, ChargeHostItem } from '@gatehouse/shared';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import { RPCClient } from 'ocpp-rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { wantedConfiguration } from '../src/gateways/ocpp/configuration.ts';
import { auditRows, garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';

/**
 * Issue 30, "Chargers configured by Gatehouse" (docs/chargers.md): on every accepted BootNotification, and on
 * the operator's "configure", one pass reads the charger's configuration and writes what differs from what
 * the safety rules need, once; what each key answered is stored and shown by the host API. Strict OCPP 1.6J
 * clients (ocpp-rpc) play chargers that accept, refuse, lack Temperature or list keys read-only.
 */
const PASSWORD = 'ocpp-config-password-2026';
const SAMPLED = 'MeterValuesSampledData';
const INTERVAL = 'MeterValueSampleInterval';
const UNPLUG = 'StopTransactionOnEVSideDisconnect';
const ENERGY = 'Energy.Active.Import.Register';
const POWER = 'Power.Active.Import';

type Client = InstanceType<typeof RPCClient>;
type Key = { key: string; readonly: boolean; value: string };
const read = (keys: Key[]) => new Map(keys.map((k) => [k.key, { readonly: k.readonly, value: k.value }]));

async function until(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 15));
  }
}

describe('wantedConfiguration', () => {
  const key = (k: string, value: string, readonly = false): Key => ({ key: k, value, readonly });

  it('keeps the charger measurands, adds the three, asks for a sample interval of at most 30 s and the unplug stop', () => {
    const wanted = wantedConfiguration(
      read([
        key(SAMPLED, 'Current.Import,Energy.Active.Import.Register'),
        key(INTERVAL, '60'),
        key(UNPLUG, 'false'),
      ]),
    );
    expect(wanted.map((w) => [w.key, w.wanted, w.unchanged, w.fallback])).toEqual([
      [SAMPLED, `Current.Import,${ENERGY},${POWER},Temperature`, false, `Current.Import,${ENERGY},${POWER}`],
      [INTERVAL, '30', false, null],
      [UNPLUG, 'true', false, null],
    ]);
  });

  it('leaves what already holds alone, whatever the order or case', () => {
    const wanted = wantedConfiguration(
      read([key(SAMPLED, `Temperature,${POWER},${ENERGY}`), key(INTERVAL, '10'), key(UNPLUG, 'TRUE')]),
    );
    expect(wanted.map((w) => w.unchanged)).toEqual([true, true, true]);
    // 0 is "no samples": the rules get none, so it is changed like a long interval.
    expect(wantedConfiguration(read([key(INTERVAL, '0')]))[1]).toMatchObject({
      wanted: '30',
      unchanged: false,
    });
  });

  it('leaves Temperature out up front when MeterValuesSampledDataMaxLength has no room for it', () => {
    const [sampled] = wantedConfiguration(
      read([key(SAMPLED, ENERGY), key('MeterValuesSampledDataMaxLength', '2')]),
    );
    expect(sampled).toMatchObject({ wanted: `${ENERGY},${POWER}`, note: 'noTemperature', fallback: null });
  });

  it('takes an absent key as one to write, and never retries a Temperature the charger listed itself', () => {
    const [sampled, interval] = wantedConfiguration(read([key(SAMPLED, `${ENERGY},Temperature`)]));
    expect(sampled).toMatchObject({
      read: `${ENERGY},Temperature`,
      wanted: `${ENERGY},Temperature,${POWER}`,
    });
    expect(sampled!.fallback).toBeNull();
    expect(interval).toMatchObject({ read: null, wanted: '30', unchanged: false });
  });
});

/** A strict charger whose configuration answers the test decides; it counts every call it receives. */
interface FakeCharger {
  client: Client;
  calls: { action: string; key?: string; value?: string }[];
  changes(key?: string): { key?: string; value?: string }[];
  reads(): number;
}

describeEachDb('OCPP chargers configured by Gatehouse', (h: () => Harness) => {
  let url = '';
  let admin = '';
  let user = '';
  const open: Client[] = [];
  const points: ChargePoint[] = [];
  const failures: unknown[] = [];
  const k = () => h().db.kysely;

  let n = 0;
  async function makeHost(): Promise<{ id: number; serial: string }> {
    const now = h().clock.now();
    const zone = await k()
      .selectFrom('ParkArea')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const serial = `CONF${++n}${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    const host = await k()
      .insertInto('ChargeHost')
      .values({
        AreaId: 1,
        ParkAreaId: zone.Id,
        SerialNumber: serial,
        Name: serial,
        PortCount: 2,
        ChargingSystemType: 2,
        Endpoint: null,
        Account: null,
        Password: null,
        Remark: null,
        LastSeenAt: null,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await setOcppPassword(h().db, host.Id, PASSWORD);
    return { id: host.Id, serial };
  }

  /** Connects a strict client; `keys` is what it reports, `answer` what it says to each change. */
  async function charger(
    serial: string,
    keys: Key[] | 'NotImplemented',
    answer: (key: string, value: string) => string = () => 'Accepted',
  ): Promise<FakeCharger> {
    const client = new RPCClient({
      endpoint: url,
      identity: serial,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
      password: PASSWORD,
    } as ConstructorParameters<typeof RPCClient>[0]);
    client.on('strictValidationFailure', (e: unknown) => failures.push(e));
    const calls: FakeCharger['calls'] = [];
    const values = new Map(keys === 'NotImplemented' ? [] : keys.map((k) => [k.key, k]));
    if (keys !== 'NotImplemented')
      client.handle('GetConfiguration', async ({ params }) => {
        calls.push({ action: 'GetConfiguration' });
        const asked = (params as { key?: string[] }).key;
        return { configurationKey: [...values.values()].filter((v) => !asked || asked.includes(v.key)) };
      });
    client.handle('ChangeConfiguration', async ({ params }) => {
      const { key, value } = params as { key: string; value: string };
      calls.push({ action: 'ChangeConfiguration', key, value });
      const status = answer(key, value);
      if (status === 'Accepted') values.set(key, { key, value, readonly: false });
      return { status };
    });
    open.push(client);
    await client.connect();
    return {
      client,
      calls,
      changes: (key) => calls.filter((c) => c.action === 'ChangeConfiguration' && (!key || c.key === key)),
      reads: () => calls.filter((c) => c.action === 'GetConfiguration').length,
    };
  }

  const boot = (c: FakeCharger) =>
    c.client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-C' });

  /** The host as the API shows it, with its configuration. */
  const hostItem = async (id: number) => {
    const reply = await call<ChargeHostItem>(h().app, 'GET', `/api/ChargeHost/${id}`, {
      token: user,
      area: 1,
    });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  };
  /** Waits for the host's first pass to be stored, and answers it as the API shows it. */
  const firstPass = async (id: number): Promise<ChargerConfiguration> => {
    let found: ChargerConfiguration | null = null;
    await until(async () => (found = (await hostItem(id)).Configuration) !== null);
    return found!;
  };
  const outcomes = (c: ChargerConfiguration) => Object.fromEntries(c.Keys.map((k) => [k.Key, k.Outcome]));
  /** Gives a pass that would loop time to show itself. */
  const settle = () => new Promise((r) => setTimeout(r, 300));

  beforeAll(async () => {
    await h().app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(h().app.server.address() as AddressInfo).port}/ocpp`;
    ({ admin, user } = await garageTokens(h()));
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close({ force: true })));
    expect(failures).toEqual([]);
  });

  afterAll(async () => {
    await Promise.all(points.map((p) => p.close()));
  });

  const STANDARD: Key[] = [
    { key: 'SupportedFeatureProfiles', readonly: true, value: 'Core,SmartCharging,RemoteTrigger' },
    { key: SAMPLED, readonly: false, value: ENERGY },
    { key: INTERVAL, readonly: false, value: '60' },
    { key: UNPLUG, readonly: false, value: 'false' },
  ];

  it('reads and writes the configuration on boot, and the host API shows each key with its outcome', async () => {
    const host = await makeHost();
    expect((await hostItem(host.id)).Configuration).toBeNull();
    const c = await charger(host.serial, STANDARD, (key) => (key === UNPLUG ? 'RebootRequired' : 'Accepted'));
    expect(await boot(c)).toMatchObject({ status: 'Accepted' });
    const pass = await firstPass(host.id);
    expect(c.reads()).toBe(1);
    expect(c.changes()).toEqual([
      { action: 'ChangeConfiguration', key: SAMPLED, value: `${ENERGY},${POWER},Temperature` },
      { action: 'ChangeConfiguration', key: INTERVAL, value: '30' },
      { action: 'ChangeConfiguration', key: UNPLUG, value: 'true' },
    ]);
    expect(pass).toMatchObject({
      At: new Date(h().clock.now()).toISOString(),
      Trigger: 'boot',
      Profiles: ['Core', 'SmartCharging', 'RemoteTrigger'],
      ReadError: null,
    });
    expect(pass.Keys).toEqual([
      {
        Key: SAMPLED,
        Read: ENERGY,
        Wanted: `${ENERGY},${POWER},Temperature`,
        Outcome: 'Accepted',
        Note: null,
      },
      { Key: INTERVAL, Read: '60', Wanted: '30', Outcome: 'Accepted', Note: null },
      { Key: UNPLUG, Read: 'false', Wanted: 'true', Outcome: 'RebootRequired', Note: null },
    ]);
    // The list shows it too; a second boot reads again and finds nothing left to write but the reboot's key.
    const list = await call<{ Items: ChargeHostItem[] }>(h().app, 'GET', '/api/ChargeHost', {
      token: user,
      area: 1,
      query: { Keyword: host.serial },
    });
    expect(list.data.Items[0]!.Configuration).toEqual(pass);
    h().clock.advance(60_000);
    await boot(c);
    await until(async () => c.reads() === 2 && (await hostItem(host.id)).Configuration!.At !== pass.At);
    await settle();
    expect(outcomes((await hostItem(host.id)).Configuration!)).toEqual({
      [SAMPLED]: 'Unchanged',
      [INTERVAL]: 'Unchanged',
      [UNPLUG]: 'RebootRequired',
    });
    // RebootRequired is shown, never acted on: Gatehouse does not reset the charger for it.
    expect(c.changes()).toHaveLength(4);
  });

  it('shows a refused key as refused and does not retry it: no Temperature, a read-only key, a rejection', async () => {
    const host = await makeHost();
    const c = await charger(
      host.serial,
      [
        { key: SAMPLED, readonly: false, value: `Current.Import,${ENERGY}` },
        { key: INTERVAL, readonly: true, value: '60' },
        { key: UNPLUG, readonly: false, value: 'false' },
      ],
      (key, value) =>
        key === SAMPLED && value.includes('Temperature')
          ? 'Rejected'
          : key === UNPLUG
            ? 'Rejected'
            : 'Accepted',
    );
    await boot(c);
    const pass = await firstPass(host.id);
    await settle();
    // The measurands once with Temperature and once without; the read-only key never; the refused flag once.
    expect(c.changes().map((x) => [x.key, x.value])).toEqual([
      [SAMPLED, `Current.Import,${ENERGY},${POWER},Temperature`],
      [SAMPLED, `Current.Import,${ENERGY},${POWER}`],
      [UNPLUG, 'true'],
    ]);
    expect(c.reads()).toBe(1);
    expect(pass.Profiles).toBeNull();
    expect(pass.Keys).toEqual([
      {
        Key: SAMPLED,
        Read: `Current.Import,${ENERGY}`,
        Wanted: `Current.Import,${ENERGY},${POWER}`,
        Outcome: 'Accepted',
        Note: 'noTemperature',
      },
      { Key: INTERVAL, Read: '60', Wanted: '30', Outcome: 'ReadOnly', Note: null },
      { Key: UNPLUG, Read: 'false', Wanted: 'true', Outcome: 'Rejected', Note: null },
    ]);
  });

  it('makes exactly one pass per boot on a charger that refuses everything, or cannot be read', async () => {
    const host = await makeHost();
    const c = await charger(host.serial, STANDARD, () => 'Rejected');
    await boot(c);
    const first = await firstPass(host.id);
    await settle();
    // Per pass: the measurands with Temperature, then without (the one retry), the interval, the flag.
    expect(c.reads()).toBe(1);
    expect(c.changes()).toHaveLength(4);
    expect(outcomes(first)).toEqual({ [SAMPLED]: 'Rejected', [INTERVAL]: 'Rejected', [UNPLUG]: 'Rejected' });
    h().clock.advance(60_000);
    await boot(c);
    await until(() => c.reads() === 2 && c.changes().length === 8);
    await settle();
    expect(c.reads()).toBe(2);
    expect(c.changes()).toHaveLength(8);

    // GetConfiguration not implemented: the pass says so and writes nothing.
    const quiet = await makeHost();
    const q = await charger(quiet.serial, 'NotImplemented');
    await boot(q);
    const pass = await firstPass(quiet.id);
    await settle();
    expect(pass).toMatchObject({ ReadError: 'NotImplemented', Keys: [], Profiles: null });
    expect(q.changes()).toEqual([]);
  });

  it('configures on the operator action, refused to other areas, without the code and when not connected', async () => {
    const host = await makeHost();
    const c = await charger(host.serial, STANDARD, (key) => (key === INTERVAL ? 'NotSupported' : 'Accepted'));
    await boot(c);
    await firstPass(host.id);
    await until(() => c.reads() === 1);
    const configure = (token: string, area: number, id = host.id) =>
      call<ChargerConfiguration>(h().app, 'POST', '/api/ChargeHost/Configure', {
        token,
        area,
        lang: 'en',
        body: { Id: id },
      });
    h().clock.advance(5_000);
    const reply = await configure(admin, 1);
    expect(reply.status, reply.msg).toBe(200);
    expect(reply.data).toMatchObject({ Trigger: 'operator', At: new Date(h().clock.now()).toISOString() });
    expect(outcomes(reply.data)).toEqual({
      [SAMPLED]: 'Unchanged',
      [INTERVAL]: 'NotSupported',
      [UNPLUG]: 'Unchanged',
    });
    expect(c.reads()).toBe(2);
    // The unsupported interval was asked once per pass: at boot and now.
    expect(c.changes(INTERVAL)).toHaveLength(2);
    expect((await hostItem(host.id)).Configuration).toEqual(reply.data);
    const audits = await auditRows(h(), 'ChargeHost', host.id);
    expect(audits.map((a) => a.Action)).toContain('configure');

    expect((await configure(user, 1)).status).toBe(403);
    // bikeadmin also works in area 2, where this host is not.
    expect((await configure(admin, 2)).status).toBe(404);
    await c.client.close({ force: true });
    await until(async () => {
      const row = await k()
        .selectFrom('ChargeHost')
        .select('OcppOnline')
        .where('Id', '=', host.id)
        .executeTakeFirst();
      return row?.OcppOnline === 0;
    });
    const offline = await configure(admin, 1);
    expect(offline.status).toBe(409);
    expect(offline.msg).toBe(
      'The host is not connected: its configuration cannot be read or written until it connects',
    );
    const zh = await call(h().app, 'POST', '/api/ChargeHost/Configure', {
      token: admin,
      area: 1,
      body: { Id: host.id },
    });
    expect(zh.msg).toBe('主机未连接，无法读取或写入其配置，请在其连接后重试');
  });

  it('configures the simulator: Temperature where it has a sensor, refused and left out where it has none', async () => {
    const results: Record<string, ChargerConfiguration> = {};
    for (const temperature of [true, false]) {
      const host = await makeHost();
      const cp = new ChargePoint({
        url,
        id: host.serial,
        password: PASSWORD,
        connectors: 2,
        timers: false,
        temperature,
        now: () => h().clock.now(),
      });
      points.push(cp);
      await cp.goOnline();
      await until(() => cp.bootStatus === 'Accepted');
      const pass = await firstPass(host.id);
      results[String(temperature)] = pass;
      const get = (key: string) => cp.configuration.get([key]).configurationKey[0]!.value;
      expect(get(INTERVAL)).toBe('30');
      expect(get(UNPLUG)).toBe('true');
      expect(get(SAMPLED)).toBe(temperature ? `${ENERGY},${POWER},Temperature` : `${ENERGY},${POWER}`);
    }
    expect(results.true!.Keys.map((k) => [k.Key, k.Outcome, k.Note])).toEqual([
      [SAMPLED, 'Accepted', null],
      [INTERVAL, 'Accepted', null],
      [UNPLUG, 'Unchanged', null],
    ]);
    // Without a sensor: refused with Temperature, and the list without it is what the charger holds already.
    expect(results.false!.Keys.map((k) => [k.Key, k.Outcome, k.Note])).toEqual([
      [SAMPLED, 'Unchanged', 'noTemperature'],
      [INTERVAL, 'Accepted', null],
      [UNPLUG, 'Unchanged', null],
    ]);
    expect(results.false!.Profiles).toEqual(['Core', 'RemoteTrigger']);
  });
});
