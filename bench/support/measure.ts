// What the device and soak benchmarks share: an API client that times each call, percentiles, a paced
// latency probe in a process of its own, and the figures printed next to every result (load average, memory).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { BenchServer, ServerSample } from './server.ts';

export interface Reply<T = unknown> {
  status: number;
  /** the envelope's data (undefined when the body is not the JSON envelope) */
  data: T;
  msg: string;
  ms: number;
}

export interface CallOptions {
  token?: string;
  area?: number;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** One API call over HTTP: status, envelope and wall time (ms) as the client saw it. */
export async function api<T = unknown>(
  base: string,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.area !== undefined) headers['x-area-id'] = String(options.area);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) search.set(k, String(v));
  const target = `${base}${url}${search.size ? `?${search}` : ''}`;
  const started = performance.now();
  const response = await fetch(target, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let envelope: { data?: T; msg?: string } = {};
  try {
    envelope = JSON.parse(text) as { data?: T; msg?: string };
  } catch {
    // Not JSON (a download): status and time are what counts.
  }
  return { status: response.status, data: envelope.data as T, msg: envelope.msg ?? '', ms };
}

/** Logs in; throws with the server's message when refused. */
export async function login(base: string, username: string, password: string): Promise<string> {
  const reply = await api<{ token: string }>(base, 'POST', '/api/Auth/login', {
    body: { username, password },
  });
  if (reply.status !== 200) throw new Error(`login ${username}: ${reply.status} ${reply.msg}`);
  return reply.data.token;
}

/** Throws unless the reply is 200 (setup steps, where anything else is a broken benchmark). */
export function ok<T>(reply: Reply<T>, what: string): T {
  if (reply.status !== 200) throw new Error(`${what}: HTTP ${reply.status} ${reply.msg}`);
  return reply.data;
}

/**
 * The p-th percentile (0..100) of values, nearest rank; 0 and 100 are the minimum and maximum (for large
 * arrays, which Math.max(...values) cannot take as arguments).
 */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** "1.23 / 1.10 / 0.95" — the 1, 5 and 15 minute load averages, printed next to every figure. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

export function machine(): string {
  return `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'})`;
}

export interface ProbeResult {
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** non-2xx answers plus connection errors and timeouts */
  errors: number;
}

const autocannonCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

/**
 * Times one GET at a fixed pace (`rate` a second over one connection) for `seconds`, from a process of its
 * own (autocannon): the figure is the server's, not the load generator's event loop. A paced probe adds
 * little load of its own, unlike a closed loop.
 */
export function probeLatency(
  url: string,
  headers: Record<string, string>,
  { rate = 10, seconds = 20 }: { rate?: number; seconds?: number } = {},
): Promise<ProbeResult> {
  return autocannon<{
    requests: { total: number };
    latency: { p50: number; p90: number; p99: number; max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }>(['-c', '1', '-R', String(rate), '-d', String(seconds)], url, headers).then((r) => ({
    requests: r.requests.total,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
  }));
}

/** Runs autocannon in a process of its own (so it does not share this one's event loop) and reads its JSON. */
export function autocannon<T>(
  options: string[],
  url: string,
  headers: Record<string, string> = {},
): Promise<T> {
  const args = [autocannonCli, ...options, '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      resolve(JSON.parse(out) as T);
    });
  });
}

export function formatProbe(p: ProbeResult): string {
  return `${p.requests} calls, p50 ${p.p50} ms, p90 ${p.p90} ms, p99 ${p.p99} ms, max ${p.max} ms, errors ${p.errors}`;
}

/** Samples the server's memory and CPU every `everyMs` until stopped; rows for the report. */
export function watchServer(server: BenchServer, everyMs: number) {
  const samples: ServerSample[] = [];
  const take = () =>
    server.sample().then(
      (s) => void samples.push(s),
      () => undefined,
    );
  void take();
  const timer = setInterval(() => void take(), everyMs);
  return {
    samples,
    async stop(): Promise<ServerSample[]> {
      clearInterval(timer);
      await take();
      return samples;
    },
  };
}

/** Server CPU use between two samples, as a share of one core (100% = one core busy). */
export function cpuShare(a: ServerSample, b: ServerSample): number {
  const used = b.cpu.user + b.cpu.system - (a.cpu.user + a.cpu.system);
  return (used / 1000 / Math.max(1, b.at - a.at)) * 100;
}
