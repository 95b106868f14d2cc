import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Defaults are anchored to the repository, so `npm start` from any workspace finds the same files.
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type SeedMode = 'demo' | 'none';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Seconds of inactivity after which a session ends. */
  sessionTtlSeconds: number;
  adminPassword: string | undefined;
  seed: SeedMode;
  /** Bulk demo volume factor in (0, 1]; 1 is the full demo. */
  demoScale: number;
  webDist: string;
  logLevel: string;
  /** Seconds between heartbeats on an area's live-event hub. */
  hubHeartbeatSeconds: number;
  /** Folder of generated export files. */
  exportDir: string;
}

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

/** Reads and validates the environment once at start; the first bad variable is named in the error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const get = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const portText = get('PORT') ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `expected a port number 0-65535, got "${portText}"`);
  }

  const databaseUrl = get('DATABASE_URL') ?? path.join(REPO_ROOT, 'data/gatehouse.db');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'expected a SQLite file path or a postgres:// URL');
  }

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

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}`);

  const heartbeatText = get('HUB_HEARTBEAT') ?? '15s';
  const hubHeartbeatSeconds = parseDuration(heartbeatText);
  if (hubHeartbeatSeconds === null)
    throw new ConfigError('HUB_HEARTBEAT', `expected a duration, got "${heartbeatText}"`);

  return {
    port,
    host: get('HOST') ?? '0.0.0.0',
    databaseUrl,
    sessionTtlSeconds,
    adminPassword,
    seed,
    demoScale,
    webDist: path.resolve(cwd, get('WEB_DIST') ?? path.join(REPO_ROOT, 'packages/web/dist')),
    logLevel,
    hubHeartbeatSeconds,
    // Next to the SQLite file by default, so a temporary database keeps its exports with it.
    exportDir: path.resolve(
      cwd,
      get('EXPORT_DIR') ??
        (/^postgres(ql)?:\/\//i.test(databaseUrl) || databaseUrl === ':memory:'
          ? path.join(REPO_ROOT, 'data/exports')
          : path.join(path.dirname(path.resolve(cwd, databaseUrl)), 'exports')),
    ),
  };
}
