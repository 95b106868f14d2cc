import { instanceId } from './platform/cluster/instances.ts';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Defaults are anchored to the repository, so `npm start` from any workspace finds the same files.
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type SeedMode = 'demo' | 'none';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /**
   * PostgreSQL only (docs/deployment.md, "PostgreSQL configuration"): `PG_POOL` connections per instance
   * (besides the bus's listening one) and `PG_STATEMENT_TIMEOUT` for the requests' statements (0: none).
   * Migrations and the seed run without the timeout (an index build on a large table takes minutes).
   */
  pg: { poolSize: number; statementTimeoutMs: number };
  /** Seconds of inactivity after which a session ends. */
  sessionTtlSeconds: number;
  adminPassword: string | undefined;
  seed: SeedMode;
  /** Bulk demo volume factor in (0, 1]; 1 is the full demo. */
  demoScale: number;
  /**
   * `DEMO_WG_PORTS`: first loopback UDP port of the demo's simulated door controllers (61000; each area takes
   * a hundred above it). Read when the demo is seeded: the ports are stored with the demo's devices.
   */
  demoWgPorts: number;
  webDist: string;
  logLevel: string;
  /** Seconds between heartbeats on an area's live-event hub. */
  hubHeartbeatSeconds: number;
  /** Folder of generated export files. */
  exportDir: string;
  /** Who may read the API reference (/api/docs and its JSON): anyone, signed-in callers, or nobody. */
  apiDocs: ApiDocsAccess;
  /** WG door controllers (gateways/wg, docs/devices.md). Started by main.ts only: never in tests. */
  wg: WgConfig;
  /** `SIMULATOR`: with the demo seed, start the built-in simulators (WG controllers, charge points) for the demo devices. */
  simulator: boolean;
  /**
   * `SIMULATOR_CONTROL`: "host:port" of the built-in simulators' control APIs (swipe a card, plug in a bike,
   * take a device offline…; the WG one on that port, the OCPP one on the next, port 0: any free ones, printed at
   * start); null ("off", the default): none. For demos and end-to-end tests; loopback only makes sense.
   */
  simulatorControl: { host: string; port: number } | null;
  /**
   * `SIMULATOR_OCPP_URL`: where the demo's simulated charge points connect (ws://…/ocpp), null: straight to
   * this instance. Behind a proxy, point it at the proxy so a charger's takeover by another instance is seen.
   */
  simulatorOcppUrl: string | null;
  /** OCPP charge points (gateways/ocpp, docs/chargers.md). */
  ocpp: OcppConfig;
  /**
   * `DRAIN_DELAY`: on SIGTERM, how long /readyz answers 503 before the instance closes its sockets and stops
   * accepting (the proxy's health checks take it out of rotation meanwhile; docs/deployment.md). Default 3 s
   * on PostgreSQL, 0 on SQLite (one process, no proxy).
   */
  drainSeconds: number;
  /**
   * `TRUST_PROXY`: whose X-Forwarded-For to believe (Fastify's trustProxy): off (default), on (any), or a
   * comma-separated list of proxy addresses or CIDRs. Behind the proxy, client addresses (audit, login limits)
   * come from it; without it every client would be the proxy.
   */
  trustProxy: boolean | string;
  /** This instance's name in the cluster, its logs and screens (INSTANCE_ID, else host-pid-random). */
  instanceId: string;
  /** Prometheus metrics (`/metrics`, docs/integrations.md "Metrics"). */
  metrics: MetricsConfig;
  /**
   * `WEBHOOK_ALLOW_NETWORKS`: comma-separated CIDRs (`10.0.0.0/8, 127.0.0.1/32`) a webhook may be sent to although
   * they are private, loopback or link-local (refused otherwise, docs/integrations.md "Webhooks"). Empty: none.
   */
  webhookAllowNetworks: { address: string; prefix: number; family: 'ipv4' | 'ipv6' }[];
  /** `MQTT_URL` (`mqtt://host:1883`): publish the outbox's events to this broker; null: no MQTT. */
  mqttUrl: string | null;
}

/**
 * Where `/metrics` is served: on a listener of its own (`METRICS_PORT`, then only there), else on the public
 * port to a bearer of `METRICS_TOKEN`; neither: nowhere (404). A token set with the port is asked there too.
 */
export interface MetricsConfig {
  /** `METRICS_PORT`: "port" or "host:port" (host: HOST's); null ("off", the default): no listener. */
  listen: { host: string; port: number } | null;
  /** `METRICS_TOKEN`: the bearer token a scraper sends; null: none. */
  token: string | null;
}

export interface OcppConfig {
  /** `OCPP_HEARTBEAT`: heartbeat interval given to charge points at boot (seconds); 3 missed = offline. */
  heartbeatSeconds: number;
  /** `OCPP_OFFLINE_GRACE`: how long a host may stay offline before its running sessions close (seconds). */
  offlineGraceSeconds: number;
}

export interface WgConfig {
  /** `WG`: drive WG controllers at all (on/off). */
  enabled: boolean;
  /** `WG_LISTEN`: UDP "host:port" receiving pushed events; null ("off"): polling only. */
  listen: string | null;
  /** `WG_ADVERTISE`: "host:port" controllers are told to push to (NAT); null: the listener's own address. */
  advertise: string | null;
  /** `WG_POLL`: seconds between record-collection polls. */
  pollSeconds: number;
  /** `WG_TIMEOUT`: ms per try; `WG_TRIES`: tries per request. */
  timeoutMs: number;
  tries: number;
}

export type ApiDocsAccess = 'public' | 'signed-in' | 'off';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid environment variable ${variable}: ${problem}`);
  }
}

const DURATION = /^(\d+)\s*(s|m|h|d)?$/i;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "900", "15m", "8h", "7d" → seconds. */
export function parseDuration(value: string): number | null {
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] ?? 's').toLowerCase()]!;
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : null;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A variable's trimmed value, undefined when unset or blank. */
type Env = (name: string) => string | undefined;

/** A duration variable of at least `min` seconds. */
function durationVar(get: Env, name: string, fallback: string, min: number): number {
  const text = get(name) ?? fallback;
  const seconds = parseDuration(text);
  if (seconds === null || seconds < min)
    throw new ConfigError(name, `expected a duration of at least ${min}s, got "${text}"`);
  return seconds;
}

/** An on/off variable (also true/false, 1/0). */
function onOffVar(get: Env, name: string, fallback: boolean): boolean {
  const text = (get(name) ?? (fallback ? 'on' : 'off')).toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(text))
    throw new ConfigError(name, `expected "on" or "off", got "${text}"`);
  return ['on', 'true', '1'].includes(text);
}

/** A host:port (or a bare port) variable; null when off or unset without a fallback. */
function hostPortVar(get: Env, name: string, fallback: string | null): string | null {
  const text = get(name) ?? fallback;
  if (text === null || text.toLowerCase() === 'off') return null;
  const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3}):)?(\d{1,5})$/.exec(text);
  if (!m || Number(m[2]) > 65535)
    throw new ConfigError(name, `expected host:port such as 0.0.0.0:60099, got "${text}"`);
  return text;
}

// loadConfig reads the variables in groups, each group a function, in the order the checks always ran: the
// first bad variable is the one named, so the groups are called in that order.

/** PORT, DATABASE_URL and the PostgreSQL pool and statement timeout. */
function serverVars(get: Env): Pick<Config, 'port' | 'databaseUrl' | 'pg'> {
  const portText = get('PORT') ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `expected a port number 0-65535, got "${portText}"`);
  }

  const databaseUrl = get('DATABASE_URL') ?? path.join(REPO_ROOT, 'data/gatehouse.db');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'expected a SQLite file path or a postgres:// URL');
  }

  const poolText = get('PG_POOL') ?? '10';
  if (!/^\d+$/.test(poolText) || Number(poolText) < 2 || Number(poolText) > 200)
    throw new ConfigError('PG_POOL', `expected 2-200 connections, got "${poolText}"`);
  const timeoutText = get('PG_STATEMENT_TIMEOUT') ?? '60s';
  const statementTimeout =
    timeoutText === '0' || timeoutText.toLowerCase() === 'off' ? 0 : parseDuration(timeoutText);
  if (statementTimeout === null)
    throw new ConfigError(
      'PG_STATEMENT_TIMEOUT',
      `expected a duration such as 60s, or 0 for none, got "${timeoutText}"`,
    );
  return {
    port,
    databaseUrl,
    pg: { poolSize: Number(poolText), statementTimeoutMs: statementTimeout * 1000 },
  };
}

/** SESSION_TTL, ADMIN_PASSWORD, SEED, DEMO_SCALE and DEMO_WG_PORTS. */
function accountAndDemoVars(
  get: Env,
  env: NodeJS.ProcessEnv,
): Pick<Config, 'sessionTtlSeconds' | 'adminPassword' | 'seed' | 'demoScale' | 'demoWgPorts'> {
  const ttlText = get('SESSION_TTL') ?? '8h';
  const sessionTtlSeconds = parseDuration(ttlText);
  if (sessionTtlSeconds === null) {
    throw new ConfigError(
      'SESSION_TTL',
      `expected seconds or a duration such as 30m, 8h, 7d, got "${ttlText}"`,
    );
  }

  const adminPassword =
    env.ADMIN_PASSWORD === undefined || env.ADMIN_PASSWORD === '' ? undefined : env.ADMIN_PASSWORD;
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 64)) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be 8 to 64 characters long');
  }

  const seed = (get('SEED') ?? 'demo').toLowerCase();
  if (seed !== 'demo' && seed !== 'none')
    throw new ConfigError('SEED', `expected "demo" or "none", got "${seed}"`);

  const scaleText = get('DEMO_SCALE') ?? '1';
  const demoScale = Number(scaleText);
  if (!/^\d*\.?\d+$/.test(scaleText) || !(demoScale > 0 && demoScale <= 1)) {
    throw new ConfigError('DEMO_SCALE', `expected a number in (0, 1], got "${scaleText}"`);
  }

  const wgPortsText = get('DEMO_WG_PORTS') ?? '61000';
  const demoWgPorts = Number(wgPortsText);
  if (!/^\d+$/.test(wgPortsText) || demoWgPorts < 1024 || demoWgPorts > 65000)
    throw new ConfigError('DEMO_WG_PORTS', `expected a UDP port from 1024 to 65000, got "${wgPortsText}"`);
  return { sessionTtlSeconds, adminPassword, seed, demoScale, demoWgPorts };
}

/** WG_POLL, WG_TIMEOUT, WG_TRIES, then WG, WG_LISTEN and WG_ADVERTISE. */
function wgVars(get: Env): WgConfig {
  const wgPollText = get('WG_POLL') ?? '10s';
  const wgPoll = parseDuration(wgPollText);
  if (wgPoll === null) throw new ConfigError('WG_POLL', `expected a duration, got "${wgPollText}"`);
  const wgTimeoutText = get('WG_TIMEOUT') ?? '300';
  const wgTriesText = get('WG_TRIES') ?? '3';
  if (!/^\d+$/.test(wgTimeoutText) || Number(wgTimeoutText) < 10 || Number(wgTimeoutText) > 10_000)
    throw new ConfigError('WG_TIMEOUT', `expected milliseconds 10-10000, got "${wgTimeoutText}"`);
  if (!/^\d+$/.test(wgTriesText) || Number(wgTriesText) < 1 || Number(wgTriesText) > 10)
    throw new ConfigError('WG_TRIES', `expected 1-10, got "${wgTriesText}"`);
  return {
    enabled: onOffVar(get, 'WG', true),
    listen: hostPortVar(get, 'WG_LISTEN', '0.0.0.0:60099'),
    advertise: hostPortVar(get, 'WG_ADVERTISE', null),
    pollSeconds: wgPoll,
    timeoutMs: Number(wgTimeoutText),
    tries: Number(wgTriesText),
  };
}

/** SIMULATOR, SIMULATOR_CONTROL and SIMULATOR_OCPP_URL. */
function simulatorVars(get: Env): Pick<Config, 'simulator' | 'simulatorControl' | 'simulatorOcppUrl'> {
  const simulator = onOffVar(get, 'SIMULATOR', true);
  const controlText = hostPortVar(get, 'SIMULATOR_CONTROL', null);
  const simulatorControl = controlText
    ? {
        host: controlText.includes(':') ? controlText.slice(0, controlText.lastIndexOf(':')) : '127.0.0.1',
        port: Number(controlText.slice(controlText.lastIndexOf(':') + 1)),
      }
    : null;
  const simulatorOcppUrl = get('SIMULATOR_OCPP_URL')?.trim() || null;
  if (simulatorOcppUrl !== null && !/^wss?:\/\/[^\s/]+\/\S*ocpp$/i.test(simulatorOcppUrl))
    throw new ConfigError(
      'SIMULATOR_OCPP_URL',
      `expected the OCPP address ws://host:port/ocpp (through the proxy), got "${simulatorOcppUrl}"`,
    );
  return { simulator, simulatorControl, simulatorOcppUrl };
}

/** TRUST_PROXY: on, off, or the proxies' addresses. */
function trustProxyVar(get: Env): Config['trustProxy'] {
  const trustText = (get('TRUST_PROXY') ?? 'off').trim();
  const trustProxy = ['on', 'true', '1'].includes(trustText.toLowerCase())
    ? true
    : ['off', 'false', '0', ''].includes(trustText.toLowerCase())
      ? false
      : trustText;
  if (typeof trustProxy === 'string' && !/^[0-9A-Fa-f.:/, ]+$/.test(trustProxy))
    throw new ConfigError('TRUST_PROXY', `expected on, off or proxy addresses, got "${trustText}"`);
  return trustProxy;
}

/** DRAIN_DELAY. */
function drainDelayVar(get: Env, databaseUrl: string): number {
  // One process on SQLite: no proxy to wait for, unless DRAIN_DELAY says otherwise.
  return /^0+[a-z]?$/i.test(get('DRAIN_DELAY') ?? (/^postgres(ql)?:\/\//i.test(databaseUrl) ? '3s' : '0'))
    ? 0
    : durationVar(get, 'DRAIN_DELAY', '3s', 0);
}

/** EXPORT_DIR. */
function exportDirVar(get: Env, cwd: string, databaseUrl: string): string {
  // Next to the SQLite file by default, so a temporary database keeps its exports with it.
  return path.resolve(
    cwd,
    get('EXPORT_DIR') ??
      (/^postgres(ql)?:\/\//i.test(databaseUrl) || databaseUrl === ':memory:'
        ? path.join(REPO_ROOT, 'data/exports')
        : path.join(path.dirname(path.resolve(cwd, databaseUrl)), 'exports')),
  );
}

/** Reads and validates the environment once at start; the first bad variable is named in the error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const get: Env = (name) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const { port, databaseUrl, pg } = serverVars(get);
  const { sessionTtlSeconds, adminPassword, seed, demoScale, demoWgPorts } = accountAndDemoVars(get, env);

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}`);

  const heartbeatText = get('HUB_HEARTBEAT') ?? '15s';
  const hubHeartbeatSeconds = parseDuration(heartbeatText);
  if (hubHeartbeatSeconds === null)
    throw new ConfigError('HUB_HEARTBEAT', `expected a duration, got "${heartbeatText}"`);

  const ocpp: OcppConfig = {
    heartbeatSeconds: durationVar(get, 'OCPP_HEARTBEAT', '60s', 1),
    offlineGraceSeconds: durationVar(get, 'OCPP_OFFLINE_GRACE', '10m', 0),
  };
  const wg = wgVars(get);
  const { simulator, simulatorControl, simulatorOcppUrl } = simulatorVars(get);
  // The reference lists every endpoint and field: a map for an attacker, so only for signed-in callers
  // unless the operator opens it.
  const apiDocs = (get('API_DOCS') ?? 'signed-in').toLowerCase();
  if (apiDocs !== 'public' && apiDocs !== 'signed-in' && apiDocs !== 'off')
    throw new ConfigError('API_DOCS', `expected "public", "signed-in" or "off", got "${apiDocs}"`);

  let instance: string;
  try {
    instance = instanceId(env);
  } catch (error) {
    throw new ConfigError('INSTANCE_ID', (error as Error).message);
  }

  const trustProxy = trustProxyVar(get);

  const host = get('HOST') ?? (seed === 'demo' ? '127.0.0.1' : '0.0.0.0');
  const metrics = metricsConfig(get, host, port);
  const webhookAllowNetworks = parseNetworks(get('WEBHOOK_ALLOW_NETWORKS') ?? '');
  const mqttUrl = get('MQTT_URL') ?? null;
  if (mqttUrl !== null && !/^mqtts?:\/\/[^/\s]+/i.test(mqttUrl))
    throw new ConfigError('MQTT_URL', `expected mqtt://host:port or mqtts://host:port, got "${mqttUrl}"`);

  return {
    instanceId: instance,
    metrics,
    webhookAllowNetworks,
    mqttUrl,
    trustProxy,
    drainSeconds: drainDelayVar(get, databaseUrl),
    wg,
    simulator,
    simulatorControl,
    simulatorOcppUrl,
    apiDocs,
    port,
    // With the demo seed, accounts with a published password exist: only this machine may reach them
    // unless HOST says otherwise (main.ts then warns).
    host,
    databaseUrl,
    pg,
    sessionTtlSeconds,
    adminPassword,
    seed,
    demoScale,
    demoWgPorts,
    webDist: path.resolve(cwd, get('WEB_DIST') ?? path.join(REPO_ROOT, 'packages/web/dist')),
    logLevel,
    hubHeartbeatSeconds,
    ocpp,
    exportDir: exportDirVar(get, cwd, databaseUrl),
  };
}

/** WEBHOOK_ALLOW_NETWORKS: each entry an IPv4 or IPv6 address with a prefix length in its bounds. */
export function parseNetworks(text: string): Config['webhookAllowNetworks'] {
  const networks: Config['webhookAllowNetworks'] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address = '', prefixText, extra] = entry.split('/');
    const version = isIP(address);
    const max = version === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (version === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
      throw new ConfigError(
        'WEBHOOK_ALLOW_NETWORKS',
        `expected comma-separated CIDRs such as 10.0.0.0/8 or fd00::/8, got "${entry}"`,
      );
    networks.push({ address, prefix, family: version === 6 ? 'ipv6' : 'ipv4' });
  }
  return networks;
}

/** METRICS_PORT and METRICS_TOKEN (see MetricsConfig). */
function metricsConfig(
  get: (name: string) => string | undefined,
  host: string,
  publicPort: number,
): MetricsConfig {
  const portText = get('METRICS_PORT');
  let listen: MetricsConfig['listen'] = null;
  if (portText !== undefined && portText.toLowerCase() !== 'off') {
    const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3}|localhost):)?(\d{1,5})$/.exec(portText);
    if (!m || Number(m[2]) > 65535)
      throw new ConfigError(
        'METRICS_PORT',
        `expected a port or host:port such as 127.0.0.1:9464, got "${portText}"`,
      );
    if (Number(m[2]) !== 0 && Number(m[2]) === publicPort)
      throw new ConfigError(
        'METRICS_PORT',
        `must differ from PORT (${publicPort}): it is a listener of its own`,
      );
    listen = { host: m[1] ?? host, port: Number(m[2]) };
  }
  const token = get('METRICS_TOKEN') ?? null;
  // A scraper's configuration holds it: long enough not to be guessed, and nothing a header would mangle.
  if (token !== null && !/^[\x21-\x7e]{16,256}$/.test(token))
    throw new ConfigError(
      'METRICS_TOKEN',
      'expected 16 to 256 printable characters without spaces (for example the output of `openssl rand -hex 32`)',
    );
  return { listen, token };
}
