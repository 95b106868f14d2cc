import type { AddressInfo } from 'node:net';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import Fastify from 'fastify';
import { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { Metrics, serveMetrics } from '../src/platform/metrics.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

const TOKEN = 'metrics-test-token-0123456789abcdef';

/** One sample of the text format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format (version 0.0.4) as prom-client writes it: every line is a HELP,
 * a TYPE or a sample; a sample's name belongs to a family declared by TYPE before it (histograms add _bucket,
 * _sum and _count); label values are quoted with \\, \" and \n escapes; values are floats, NaN or ±Inf. Throws
 * on anything else, so a malformed answer fails the test.
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleLine = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
  const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"(?:,|$)/;
  expect(text.endsWith('\n'), 'the text ends with a newline').toBe(true);
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const where = `line ${index + 1}: ${line}`;
    if (line.startsWith('# HELP ')) {
      expect(line, where).toMatch(new RegExp(`^# HELP ${NAME} .*$`));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      expect(m, where).not.toBeNull();
      expect(types.has(m![1]!), `${where}: declared twice`).toBe(false);
      types.set(m![1]!, m![2]!);
      continue;
    }
    expect(line.startsWith('#'), `${where}: unknown comment`).toBe(false);
    const m = sampleLine.exec(line);
    expect(m, where).not.toBeNull();
    const [, name, labelText = '', valueText] = m!;
    const labels: Record<string, string> = {};
    let rest = labelText;
    while (rest.length > 0) {
      const pair = labelPair.exec(rest);
      expect(pair, `${where}: labels`).not.toBeNull();
      labels[pair![1]!] = pair![2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
      rest = rest.slice(pair![0].length);
    }
    // Values are read as Go's ParseFloat reads them (Prometheus): NaN and infinities in any case (prom-client
    // writes an unset average as "Nan").
    const nan = /^nan$/i.test(valueText!);
    const value = /^\+?inf$/i.test(valueText!)
      ? Infinity
      : /^-inf$/i.test(valueText!)
        ? -Infinity
        : nan
          ? NaN
          : Number(valueText);
    expect(nan || (valueText !== '' && !Number.isNaN(value)), `${where}: value`).toBe(true);
    const family = [name!, name!.replace(/_(bucket|sum|count)$/, '')].find((f) => types.has(f));
    expect(family, `${where}: no TYPE before it`).toBeDefined();
    if (family !== name) expect(types.get(family!), where).toMatch(/histogram|summary/);
    if (name!.endsWith('_bucket')) expect(labels.le, `${where}: a bucket without le`).toBeDefined();
    samples.push({ name: name!, labels, value });
  }
  return { types, samples };
}

/** The value of one series (labels matched as given), 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function until(check: () => Promise<boolean>, ms = 20_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('metrics configuration', () => {
  it('reads METRICS_PORT and METRICS_TOKEN: neither by default, each validated with a named error', () => {
    expect(loadConfig({}).metrics).toEqual({ listen: null, token: null });
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '10.0.0.5' }).metrics.listen).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
    expect(loadConfig({ METRICS_PORT: '127.0.0.1:9464' }).metrics.listen).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics.listen).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metrics.token).toBe(TOKEN);
    for (const [name, value] of [
      ['METRICS_PORT', 'metrics'],
      ['METRICS_PORT', '70000'],
      ['METRICS_PORT', '8080'],
      ['METRICS_TOKEN', 'short'],
      ['METRICS_TOKEN', 'a token with spaces in it'],
    ])
      expect(() => loadConfig({ [name!]: value }), `${name}=${value}`).toThrowError(
        new ConfigError(name!, '').message.split(':')[0]!,
      );
  });
});

describe('the METRICS_PORT listener with METRICS_TOKEN set', () => {
  it('asks for the token there too', async () => {
    const app = Fastify({ logger: false });
    const served = serveMetrics(app, new Metrics(), {
      listen: { host: '127.0.0.1', port: 0 },
      token: TOKEN,
    });
    await app.ready();
    try {
      const url = `http://127.0.0.1:${served.address()!.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(
        401,
      );
      const reply = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(reply.status).toBe(200);
      expect(parsePrometheus(await reply.text()).types.get('gatehouse_swipes_ingested_total')).toBe(
        'counter',
      );
    } finally {
      await app.close();
    }
  });
});

describeEachDb('metrics without METRICS_PORT or METRICS_TOKEN', (h) => {
  it('answers 404 on the public port, with or without a bearer token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const reply = await h().app.inject({ method: 'GET', url: '/metrics', headers });
      expect(reply.statusCode).toBe(404);
    }
    expect(h().metricsAddress()).toBeUndefined();
  });
});

describeEachDb(
  'metrics on the public port behind METRICS_TOKEN',
  (h) => {
    const scrape = async () => {
      const reply = await h().app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return parsePrometheus(reply.body);
    };

    it('refuses a scraper without the token or with another one', async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
        const reply = await h().app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(reply.statusCode, String(authorization)).toBe(401);
        expect(reply.body).not.toContain('gatehouse_');
      }
    });

    it('parses as Prometheus text with every family issue 29 asks for, and the process figures', async () => {
      const { types, samples } = await scrape();
      expect(Object.fromEntries(types)).toMatchObject({
        http_requests_total: 'counter',
        http_request_duration_seconds: 'histogram',
        gatehouse_wg_controllers: 'gauge',
        gatehouse_wg_sync_backlog: 'gauge',
        gatehouse_swipes_ingested_total: 'counter',
        gatehouse_ocpp_connections: 'gauge',
        gatehouse_ocpp_messages_total: 'counter',
        gatehouse_charging_sessions_open: 'gauge',
        gatehouse_power_offs_total: 'counter',
        gatehouse_db_pool_connections: 'gauge',
        process_cpu_user_seconds_total: 'counter',
        nodejs_eventloop_lag_seconds: 'gauge',
      });
      // The database's own figures, read at the scrape.
      const pending = await h()
        .db.kysely.selectFrom('CardUserLinkChannel')
        .select(sql<number>`count(*)`.as('n'))
        .where('IssueStatus', 'in', [1, 2, -1])
        .executeTakeFirstOrThrow();
      expect(valueOf(samples, 'gatehouse_wg_sync_backlog')).toBe(Number(pending.n));
      const open = await h()
        .db.kysely.selectFrom('ChargeRecord')
        .select(sql<number>`count(*)`.as('n'))
        .where('EndAt', 'is', null)
        .executeTakeFirstOrThrow();
      expect(valueOf(samples, 'gatehouse_charging_sessions_open')).toBe(Number(open.n));
      // A pool on PostgreSQL (at least the connection this scrape used, now idle); none on SQLite.
      const pool = samples.filter((s) => s.name === 'gatehouse_db_pool_connections');
      if (h().dialect === 'postgres') {
        expect(pool.map((s) => s.labels.state).sort()).toEqual(['idle', 'in_use', 'waiting']);
        expect(valueOf(samples, 'gatehouse_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
      } else expect(pool).toEqual([]);
      // Outcomes exist from the first scrape, at zero: an alert on a rate never waits for the first event.
      expect(
        samples.filter((s) => s.name === 'gatehouse_power_offs_total').map((s) => s.labels.outcome),
      ).toEqual(expect.arrayContaining(['sent', 'cut', 'failed', 'not_sent', 'confirmed']));
    });

    it('counts HTTP requests by route template and status, never by URL', async () => {
      const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
      const before = (await scrape()).samples;
      const labels = { method: 'GET', route: '/api/CardUser/:Id', status_code: '404' };
      for (const id of [999_001, 999_002, 999_003])
        expect((await call(h().app, 'GET', `/api/CardUser/${id}`, { token, area: 1 })).status).toBe(404);
      await h().app.inject({ method: 'GET', url: '/no/such/page/4242' });
      const { samples } = await scrape();
      expect(
        valueOf(samples, 'http_requests_total', labels) - valueOf(before, 'http_requests_total', labels),
      ).toBe(3);
      expect(
        valueOf(samples, 'http_request_duration_seconds_count', labels) -
          valueOf(before, 'http_request_duration_seconds_count', labels),
      ).toBe(3);
      expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
        valueOf(samples, 'http_request_duration_seconds_count', labels),
      );
      const routes = new Set(
        samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route),
      );
      expect([...routes].some((r) => r?.includes('999001') || r?.includes('4242'))).toBe(false);
      expect(routes).toContain('unmatched');
    });

    it('counts OCPP messages by action as a charge point talks, its connection, and a power-off by outcome', async () => {
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
      await setOcppPassword(h().db, host.Id, 'metrics-ocpp-password');
      const before = (await scrape()).samples;
      const cp = new ChargePoint({
        url: `ws://127.0.0.1:${port}/ocpp`,
        id: host.SerialNumber,
        password: 'metrics-ocpp-password',
        connectors: 2,
        timers: false,
        now: () => h().clock.now(),
      });
      try {
        await cp.goOnline();
        await until(async () => cp.bootStatus === 'Accepted', 10_000, 'boot accepted');
        // Boot, then a status per connector (and the charger as a whole).
        await until(
          async () =>
            valueOf((await scrape()).samples, 'gatehouse_ocpp_messages_total', {
              action: 'StatusNotification',
              direction: 'in',
            }) -
              valueOf(before, 'gatehouse_ocpp_messages_total', {
                action: 'StatusNotification',
                direction: 'in',
              }) >=
            2,
          10_000,
          'status notifications counted',
        );
        const { samples } = await scrape();
        const moved = (labels: Record<string, string>) =>
          valueOf(samples, 'gatehouse_ocpp_messages_total', labels) -
          valueOf(before, 'gatehouse_ocpp_messages_total', labels);
        expect(moved({ action: 'BootNotification', direction: 'in' })).toBe(1);
        expect(valueOf(samples, 'gatehouse_ocpp_connections')).toBe(1);

        // A socket without a session is switched off (ChangeAvailability, accepted): a power-off "cut", and
        // a call sent to the charge point.
        const socket = await k
          .selectFrom('ChargeEquipment')
          .select('Id')
          .where('ChargeHostId', '=', host.Id)
          // The simulated charge point has two connectors.
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
        const cut = await call<{ Result: number }>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
          token,
          area: host.AreaId,
          body: { ChargeEquipmentId: socket.Id, Reason: 'metrics test' },
        });
        expect(cut.status, cut.msg).toBe(200);
        const after = (await scrape()).samples;
        expect(
          valueOf(after, 'gatehouse_power_offs_total', { outcome: 'cut' }) -
            valueOf(before, 'gatehouse_power_offs_total', { outcome: 'cut' }),
        ).toBe(1);
        expect(
          valueOf(after, 'gatehouse_ocpp_messages_total', {
            action: 'ChangeAvailability',
            direction: 'out',
          }) -
            valueOf(before, 'gatehouse_ocpp_messages_total', {
              action: 'ChangeAvailability',
              direction: 'out',
            }),
        ).toBe(1);
      } finally {
        await cp.close();
      }
      await until(
        async () => valueOf((await scrape()).samples, 'gatehouse_ocpp_connections') === 0,
        10_000,
        'the connection gone',
      );
    });

    it('counts the records a WG controller pushes as they are stored', async () => {
      const k = h().db.kysely;
      const device = await k
        .selectFrom('AccessControlDevice')
        .select(['Id', 'SerialNumber'])
        .where('AreaId', '=', 1)
        .where('Protocol', '=', 0)
        .where('Disabled', '=', 0)
        .where('SerialNumber', 'like', '2%')
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      const serial = Number(device.SerialNumber);
      const sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: 'Asia/Shanghai' });
      await fleetOfSimulated(h().db, sim, [device]);
      // Started by hand (tests never run the app's own WG gateway), counting into the app's metrics.
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
        metrics: h().metrics,
      });
      const ingested = async () => valueOf((await scrape()).samples, 'gatehouse_swipes_ingested_total');
      const stored = async () => {
        const row = await k
          .selectFrom('DoorOpeningRecord')
          .select(sql<number>`count(*)`.as('n'))
          .where('DeviceId', '=', device.Id)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      };
      try {
        // The controller is configured (its listener pointed at the gateway) before it is swiped at.
        await until(
          async () =>
            !!(
              await k
                .selectFrom('AccessControlDeviceState')
                .select('ListenerAddress')
                .where('DeviceId', '=', device.Id)
                .executeTakeFirst()
            )?.ListenerAddress,
          20_000,
          'the controller configured',
        );
        const [countedBefore, storedBefore] = [await ingested(), await stored()];
        for (let i = 0; i < 5; i++) sim.swipe(serial, 4_000_000 + i, 1);
        await until(async () => (await stored()) - storedBefore >= 5, 20_000, 'five records stored');
        await until(async () => (await ingested()) - countedBefore === 5, 5_000, 'five records counted');
        expect((await stored()) - storedBefore).toBe(5);
        expect(
          valueOf((await scrape()).samples, 'gatehouse_swipes_ingested_total', { via: 'push' }),
        ).toBeGreaterThan(0);
      } finally {
        await gateway.close();
        await sim.close();
      }
    });
  },
  { METRICS_TOKEN: TOKEN },
);

describeEachDb(
  'metrics on METRICS_PORT',
  (h) => {
    let base: string;
    beforeAll(() => {
      const address = h().metricsAddress();
      expect(address).toBeDefined();
      base = `http://127.0.0.1:${address!.port}`;
    });

    it('serves /metrics on a listener of its own, and nothing else there; the public port has none', async () => {
      const reply = await fetch(`${base}/metrics`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const { types } = parsePrometheus(await reply.text());
      expect(types.get('gatehouse_ocpp_connections')).toBe('gauge');
      for (const path of ['/', '/api/AreaInfo', '/healthz', '/metrics/x'])
        expect((await fetch(`${base}${path}`)).status, path).toBe(404);
      expect((await h().app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    });

    afterAll(async () => {
      // app.close() (the harness) closes the listener with the app: nothing answers there any more.
      await h().app.close();
      await expect(fetch(`${base}/metrics`)).rejects.toThrow();
    });
  },
  { METRICS_PORT: '127.0.0.1:0' },
);

/**
 * The controllers gauge against what is true: the app's own WG gateway (as main.ts starts it, `devices`, from
 * WG_LISTEN, WG_POLL, WG_TIMEOUT and WG_TRIES) drives two simulated controllers; the gauge counts them driven,
 * online while they answer and offline while one is taken off the network, as the device list shows them.
 */
describe.each(childDbKinds)(
  '[%s] the WG controllers gauge with the app driving simulated controllers',
  (kind) => {
    let database: ChildDatabase;
    let db: Db | undefined;
    let built: Built | undefined;
    let sim: WgSimulator | undefined;
    let devices: { Id: number; SerialNumber: string }[] = [];

    beforeAll(async () => {
      database = await childDatabase(kind, 'metrics-controllers');
      db = database.open();
      await migrateToLatest(db);
      await seedIfEmpty(db, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: Date.now(), scale: 0.005 });
      devices = await db.kysely
        .selectFrom('AccessControlDevice')
        .select(['Id', 'SerialNumber'])
        .where('AreaId', '=', 1)
        .where('Protocol', '=', 0)
        .where('Disabled', '=', 0)
        .orderBy('Id')
        .limit(2)
        .execute();
      expect(devices).toHaveLength(2);
      sim = await WgSimulator.start({
        controllers: devices.map((d) => ({ serial: Number(d.SerialNumber) })),
        timeZone: 'Asia/Shanghai',
      });
      // The second controller is off the network when the app starts.
      sim.setOffline(true, Number(devices[1]!.SerialNumber));
      await fleetOfSimulated(db, sim, devices);
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        SEED: 'demo',
        ADMIN_PASSWORD,
        METRICS_TOKEN: TOKEN,
        WG_LISTEN: '127.0.0.1:0',
        WG_POLL: '1s',
        WG_TIMEOUT: '40',
        WG_TRIES: '2',
      });
      built = await buildApp({
        config: { ...config, webDist: '/nonexistent' },
        db,
        clock: systemClock,
        devices: true,
      });
    }, 120_000);

    afterAll(async () => {
      await built?.drain(0);
      await built?.app.close();
      await sim?.close();
      await db?.close();
      await database?.drop();
    });

    const gauge = async () => {
      const reply = await built!.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(reply.statusCode).toBe(200);
      const { samples } = parsePrometheus(reply.body);
      const of = (state: string) => valueOf(samples, 'gatehouse_wg_controllers', { state });
      return { driven: of('driven'), online: of('online'), offline: of('offline') };
    };
    /** Online as the device list shows each of the two controllers (null: never heard of yet). */
    const listed = async (token: string) => {
      const page = await call<{ Items: { Id: number; Online: boolean | null }[] }>(
        built!.app,
        'GET',
        '/api/AccessControlDevice',
        { token, area: 1, query: { PageIndex: 1, PageSize: 100 } },
      );
      expect(page.status, page.msg).toBe(200);
      return devices.map((d) => page.data.Items.find((i) => i.Id === d.Id)!.Online);
    };

    it('counts the controllers driven, and online or offline as the simulator connects and disconnects them', async () => {
      expect(built!.wg, 'the app drives the controllers itself').toBeDefined();
      const token = await login(built!.app, 'acadmin', DEMO_PASSWORD);
      const second = Number(devices[1]!.SerialNumber);
      const settles = async (want: { driven: number; online: number; offline: number }, list: unknown[]) => {
        await until(
          async () => {
            const now = await gauge();
            return (
              now.driven === want.driven &&
              now.online === want.online &&
              now.offline === want.offline &&
              JSON.stringify(await listed(token)) === JSON.stringify(list)
            );
          },
          20_000,
          `the gauge at ${JSON.stringify(want)} and the list at ${JSON.stringify(list)}`,
        );
        expect(await gauge()).toEqual(want);
      };
      // Both driven from the start; the first answers, the second does not.
      await settles({ driven: 2, online: 1, offline: 1 }, [true, false]);
      // The second joins the network: both online.
      sim!.setOffline(false, second);
      await settles({ driven: 2, online: 2, offline: 0 }, [true, true]);
      // Both leave it: both offline, still driven.
      sim!.setOffline(true);
      await settles({ driven: 2, online: 0, offline: 2 }, [false, false]);
      // The first comes back.
      sim!.setOffline(false, Number(devices[0]!.SerialNumber));
      await settles({ driven: 2, online: 1, offline: 1 }, [true, false]);
    }, 120_000);
  },
);
