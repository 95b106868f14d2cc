import { expect, it, describe } from 'vitest';
import { sql } from 'kysely';
import { ConfigError, loadConfig, parseDuration } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      sessionTtlSeconds: 8 * 3600,
      seed: 'demo',
      adminPassword: undefined,
    });
    expect(config.databaseUrl).toMatch(/data\/gatehouse\.db$/);
  });

  it('listens on loopback only by default with the demo seed (published passwords), everywhere without', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ SEED: 'none' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['SESSION_TTL', '0'],
    ['SESSION_TTL', 'forever'],
    ['ADMIN_PASSWORD', 'short'],
    ['SEED', 'lots'],
    ['DEMO_SCALE', '0'],
    ['DEMO_SCALE', '2'],
    ['LOG_LEVEL', 'loud'],
    ['PG_POOL', '1'],
    ['PG_POOL', 'many'],
    ['PG_STATEMENT_TIMEOUT', 'soon'],
    ['SIMULATOR_OCPP_URL', 'http://proxy/ocpp'],
    ['DEMO_WG_PORTS', '80'],
    ['DEMO_WG_PORTS', '65500'],
    ['DEMO_WG_PORTS', 'ten'],
    ['SIMULATOR_OCPP_URL', 'ws://proxy'],
  ])('names the bad variable %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrowError(
      new RegExp(`^Invalid environment variable ${name}:`),
    );
  });

  it("points the demo's charge points at this instance unless SIMULATOR_OCPP_URL names the proxy", () => {
    expect(loadConfig({}).simulatorOcppUrl).toBeNull();
    expect(loadConfig({}).demoWgPorts).toBe(61000);
    expect(loadConfig({ DEMO_WG_PORTS: '21000' }).demoWgPorts).toBe(21000);
    expect(loadConfig({ SIMULATOR_OCPP_URL: 'ws://127.0.0.1:8080/ocpp' }).simulatorOcppUrl).toBe(
      'ws://127.0.0.1:8080/ocpp',
    );
  });

  it('reads durations', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('8h')).toBe(28800);
    expect(parseDuration('7d')).toBe(604800);
    expect(parseDuration('-1')).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
  });

  it('sizes the PostgreSQL pool and bounds a statement: 10 connections and 60 s unless told', () => {
    expect(loadConfig({}).pg).toEqual({ poolSize: 10, statementTimeoutMs: 60_000 });
    expect(loadConfig({ PG_POOL: '25', PG_STATEMENT_TIMEOUT: '2m' }).pg).toEqual({
      poolSize: 25,
      statementTimeoutMs: 120_000,
    });
    expect(loadConfig({ PG_STATEMENT_TIMEOUT: '0' }).pg.statementTimeoutMs).toBe(0);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT: 'off' }).pg.statementTimeoutMs).toBe(0);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('[postgres] statement timeout', () => {
  it('cancels a statement that runs past it with error 57014; the pool goes on serving', async () => {
    const db = openDatabase(process.env.TEST_DATABASE_URL!, { poolSize: 2, statementTimeoutMs: 200 });
    try {
      await expect(sql`select pg_sleep(1)`.execute(db.kysely)).rejects.toMatchObject({ code: '57014' });
      const { rows } = await sql<{ n: number }>`select 1 as n`.execute(db.kysely);
      expect(rows[0]?.n).toBe(1);
    } finally {
      await db.close();
    }
  });
  it('survives the server dropping its idle connections (a restart, a terminated backend): the next query reconnects', async () => {
    const db = openDatabase(process.env.TEST_DATABASE_URL!, { poolSize: 2 });
    const other = openDatabase(process.env.TEST_DATABASE_URL!, { poolSize: 1 });
    try {
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!
        .pid;
      // Now idle in the pool; without a handler for the pool's error event this would end the test process.
      await sql`select pg_terminate_backend(${pid})`.execute(other.kysely);
      await new Promise((r) => setTimeout(r, 200));
      const { rows } = await sql<{ n: number }>`select 2 as n`.execute(db.kysely);
      expect(rows[0]?.n).toBe(2);
    } finally {
      await db.close();
      await other.close();
    }
  });
});

describeEachDb(
  'platform endpoints',
  (h) => {
    it('reports database health', async () => {
      const reply = await call<{ status: string; database: string }>(h().app, 'GET', '/healthz');
      expect(reply.data).toMatchObject({ status: 'ok', database: h().dialect });
    });

    it('answers unknown API paths with a 404 envelope', async () => {
      const reply = await call(h().app, 'GET', '/api/Nope', { lang: 'ja' });
      expect(reply).toMatchObject({ status: 404, msg: 'API が存在しません' });
    });

    it('answers malformed JSON with a 400 envelope', async () => {
      const response = await h().app.inject({
        method: 'POST',
        url: '/api/Auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"username":',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, data: null });
    });

    it('documents every declared endpoint with its schemas in OpenAPI', async () => {
      // The reference is for signed-in callers by default (API_DOCS): a demo user's token opens it.
      const headers = { authorization: `Bearer ${await login(h().app, 'acuser', DEMO_PASSWORD)}` };
      const response = await h().app.inject({ method: 'GET', url: '/api/docs/json', headers });
      const doc = response.json() as {
        paths: Record<
          string,
          Record<string, { parameters?: unknown[]; requestBody?: unknown; responses: object }>
        >;
      };
      for (const route of h().routes) {
        const path = route.url.replace(/:(\w+)/g, '{$1}');
        const op = doc.paths[path]?.[route.method.toLowerCase()];
        expect(op, `${route.method} ${route.url}`).toBeDefined();
        if (route.body) expect(op!.requestBody, `${route.url} body`).toBeDefined();
        if (route.query || route.params)
          expect(op!.parameters?.length, `${route.url} parameters`).toBeGreaterThan(0);
        expect(op!.responses).toHaveProperty('200');
      }
      expect((await h().app.inject({ method: 'GET', url: '/api/docs', headers })).statusCode).toBeLessThan(
        400,
      );
    });

    it('streams heartbeats on an area hub to an authenticated member, and refuses others', async () => {
      const token = await login(h().app, 'acuser', DEMO_PASSWORD);
      const ticketUrl = async (areaId: number) =>
        (await call<string>(h().app, 'GET', '/api/AreaInfo/GetHubUrl', { token, query: { Id: areaId } }))
          .data;
      const messages: { Type: string }[] = [];
      let resolveHeartbeat!: () => void;
      const heartbeat = new Promise<void>((resolve) => (resolveHeartbeat = resolve));
      // Listen from the first frame on: the welcome is sent as soon as the server accepts.
      const socket = await h().app.injectWS(
        await ticketUrl(1),
        {},
        {
          onInit(ws) {
            ws.on('message', (data: Buffer) => {
              messages.push(JSON.parse(data.toString()));
              if (messages.some((m) => m.Type === 'Heartbeat')) resolveHeartbeat();
            });
          },
        },
      );
      await heartbeat;
      expect(messages[0]).toMatchObject({ Type: 'Welcome', AreaId: 1 });
      socket.terminate();

      for (const [url, code] of [
        [(await ticketUrl(1)).replace('AreaId=1', 'AreaId=2'), 4401],
        ['/api/hub?AreaId=1&ticket=bad', 4401],
      ] as const) {
        let resolveClose!: (code: number) => void;
        const closed = new Promise<number>((resolve) => (resolveClose = resolve));
        await h().app.injectWS(url, {}, { onInit: (ws) => ws.on('close', (c: number) => resolveClose(c)) });
        expect(await closed).toBe(code);
      }
    });
  },
  { HUB_HEARTBEAT: '1s' },
);
