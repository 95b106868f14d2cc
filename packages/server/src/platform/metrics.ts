import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
// The route schema's `hide` (kept out of the API document) is @fastify/swagger's addition to Fastify's types.
import type {} from '@fastify/swagger';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ConfigError, type MetricsConfig } from '../config.ts';
import { bearerToken } from './auth/tokens.ts';

declare module './context.ts' {
  interface Seams {
    /** This app's metrics (platform/metrics.ts): what a service counts, it counts here. */
    metrics?: Metrics;
  }
}

/**
 * Prometheus metrics of this instance (docs/integrations.md, "Metrics"), in prom-client's text format at
 * `/metrics`. One registry per app: several apps in one process (tests, two instances side by side) each count
 * their own, and nothing is registered in prom-client's global registry.
 *
 * Counters move where the facts happen: the WG gateway counts the records it stores, the OCPP gateway the
 * messages it exchanges and the power-offs it carries (both through `GatewayDeps.metrics`), the app its HTTP
 * requests. Gauges are read at each scrape from what the app assembly hands over (`MetricSources`): the
 * gateways' own state for this instance, the database for what the cluster shares.
 *
 * Labels are low-cardinality only: route templates (never URLs), status codes, OCPP actions from the 1.6
 * list, outcomes; never a card number, a serial or a user.
 */

/** How a power-off ended, as the charger seam answered it (`sent`, `cut`, `failed`, `not_sent`), or its confirmation by the charger's stop report (`confirmed`). */
export type PowerOffOutcome = 'sent' | 'cut' | 'failed' | 'not_sent' | 'confirmed';

/** What a device gateway counts (GatewayDeps.metrics). */
export interface GatewayMetrics {
  /** Records (swipes, door events, alarms) a WG controller reported and Gatehouse stored, by how they came. */
  swipesIngested(count: number, via: 'push' | 'poll'): void;
  /** An OCPP call received from a charge point (`in`) or sent to one (`out`). */
  ocppMessage(action: string, direction: 'in' | 'out'): void;
  powerOff(outcome: PowerOffOutcome, count?: number): void;
}

/** Where the gauges are read at each scrape: given by the app assembly (app.ts), which knows the modules. */
export interface MetricSources {
  /** Door controllers this instance drives, and how many of them answer or stopped answering. */
  controllers(): { driven: number; online: number; offline: number };
  /** Charge points connected to this instance. */
  ocppConnections(): number;
  /** Authorisations waiting to be written to (or removed from) their controller, in the whole database. */
  syncBacklog(): Promise<number>;
  /** Charging sessions running, in the whole database. */
  openChargingSessions(): Promise<number>;
  /** PostgreSQL's connection pool of this instance; undefined on SQLite (one connection, no pool). */
  databasePool(): { total: number; idle: number; waiting: number } | undefined;
  /** Seconds since the oldest outbox event not yet dispatched to webhooks was stored (whole database). */
  outboxAgeSeconds?(): Promise<number>;
}

// Every action of OCPP 1.6J, in both directions: any other name a charge point sends is counted as 'other',
// so a misbehaving charger cannot create series.
const OCPP_ACTIONS = new Set([
  'Authorize',
  'BootNotification',
  'DataTransfer',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StartTransaction',
  'StatusNotification',
  'StopTransaction',
  'CancelReservation',
  'ChangeAvailability',
  'ChangeConfiguration',
  'ClearCache',
  'ClearChargingProfile',
  'GetCompositeSchedule',
  'GetConfiguration',
  'GetDiagnostics',
  'GetLocalListVersion',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'ReserveNow',
  'Reset',
  'SendLocalList',
  'SetChargingProfile',
  'TriggerMessage',
  'UnlockConnector',
  'UpdateFirmware',
]);

export class Metrics implements GatewayMetrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly swipes = new Counter({
    name: 'gatehouse_swipes_ingested_total',
    help: 'Records (swipes, door events, alarms) from WG controllers stored by this instance, by how they came (push, poll)',
    labelNames: ['via'] as const,
    registers: [this.registry],
  });
  private readonly ocppMessages = new Counter({
    name: 'gatehouse_ocpp_messages_total',
    help: 'OCPP calls exchanged with charge points on this instance, by action and direction (in: from the charge point)',
    labelNames: ['action', 'direction'] as const,
    registers: [this.registry],
  });
  private readonly powerOffs = new Counter({
    name: 'gatehouse_power_offs_total',
    help: 'Forced power-offs by outcome: sent (not confirmed yet), cut (a socket without a session switched off), failed, not_sent; confirmed when the charger stopped',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhookDeliveries = new Counter({
    name: 'gatehouse_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this instance, by outcome: delivered (2xx), retried (failed, tried again later), failed (given up after a day)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private defaults = false;

  constructor(private readonly log?: FastifyBaseLogger) {
    // Every series a scraper alerts on exists from the first scrape, at zero.
    for (const via of ['push', 'poll'] as const) this.swipes.inc({ via }, 0);
    for (const outcome of ['sent', 'cut', 'failed', 'not_sent', 'confirmed'] as const)
      this.powerOffs.inc({ outcome }, 0);
    for (const outcome of ['delivered', 'retried', 'failed'] as const)
      this.webhookDeliveries.inc({ outcome }, 0);
  }

  /** One webhook attempt's outcome (platform/outbox/webhooks.ts). */
  webhookDelivery(outcome: 'delivered' | 'retried' | 'failed'): void {
    this.webhookDeliveries.inc({ outcome });
  }

  swipesIngested(count: number, via: 'push' | 'poll'): void {
    if (count > 0) this.swipes.inc({ via }, count);
  }

  ocppMessage(action: string, direction: 'in' | 'out'): void {
    this.ocppMessages.inc({ action: OCPP_ACTIONS.has(action) ? action : 'other', direction });
  }

  powerOff(outcome: PowerOffOutcome, count = 1): void {
    if (count > 0) this.powerOffs.inc({ outcome }, count);
  }

  /** One answered HTTP request. `route` is the route's template (`/api/Role/:Id`), or 'unmatched'. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status_code: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /**
   * The gauges, read at each scrape. A source that fails (the database away) leaves its gauge without a value
   * for that scrape instead of failing the whole answer: process figures matter most when the database does not
   * answer.
   */
  observe(sources: MetricSources): void {
    const log = this.log;
    const guarded = async (name: string, gauge: Gauge, read: () => Promise<void> | void) => {
      try {
        await read();
      } catch (error) {
        gauge.reset();
        log?.warn({ err: error, metric: name }, 'metrics: a gauge could not be read');
      }
    };
    new Gauge({
      name: 'gatehouse_wg_controllers',
      help: 'WG door controllers this instance drives (driven), and of those the ones answering (online) or not (offline)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        return guarded('gatehouse_wg_controllers', this, () => {
          const c = sources.controllers();
          this.set({ state: 'driven' }, c.driven);
          this.set({ state: 'online' }, c.online);
          this.set({ state: 'offline' }, c.offline);
        });
      },
    });
    new Gauge({
      name: 'gatehouse_wg_sync_backlog',
      help: 'Authorisations waiting to be written to or removed from their controller (whole database: the same on every instance)',
      registers: [this.registry],
      collect() {
        return guarded('gatehouse_wg_sync_backlog', this, async () => this.set(await sources.syncBacklog()));
      },
    });
    const outboxAge = sources.outboxAgeSeconds;
    if (outboxAge)
      new Gauge({
        name: 'gatehouse_outbox_age_seconds',
        help: 'Age of the oldest event in the outbox not yet dispatched to webhooks, 0 when none waits (whole database)',
        registers: [this.registry],
        collect() {
          return guarded('gatehouse_outbox_age_seconds', this, async () => this.set(await outboxAge()));
        },
      });
    new Gauge({
      name: 'gatehouse_ocpp_connections',
      help: 'Charge points connected to this instance',
      registers: [this.registry],
      collect() {
        return guarded('gatehouse_ocpp_connections', this, () => this.set(sources.ocppConnections()));
      },
    });
    new Gauge({
      name: 'gatehouse_charging_sessions_open',
      help: 'Charging sessions running (whole database: the same on every instance)',
      registers: [this.registry],
      collect() {
        return guarded('gatehouse_charging_sessions_open', this, async () =>
          this.set(await sources.openChargingSessions()),
        );
      },
    });
    new Gauge({
      name: 'gatehouse_db_pool_connections',
      help: "This instance's PostgreSQL connections: in_use, idle, and waiting (requests queued for a connection); absent on SQLite",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        return guarded('gatehouse_db_pool_connections', this, () => {
          const pool = sources.databasePool();
          if (!pool) return;
          this.set({ state: 'in_use' }, pool.total - pool.idle);
          this.set({ state: 'idle' }, pool.idle);
          this.set({ state: 'waiting' }, pool.waiting);
        });
      },
    });
  }

  /** Node's process figures (CPU, memory, event-loop lag, GC): only for an app that serves its metrics. */
  collectDefaults(): void {
    if (this.defaults) return;
    this.defaults = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** The text a scraper reads. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** A bearer token equal to `expected`, compared in constant time. */
function tokenMatches(authorization: string | undefined, expected: string): boolean {
  const sent = bearerToken(authorization);
  if (sent === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

/**
 * Serves the metrics as the configuration says (MetricsConfig): on the public port behind METRICS_TOKEN only
 * when no METRICS_PORT is set; the listener of METRICS_PORT is started when the app is ready and closed with
 * it. Returns the listener's address once bound (tests ask it for port 0). HTTP requests are counted only when
 * the metrics are served somewhere.
 */
export function serveMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  config: MetricsConfig,
): { address(): AddressInfo | undefined } {
  const { listen, token } = config;
  const none = { address: () => undefined };
  if (!listen && !token) return none;
  metrics.collectDefaults();
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (!listen) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!tokenMatches(request.headers.authorization, token!))
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('text/plain; charset=utf-8')
          .send('metrics: a bearer token (METRICS_TOKEN) is required\n');
      const { contentType, body } = await metrics.text();
      return reply.type(contentType).send(body);
    });
    return none;
  }
  // A listener of its own: nothing but GET /metrics, never the API or the web app.
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    if (token && !tokenMatches(request.headers.authorization, token)) {
      response
        .writeHead(401, {
          'content-type': 'text/plain; charset=utf-8',
          'www-authenticate': 'Bearer realm="metrics"',
        })
        .end('metrics: a bearer token (METRICS_TOKEN) is required\n');
      return;
    }
    metrics.text().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n');
      },
    );
  });
  const handle = { address: () => (server.address() as AddressInfo | null) ?? undefined };
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: NodeJS.ErrnoException) =>
        reject(
          new ConfigError(
            'METRICS_PORT',
            `cannot listen on ${listen.host}:${listen.port} (${error.code ?? error.message}): free it or choose another port`,
          ),
        );
      server.once('error', failed);
      server.listen(listen.port, listen.host, () => {
        server.off('error', failed);
        resolve();
      });
    });
    app.log.info({ address: handle.address() }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return handle;
}
