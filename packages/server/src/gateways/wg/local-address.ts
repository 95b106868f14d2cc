// Where controllers push their events when the listener is bound to every interface.

import os from 'node:os';

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
