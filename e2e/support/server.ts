import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WEB_DIST = path.join(REPO_ROOT, 'packages/web/dist');
export const ADMIN_PASSWORD = 'E2e-Admin-2026';
/** Password of every demo user (packages/server/src/demo/catalog.ts). */
export const DEMO_PASSWORD = 'Demo@2026';

export interface RunningServer {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  adminPassword: string;
  databasePath: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  seed?: 'demo' | 'none';
  env?: Record<string, string>;
  /** How long to wait for /healthz (ms). */
  timeoutMs?: number;
}

/** The settings of a test server without the demo's devices (suite.ts), the servers that may start on the template. */
export const NO_DEVICES: Record<string, string> = { SIMULATOR: 'off', WG_LISTEN: 'off' };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded demo database file of this run (global-setup.ts). */
    e2eDemoTemplate: string;
  }
}

/** The run's seeded demo database (global-setup.ts); none outside a vitest run (a benchmark starting servers). */
function demoTemplate(): string | undefined {
  try {
    return inject('e2eDemoTemplate');
  } catch {
    return undefined;
  }
}

function sameEnv(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a![k] === b[k]);
}

/** A test server's environment: its database file and port, the e2e settings, then the caller's. */
export function serverEnv(
  databasePath: string,
  port: number,
  env: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databasePath,
    SEED: 'demo',
    // A twentieth of the bulk demo data (10,000 swipes, 5,000 charging sessions): every list still has
    // pages of realistic rows, and each test file's server starts in seconds rather than a quarter minute.
    DEMO_SCALE: '0.05',
    ADMIN_PASSWORD,
    WEB_DIST,
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/** A port nobody listens on right now (the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts the real server (`node --import tsx packages/server/src/main.ts`) on a fresh SQLite database in
 * a temporary folder, seeded with the demo data, serving the built web app, on a free port; resolves once
 * /healthz answers. The built app must exist: run `npm run build -w packages/web` first.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `No web build in ${WEB_DIST}: run \`npm run build -w packages/web\` before the e2e tests.`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-'));
  const databasePath = path.join(dir, 'gatehouse.db');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  // A server without devices on the demo starts on a copy of the run's template (global-setup.ts), as if it had
  // seeded it itself.
  const template = demoTemplate();
  if (template && (options.seed ?? 'demo') === 'demo' && sameEnv(options.env, NO_DEVICES))
    fs.copyFileSync(template, databasePath);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'packages/server/src/main.ts')],
    {
      cwd: REPO_ROOT,
      env: serverEnv(databasePath, port, { SEED: options.seed ?? 'demo', ...options.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /healthz within the time limit:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, port, adminPassword: ADMIN_PASSWORD, databasePath, output: () => output, stop };
}
