// The WG gateway in the house's one gateway shape (platform/gateway.ts).

import { OwnedDevices } from '../../platform/cluster/index.ts';
import type { DeviceGateway, GatewayDeps } from '../../platform/gateway.ts';
import { WgGateway, type WgGatewayOptions, type WgOwnership } from './gateway.ts';

/**
 * A controller's lease term: renewed every 5 s (a quarter), so a dead instance's controllers are taken within
 * about 25 s (the term, or the registry's 20 s window of live instances, and one round), under the 30 s asked.
 */
const WG_LEASE_MS = 20_000;

/** The WG gateway's settings (config.wg), besides the test-only knobs of WgGatewayOptions. */
export type WgSettings = Pick<WgGatewayOptions, 'listen' | 'advertise' | 'pollSeconds' | 'driver'>;

/**
 * The WG door-controller gateway in the house's one gateway shape (platform/gateway.ts): nothing happens
 * until `start` (the app starts it once its server exists), `close` stops every loop and the listener.
 */
export function wgGateway(
  deps: GatewayDeps,
  settings: WgSettings,
): DeviceGateway & { gateway(): WgGateway | undefined } {
  let running: WgGateway | undefined;
  return {
    name: 'wg',
    async start() {
      // Said before the first round shares the controllers out, so this instance is counted among the drivers.
      await deps.cluster?.drive('wg', true);
      running = await WgGateway.start({
        ...settings,
        db: deps.db,
        clock: deps.clock,
        hub: deps.hub,
        log: deps.log,
        ownership: ownership(deps),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      });
    },
    async close() {
      await running?.close();
      running = undefined;
      await deps.cluster?.drive('wg', false);
    },
    health() {
      const devices = running ? running.controllerCount() : 0;
      const states = running ? running.driver.devices() : [];
      const connected = states.filter((d) => d.online === true).length;
      const offline = states.filter((d) => d.online === false).length;
      return { name: 'wg', running: running !== undefined, devices, connected, offline };
    },
    gateway: () => running,
  };
}

/**
 * On PostgreSQL, where several instances may run, each drives its share of the controllers (fenced leases,
 * balanced; docs/deployment.md). SQLite is one process by definition: it drives them all, as before.
 */
function ownership(deps: GatewayDeps): WgOwnership | undefined {
  const cluster = deps.cluster;
  if (!cluster || deps.db.dialect !== 'postgres') return undefined;
  return {
    devices: new OwnedDevices({
      leases: cluster.leases,
      clock: deps.clock,
      kind: 'wg',
      self: cluster.id,
      live: () => cluster.liveInstances('wg'),
      ttlMs: WG_LEASE_MS,
    }),
    owners: cluster.owners,
  };
}
