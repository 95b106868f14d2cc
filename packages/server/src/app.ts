import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyLoggerOptions,
  type FastifyRequest,
} from 'fastify';
import { API_DOCS_PATH, ASYNCAPI_PATH, TOKEN_COOKIE } from '@gatehouse/shared';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { HubTickets } from './platform/auth/hub-tickets.ts';
import { bearerToken, cookieValue } from './platform/auth/tokens.ts';
import { AppError } from './platform/errors.ts';
import { SessionStore } from './platform/auth/sessions.ts';
import { ApiKeyStore } from './platform/auth/api-keys.ts';
import { LoginThrottle } from './platform/auth/throttle.ts';
import { ExportQueue } from './platform/exports/queue.ts';
import { installErrorHandling } from './platform/http-errors.ts';
import type { Platform } from './platform/platform.ts';
import { redactUrl, registerSecurityHeaders } from './platform/security-headers.ts';
import { echoRequestId, requestIdOf } from './platform/request-log.ts';
import { openApiComponents, registerRoute, type AnyRoute } from './platform/route.ts';
import { asyncApiDocument } from './platform/asyncapi.ts';
import { Metrics, serveMetrics } from './platform/metrics.ts';
import { startOutbox, type Outbox } from './platform/outbox/index.ts';
import { pruneOutbox } from './platform/outbox/webhooks.ts';
import { AreaHub } from './platform/hub/hub.ts';
import { recheckHubSessions, registerHub, watchHubSessions } from './platform/hub/routes.ts';
import { SettingsService } from './modules/system/index.ts';
import {
  endDuePasses,
  ensurePartitionsAhead,
  pruneSwipeRecords,
  syncBacklog,
} from './modules/access-control/index.ts';
import {
  BUDGET_SWEEP_MS,
  openSessionCount,
  pruneGarageRecords,
  sweepZoneBudgets,
} from './modules/garage/index.ts';
import { registerModules, routeTable } from './routes.ts';
import { ocppGateway, type CentralSystem } from './gateways/ocpp/index.ts';
import { wgGateway, type WgGateway } from './gateways/wg/index.ts';
import type { DeviceGateway, GatewayDeps } from './platform/gateway.ts';
import { ClusterNode } from './platform/cluster/node.ts';
import { Readiness, registerReadiness } from './platform/cluster/readiness.ts';
import { migrations } from './assembly.ts';

export interface BuildOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /**
   * Drive the WG door controllers (config.wg) from this app: main.ts asks for it; tests start their own
   * gateway with test timings instead.
   */
  devices?: boolean;
  /** Extra routes registered before the app is sealed (benchmarks add their baselines this way). */
  extend?: (app: FastifyInstance, platform: Platform) => void | Promise<void>;
  /** Where the log's JSON lines go instead of stdout (a test reads them: request-log.test.ts). */
  logStream?: FastifyLoggerOptions['stream'];
}

export interface Built {
  app: FastifyInstance;
  platform: Platform;
  hub: AreaHub;
  /** The OCPP 1.6J central system on `/ocpp/{serial}` (gateways/ocpp, docs/chargers.md). */
  ocpp: CentralSystem;
  /** Every declared route, for OpenAPI checks and the permission test that walks them all. */
  routes: AnyRoute[];
  /** The WG controller gateway, when `devices` asked for it and config.wg enables it. */
  wg: WgGateway | undefined;
  /** Every device gateway the app started, in the one gateway shape. */
  gateways: DeviceGateway[];
  /** What /readyz reports (database, migrations, bus, draining). */
  readiness: Readiness;
  /** This app's Prometheus metrics (platform/metrics.ts; the gateways count into them). */
  metrics: Metrics;
  /** Where METRICS_PORT's listener is bound, once the app is ready (undefined without one). */
  metricsAddress(): AddressInfo | undefined;
  /** The outbox's readers on this instance (webhooks, MQTT): issue 29. */
  outbox: Outbox;
  /**
   * A graceful stop's first half (main.ts on SIGTERM, docs/deployment.md): /readyz answers 503 at once, and
   * after `delayMs` (the proxy's health checks take the instance out of rotation meanwhile) the live hub's
   * sockets and the device gateways are closed, so browsers and charge points reconnect to another instance.
   * `app.close()` then stops accepting and lets the requests in flight finish.
   */
  drain(delayMs: number): Promise<void>;
}

export const DEFAULT_SETTINGS = {
  // Empty: the web app shows its translated default title ('backend management system').
  SiteTitle: '',
  ImageBaseUrl: '',
  LoginMaxFailures: 5,
  LoginLockMinutes: 15,
  ExportRetentionDays: 7,
  // Every swipe record is kept unless the operator sets a retention (issue 20).
  SwipeRetentionMonths: 0,
  ChargeRecordRetentionMonths: 0,
  PowerOffRetentionMonths: 0,
  ParkOrderRetentionMonths: 0,
  BudgetGraceSeconds: 30,
};

/** Builds the HTTP application on an open, migrated database. Listening is the caller's business. */
export async function buildApp({
  config,
  db,
  clock = systemClock,
  extend,
  devices = false,
  logStream,
}: BuildOptions): Promise<Built> {
  const app = createFastify(config, logStream);
  echoRequestId(app);
  const { platform, hub, cluster } = await startPlatform(app, config, db, clock);
  // One registry per app (two apps in one process count apart), carried as a seam like the hub.
  const metrics = new Metrics(app.log);
  platform.seams.metrics = metrics;

  const metricsListener = await registerHttpLayer(app, platform, metrics);

  registerModules();
  for (const route of routeTable) registerRoute(app, platform, route);
  registerHub(app, platform, hub);
  const unwatchHub = watchHubSessions(platform, hub);
  const { ocpp, wg, gateways } = deviceGateways(
    app,
    { db, clock, log: app.log, hub, instanceId: config.instanceId, cluster, metrics },
    config,
    devices,
  );
  // The outbox's readers (issue 29): webhook deliveries on every instance, MQTT when MQTT_URL is set.
  const outbox = startOutbox({ db, clock, log: app.log, config, metrics });
  observeGauges(metrics, db, ocpp, wg, outbox);
  carryGatewaySeams(app, platform, ocpp, wg);
  registerHealth(app, db, gateways);
  const readiness = new Readiness({
    instanceId: config.instanceId,
    db,
    bus: cluster.bus,
    migrations: Object.keys(migrations),
  });
  registerReadiness(app, readiness);
  const closeDevices = deviceCloser(platform, hub, gateways);
  await registerWebApp(app, config);

  if (extend) await extend(app, platform);
  app.addHook('onClose', async () => {
    await outbox.close();
    await closeDevices();
    unwatchHub();
    hub.close();
    await platform.exports.close();
    await cluster.close();
  });
  await app.ready();
  const drain = async (delayMs: number) => {
    readiness.drain();
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    await closeDevices();
  };
  return {
    app,
    platform,
    hub,
    ocpp: ocpp.central,
    routes: routeTable,
    wg: wg?.gateway(),
    gateways,
    readiness,
    metrics,
    metricsAddress: () => metricsListener.address(),
    outbox,
    drain,
  };
}

/**
 * What every route goes through: compilers, error handling, security headers, the failed-request log, the
 * metrics endpoint (its own listener when METRICS_PORT is set, returned), the API documents and WebSockets.
 */
async function registerHttpLayer(app: FastifyInstance, platform: Platform, metrics: Metrics) {
  // Route schemas are zod, converted to JSON Schema for OpenAPI only: zod validates (with translated
  // messages), and replies are plain JSON, so Fastify's own compilers stand aside.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandling(app);
  await registerSecurityHeaders(app);
  logFailedRequests(app);
  const metricsListener = serveMetrics(app, metrics, platform.config.metrics);
  await registerApiDocs(app, platform);
  await app.register(fastifyWebsocket);
  return metricsListener;
}

/** The gauges read at each scrape: controllers, charge points, sync backlog, open sessions, pool, outbox. */
function observeGauges(
  metrics: Metrics,
  db: Db,
  ocpp: ReturnType<typeof ocppGateway>,
  wg: ReturnType<typeof wgGateway> | undefined,
  outbox: Outbox,
): void {
  metrics.observe({
    controllers: () => {
      const health = wg?.health();
      return { driven: health?.devices ?? 0, online: health?.connected ?? 0, offline: health?.offline ?? 0 };
    },
    ocppConnections: () => ocpp.central.connected().length,
    syncBacklog: () => syncBacklog(db.kysely),
    openChargingSessions: () => openSessionCount(db.kysely),
    databasePool: () => db.pool?.(),
    outboxAgeSeconds: () => outbox.ageSeconds(),
  });
}

/**
 * The gateways' seams, carried by every context from here on (withdrawn when the gateways close): the
 * chargers' from the first request, the door controllers' once their gateway has started (an onReady hook
 * after the one that starts the gateways).
 */
function carryGatewaySeams(
  app: FastifyInstance,
  platform: Platform,
  ocpp: ReturnType<typeof ocppGateway>,
  wg: ReturnType<typeof wgGateway> | undefined,
): void {
  platform.seams.chargers = ocpp.chargers;
  app.addHook('onReady', async () => {
    const controllers = wg?.gateway();
    if (controllers) platform.seams.doorControllers = controllers;
  });
}

/**
 * Closes the live hub's sockets and the device gateways (last started, first closed) and withdraws their
 * seams. Once: by a drain, else when the app closes.
 */
function deviceCloser(platform: Platform, hub: AreaHub, gateways: DeviceGateway[]): () => Promise<void> {
  let devicesClosed: Promise<void> | undefined;
  return () =>
    (devicesClosed ??= (async () => {
      hub.close();
      delete platform.seams.chargers;
      delete platform.seams.doorControllers;
      for (const gateway of [...gateways].reverse()) await gateway.close();
    })());
}

function createFastify(config: Config, stream?: FastifyLoggerOptions['stream']): FastifyInstance {
  return Fastify({
    logger: {
      level: config.logLevel,
      ...(stream ? { stream } : {}),
      // Credentials never reach the log, whatever a later log line includes (URLs are redacted where logged).
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    // Per-request lines are noise at this volume; failures are logged by logFailedRequests.
    logController: new LogController({ disableRequestLogging: true }),
    // Every line of a request carries its id (`reqId`): the proxy's X-Request-ID when well formed, else a UUID
    // (platform/request-log.ts); sent back on every reply.
    genReqId: requestIdOf,
    bodyLimit: 2 * 1024 * 1024,
    // Behind the reverse proxy (deploy/haproxy.cfg): client addresses from X-Forwarded-For.
    trustProxy: config.trustProxy,
  });
}

/**
 * The platform services every module uses, started: this instance in the cluster (one member on SQLite: the
 * bus that carries session ends, setting changes and live events to the other instances, the shared leases
 * and the cluster-wide periodic tasks), settings, sessions, hub tickets, the login throttle, the export
 * queue and the live-event hub.
 */
async function startPlatform(app: FastifyInstance, config: Config, db: Db, clock: Clock) {
  const cluster = new ClusterNode(config.instanceId, db, clock, app.log);
  const busError = (error: unknown) => app.log.error({ err: error }, 'cluster bus');
  const settings = new SettingsService(
    db,
    clock,
    { ...DEFAULT_SETTINGS, SessionTtlSeconds: config.sessionTtlSeconds },
    cluster.bus,
    busError,
  );
  await settings.load();
  // Before each heartbeat every connection's session is checked again (expiry by inactivity has no event).
  const hub: AreaHub = new AreaHub(
    config.hubHeartbeatSeconds * 1000,
    () => clock.now(),
    () => {
      recheckHubSessions(platform, hub).catch((error: unknown) => app.log.error({ err: error }, 'hub check'));
    },
    cluster.bus,
    busError,
  );
  const platform: Platform = {
    config,
    db,
    clock,
    settings,
    sessions: new SessionStore(
      db,
      clock,
      () => settings.get('SessionTtlSeconds') * 1000,
      cluster.bus,
      busError,
    ),
    apiKeys: new ApiKeyStore(db, clock, cluster.bus, busError),
    hubTickets: new HubTickets(db, clock),
    throttle: new LoginThrottle(db, clock, () => ({
      maxFailures: settings.get('LoginMaxFailures'),
      lockMinutes: settings.get('LoginLockMinutes'),
    })),
    // Export jobs on the job queue (in-process on SQLite, pg-boss shared by every instance on PostgreSQL),
    // run for the user as they are when the job runs; files in the database; expiry once across the cluster.
    exports: new ExportQueue({
      db,
      clock,
      principalOfUser: (userId) => platform.sessions.principalOfUser(userId),
      retentionDays: () => settings.get('ExportRetentionDays'),
      log: app.log,
      singleton: (name, everyMs, task) => cluster.singleton(name, everyMs, task),
      instanceId: config.instanceId,
    }),
    log: app.log,
    cluster,
    // The seams every context carries: the hub now; the device gateways add theirs as they are built.
    seams: { live: hub },
  };
  // A key's areas are read with it: when areas (or any grants) change, here or on another instance, keys
  // are read again too.
  platform.sessions.onChange((change) => {
    if (change === 'all') platform.apiKeys.dropAll();
  });
  await platform.exports.start();
  scheduleHousekeeping(platform);
  await cluster.start();
  return { platform, hub, cluster };
}

/** How often the visitor passes' expiry sweep looks for passes at their end. */
const VISITOR_PASS_SWEEP_MS = 10_000;

/** The periodic sweeps, each run once across the cluster (a singleton task of this instance's node). */
function scheduleHousekeeping({ cluster, db, clock, settings, throttle, seams }: Platform): void {
  // Login counts and hub tickets live in the database: their old rows are swept.
  cluster.singleton('auth-prune', 10 * 60_000, () => throttle.prune());
  // The outbox and the webhook delivery log past their keeping (platform/outbox/webhooks.ts).
  cluster.singleton('outbox-retention', 10 * 60_000, async () => {
    await pruneOutbox(db, clock);
  });
  // Swipe records past their retention, in bounded steps (docs/performance.md).
  cluster.singleton('swipe-retention', 10 * 60_000, async () => {
    await pruneSwipeRecords(db, clock.now(), settings.get('SwipeRetentionMonths'), { pauseMs: 50 });
  });
  // Visitor passes at their end (docs/access-control.md, "Visitor passes"): ended and revoked, so the device sync
  // takes their cards off the controllers within a minute; due passes are read from the table, so whichever
  // instance holds the sweep ends what another left undone.
  cluster.singleton('visitor-pass-expiry', VISITOR_PASS_SWEEP_MS, async () => {
    await endDuePasses({ db, clock });
  });
  // PostgreSQL: the swipe records' monthly partitions for this month and the next three, at start and daily
  // (a month's partition exists long before its first record; nothing on SQLite).
  cluster.singleton('swipe-partitions', 24 * 3_600_000, async () => {
    await ensurePartitionsAhead(db, clock.now());
  });
  // The garage's records (sessions with their orders, power-offs, parking orders) the same way.
  cluster.singleton('garage-retention', 10 * 60_000, async () => {
    await pruneGarageRecords(db, clock.now(), settings.all(), { pauseMs: 50 });
  });
  // Zones' power budgets (docs/garage.md "Zone power budget"): evaluated and, past the grace, enforced once
  // across the cluster; the commands reach each charger through this instance's charger seam, whichever
  // instance holds it.
  cluster.singleton('zone-power-budget', BUDGET_SWEEP_MS, async () => {
    await sweepZoneBudgets({ db, clock, seams }, settings.get('BudgetGraceSeconds') * 1000);
  });
}

export function logFailedRequests(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every reply, and most need nothing from it.
  app.addHook('onResponse', (request, reply, done) => {
    // A proxy asks /readyz every second; its 503 while draining or starting is an answer, not a failure (the
    // readiness changes are logged once each by registerReadiness).
    if (reply.statusCode >= 400 && request.routeOptions.url !== '/readyz') {
      request.log.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          status: reply.statusCode,
          ms: reply.elapsedTime,
        },
        'request failed',
      );
    }
    done();
  });
}

/** The API's version, in both documents. */
const API_VERSION = '0.1.0';

/**
 * The OpenAPI document of every declared route, and its pages at API_DOCS_PATH unless config.apiDocs is off;
 * beside it the AsyncAPI document of the event catalogue (ASYNCAPI_PATH), under the same access rule.
 */
async function registerApiDocs(app: FastifyInstance, platform: Platform): Promise<void> {
  const { apiDocs } = platform.config;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Gatehouse API',
        version: API_VERSION,
        description:
          'Every response is the envelope { code, msg, data, token? }; HTTP status equals code. ' +
          'Area-scoped endpoints need the X-Area-Id header. Messages follow Accept-Language (zh, en, es, ja).\n\n' +
          `The events Gatehouse sends out (webhooks, MQTT) are described by the AsyncAPI document: [${ASYNCAPI_PATH}](${ASYNCAPI_PATH}).`,
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: openApiComponents(routeTable),
      },
    },
  });
  if (apiDocs === 'off') return;
  // signed-in: a live session, by bearer token (tools) or the web app's token cookie (a browser tab).
  const signedIn = async (request: FastifyRequest) => {
    const token =
      bearerToken(request.headers.authorization) ?? cookieValue(request.headers.cookie, TOKEN_COOKIE);
    if (!token || !(await platform.sessions.resolve(token))) throw new AppError(401, 'error.unauthorized');
  };
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    ...(apiDocs === 'signed-in' ? { uiHooks: { onRequest: signedIn } } : {}),
  });
  // Built at the first request: the catalogue does not change while the process runs.
  let asyncApi: string | undefined;
  app.get(
    ASYNCAPI_PATH,
    { schema: { hide: true }, ...(apiDocs === 'signed-in' ? { onRequest: signedIn } : {}) },
    async (_request, reply) => {
      asyncApi ??= JSON.stringify(asyncApiDocument(API_VERSION));
      return reply.type('application/json; charset=utf-8').send(asyncApi);
    },
  );
}

/**
 * Device gateways, one shape (platform/gateway.ts): built now, started once the server exists, closed with
 * the app. OCPP always (it waits for charge points to connect); WG when asked (main.ts), since driving
 * controllers sends datagrams: tests start their own gateway with test timings.
 */
function deviceGateways(app: FastifyInstance, deps: GatewayDeps, config: Config, devices: boolean) {
  const ocpp = ocppGateway(deps, config.ocpp);
  const wg =
    devices && config.wg.enabled
      ? wgGateway(
          { ...deps, log: app.log.child({ module: 'wg' }) },
          {
            listen: config.wg.listen,
            advertise: config.wg.advertise,
            pollSeconds: config.wg.pollSeconds,
            driver: { timeoutMs: config.wg.timeoutMs, tries: config.wg.tries },
          },
        )
      : undefined;
  const gateways: DeviceGateway[] = wg ? [ocpp, wg] : [ocpp];
  app.addHook('onReady', async () => {
    for (const gateway of gateways) await gateway.start(app.server);
  });
  return { ocpp, wg, gateways };
}

/** `/healthz`: the database's answer and latency, and each gateway's health; 503 when the database is down. */
function registerHealth(app: FastifyInstance, db: Db, gateways: DeviceGateway[]): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    const started = performance.now();
    try {
      await sql`select 1`.execute(db.kysely);
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      return reply.send({
        code: 200,
        msg: '',
        data: { status: 'ok', database: db.dialect, latencyMs, gateways: gateways.map((g) => g.health()) },
      });
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      return reply
        .status(503)
        .send({ code: 503, msg: 'database unavailable', data: { status: 'down', database: db.dialect } });
    }
  });
}

/** The built web app from config.webDist, when there is one. */
async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  if (!fs.existsSync(path.join(config.webDist, 'index.html'))) {
    app.log.warn({ webDist: config.webDist }, 'web app not built: serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: config.webDist,
    setHeaders(reply, filePath) {
      // Vite fingerprints assets; everything else (index.html) must be revalidated.
      reply.header(
        'Cache-Control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
}
