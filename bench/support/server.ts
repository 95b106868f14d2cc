// The server under test for the device and soak benchmarks: the real entry point (packages/server/src/main.ts)
// in a child process of its own, so the load generators (simulated controllers, charge points, operators)
// do not share its event loop. bench/support/memory-probe.ts rides along to report its memory and CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerSample {
  at: number;
  memory: NodeJS.MemoryUsage;
  /** CPU time used since the process started (µs) */
  cpu: NodeJS.CpuUsage;
}

export interface BenchServer {
  url: string;
  pid: number;
  /** Memory and CPU time of the server process now. */
  sample(): Promise<ServerSample>;
  /** Everything the server printed (for failure messages and warnings). */
  output(): string;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A UDP port nobody is bound to right now (for WG_LISTEN: never the fixed 60099 a demo may hold). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
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
 * Starts main.ts on `databasePath` (seeded already, or seeded by main.ts itself as `env` says) and resolves
 * once /healthz answers. The simulators of the demo stay off and the WG gateway is off unless `env` turns
 * it on with a listener of its own: a benchmark never touches the fixed ports a demo or an e2e run binds.
 */
export async function startBenchServer(options: {
  databasePath: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<BenchServer> {
  const port = await freeTcpPort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(
    process.execPath,
    [
      // BENCH_PROFILE_DIR=<dir>: a V8 CPU profile of the server, written when it stops (where the time goes).
      ...(process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : []),
      '--import',
      'tsx',
      '--import',
      path.join(REPO_ROOT, 'bench/support/memory-probe.ts'),
      path.join(REPO_ROOT, 'packages/server/src/main.ts'),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: options.databasePath,
        EXPORT_DIR: path.join(path.dirname(options.databasePath), 'exports'),
        WEB_DIST: path.join(os.tmpdir(), 'gatehouse-bench-no-web'),
        SIMULATOR: 'off',
        WG: 'off',
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  // A benchmark that crashes must not leave its server running (and loading the machine under the next one).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.removeListener('exit', orphaned));

  const waiting = new Set<(sample: ServerSample) => void>();
  child.on('message', (message) => {
    const sample = message as ServerSample;
    for (const resolve of waiting) resolve(sample);
    waiting.clear();
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(killer);
    }
  };

  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /healthz in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop,
    sample: () =>
      new Promise<ServerSample>((resolve, reject) => {
        if (!child.connected) return reject(new Error('the server has no IPC channel (exited?)'));
        waiting.add(resolve);
        // A server killed a moment ago (bench:wg's BENCH_KILL_AFTER) may still look connected: the write fails
        // (EPIPE), which without a callback is an 'error' event that ends the benchmark.
        child.send('sample', (error) => {
          if (!error) return;
          waiting.delete(resolve);
          reject(error);
        });
      }),
  };
}
