import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../../config.ts';
import { AppError } from '../errors.ts';

/**
 * Where a webhook may be sent (docs/integrations.md, "Webhooks"): never to a private, loopback, link-local or
 * otherwise internal address unless WEBHOOK_ALLOW_NETWORKS allows its network, so a subscription cannot turn
 * Gatehouse into a probe of the site's own network (SSRF). The host is resolved and every address it resolves
 * to is checked; the request then connects to the address checked (delivery.ts pins it), so a name that
 * resolves elsewhere a moment later (DNS rebinding) reaches nothing new.
 */

const INTERNAL: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export class TargetPolicy {
  private readonly internal = new BlockList();
  private readonly allowed = new BlockList();

  constructor(allow: Config['webhookAllowNetworks']) {
    for (const [address, prefix, family] of INTERNAL) this.internal.addSubnet(address, prefix, family);
    for (const n of allow) this.allowed.addSubnet(n.address, n.prefix, n.family);
  }

  /** Whether an address may be sent to: public, or internal in an allowed network. */
  permits(address: string): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return this.permits(mapped);
    if (this.allowed.check(address, family)) return true;
    return !this.internal.check(address, family);
  }

  /**
   * The addresses a webhook URL reaches, each permitted; else a 400 naming the refused address (or the host
   * that did not resolve), before anything is sent.
   */
  async resolve(url: string): Promise<{ address: string; family: 4 | 6 }[]> {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: { address: string; family: number }[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await lookup(host, { all: true, verbatim: true });
      } catch {
        throw new AppError(400, 'error.webhookTargetUnresolved', { host });
      }
    }
    const refused = addresses.find((a) => !this.permits(a.address));
    if (refused || addresses.length === 0)
      throw new AppError(400, 'error.webhookTargetRefused', { address: refused?.address ?? host });
    return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  }
}
