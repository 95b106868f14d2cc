// Several Gatehouse instances as child processes on one PostgreSQL database, behind HAProxy with the shipped
// deploy/haproxy.cfg: the approach of packages/server/test/cluster-proxy.test.ts (its start(), ready(),
// proxyConfig() and HAProxy start), for the cluster benchmark (bench/cluster.ts). Each instance is main.ts as
// `npm start` runs it, with its own PORT, INSTANCE_ID and WG_LISTEN UDP port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sleep } from './measure.ts';
import { REPO_ROOT, freeTcpPort, freeUdpPort } from './server.ts';

const MAIN = path.join(REPO_ROOT, 'packages/server/src/main.ts');

export const haproxyPath = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) =>
  fs.existsSync(p),
);

export interface Instance {
  id: string;
  port: number;
  wgPort: number;
  base: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  alive(): boolean;
}

export interface Proxy {
  base: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Polls every `everyMs` until `check` holds; resolves with the milliseconds it took, rejects after `ms`. */
export async function within(
  check: () => Promise<boolean>,
  ms: number,
  what: string,
  everyMs = 10,
): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** A fresh database on the server of `serverUrl` (any database URL of it); drop() removes it. */
export async function freshDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Starts main.ts as instance `id` on `databaseUrl` (the variables of cluster-proxy.test.ts, then `env`).
 * Resolves once the process is spawned; `ready()` waits for its /readyz.
 */
export async function startInstance(
  id: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freeTcpPort();
  const wgPort = await freeUdpPort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      INSTANCE_ID: id,
      SEED: 'demo',
      SIMULATOR: 'off',
      // Every instance drives its share of the door controllers, each on its own UDP port.
      WG: 'on',
      WG_LISTEN: `127.0.0.1:${wgPort}`,
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '127.0.0.1',
      DRAIN_DELAY: '3s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A benchmark that crashes must not leave its servers running.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.removeListener('exit', orphaned);
      resolve(code);
    }),
  );
  return {
    id,
    port,
    wgPort,
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

/** Waits until the instance answers /readyz with 200; resolves with the ms it took. */
export function ready(instance: Instance, ms = 180_000): Promise<number> {
  return within(
    async () => {
      if (instance.child.exitCode !== null) throw new Error(`${instance.id} exited:\n${instance.output()}`);
      return (await fetch(`${instance.base}/readyz`).catch(() => undefined))?.status === 200;
    },
    ms,
    `${instance.id} ready`,
  );
}

/** Stops an instance with SIGTERM (its drain), SIGKILL after 20 s. */
export async function stopInstance(instance: Instance): Promise<void> {
  if (!instance.alive()) return;
  instance.child.kill('SIGTERM');
  const killer = setTimeout(() => instance.child.kill('SIGKILL'), 20_000);
  await instance.exited;
  clearTimeout(killer);
}

/**
 * deploy/haproxy.cfg as shipped, listening on `port`, with the server lines of `instances` only (named gh1,
 * gh2, gh3 as in the shipped file) pointed at their ports, and without what needs root or syslog.
 */
export function proxyConfig(port: number, instances: Instance[]): string {
  const shipped = fs.readFileSync(path.join(REPO_ROOT, 'deploy/haproxy.cfg'), 'utf8');
  const ids = new Set(instances.map((i) => i.id));
  let text = shipped
    .split('\n')
    .filter((line) => !/^\s*(log \/dev\/log|chroot|user|group|stats socket)\b/.test(line))
    .filter((line) => {
      const server = /^\s*server (\S+) /.exec(line);
      return !server || ids.has(server[1]!);
    })
    .join('\n')
    .replace('bind *:80', `bind 127.0.0.1:${port}`);
  for (const instance of instances) {
    const n = /^gh([1-3])$/.exec(instance.id)?.[1];
    if (!n)
      throw new Error(`instance ids are gh1..gh3 (the shipped file's server names), not ${instance.id}`);
    text = text.replaceAll(`127.0.0.1:808${n}`, `127.0.0.1:${instance.port}`);
  }
  if (/127\.0\.0\.1:808\d/.test(text)) throw new Error('a server line of the shipped file was not rewritten');
  return text;
}

/** HAProxy with proxyConfig() in front of `instances`; resolves once /readyz through it has named each. */
export async function startProxy(instances: Instance[]): Promise<Proxy> {
  if (!haproxyPath) throw new Error('haproxy is not installed (apt-get install haproxy)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-haproxy-'));
  const port = await freeTcpPort();
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, proxyConfig(port, instances));
  const check = spawnSync(haproxyPath, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0)
    throw new Error(`haproxy -c refused the configuration:\n${check.stdout}${check.stderr}`);
  let output = '';
  const child = spawn(haproxyPath, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', orphaned);
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const seen = new Set<string>();
  await within(
    async () => {
      const reply = await fetch(`${base}/readyz`).catch(() => undefined);
      if (reply?.status === 200)
        seen.add(((await reply.json()) as { data: { instance: string } }).data.instance);
      return instances.every((i) => seen.has(i.id));
    },
    20_000,
    `every instance behind the proxy (seen: ${[...seen].join(', ')})`,
  );
  return {
    base,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU time (ms, user + system) a process has used so far, from /proc; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
