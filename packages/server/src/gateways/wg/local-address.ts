// Where controllers push their events: the listener's address, the one advertised to each controller, and
// what is said when the listener cannot bind.

import os from 'node:os';
import { ConfigError } from '../../config.ts';
import { parseHostPort } from './driver.ts';
import { ListenerBindError } from './listener-thread.ts';

/** The local IPv4 address on the interface facing `ip` (same subnet), loopback for loopback, else the first. */
export function localAddressFacing(ip: string): string {
  if (ip.startsWith('127.')) return '127.0.0.1';
  const toInt = (a: string) => a.split('.').reduce((n, p) => (n << 8) | Number(p), 0) >>> 0;
  const target = toInt(ip);
  let fallback: string | undefined;
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || a.internal) continue;
      fallback ??= a.address;
      const mask = toInt(a.netmask);
      if ((toInt(a.address) & mask) === (target & mask)) return a.address;
    }
  }
  return fallback ?? '127.0.0.1';
}

/**
 * The address a controller is told to push its events to: `WG_ADVERTISE` when set (NAT), else the listener's
 * own, or, for a listener on every interface, the local address facing the controller. None without a listener.
 */
export function advertiseFor(
  listening: { address: string; port: number } | undefined,
  advertise: string | null | undefined,
  ip: string | null,
): { host: string; port: number } | undefined {
  if (!listening) return undefined;
  if (advertise) return parseHostPort(advertise);
  const port = listening.port;
  if (listening.address !== '0.0.0.0') return { host: listening.address, port };
  return { host: localAddressFacing(ip ?? '127.0.0.1'), port };
}

/**
 * A listener that cannot bind is a setting to change, said in one line naming the port and the setting (the
 * start stops with it: main.ts), not a worker thread's stack trace.
 */
export function listenProblem(listen: string, error: unknown): unknown {
  if (!(error instanceof ListenerBindError)) return error;
  const where = `UDP port ${error.port} on ${error.host}`;
  const why =
    error.code === 'EADDRINUSE'
      ? `${where} is already in use (another Gatehouse instance or program listens there)`
      : error.code === 'EADDRNOTAVAIL'
        ? `${error.host} is not an address of this machine`
        : `${where} cannot be listened on (${error.message})`;
  return new ConfigError(
    'WG_LISTEN',
    `${why}; the controllers' pushed events arrive there (WG_LISTEN=${listen}): free it, or set WG_LISTEN to another host:port, or to off for polling only`,
  );
}
