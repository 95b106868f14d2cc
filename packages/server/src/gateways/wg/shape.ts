// The WG gateway in the house's one gateway shape (platform/gateway.ts).

import type { DeviceGateway, GatewayDeps } from '../../platform/gateway.ts';
import { WgGateway, type WgGatewayOptions } from './gateway.ts';

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
      running = await WgGateway.start({
        ...settings,
        db: deps.db,
        clock: deps.clock,
        hub: deps.hub,
        log: deps.log,
      });
    },
    async close() {
      await running?.close();
      running = undefined;
    },
    health() {
      const devices = running ? running.controllerCount() : 0;
      const connected = running ? running.driver.devices().filter((d) => d.online === true).length : 0;
      return { name: 'wg', running: running !== undefined, devices, connected };
    },
    gateway: () => running,
  };
}
