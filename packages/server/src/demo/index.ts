import type { Db } from '../db/database.ts';
import { startDemoChargePoints, type DemoChargePoints } from './charge-points.ts';
import { startDemoControllers, type DemoControllers } from './controllers.ts';

/**
 * The demo place (docs/architecture.md, "Floors"): the demo's data (seed.ts, with each module's demo
 * seeder), and its simulated devices: a WG controller per demo door controller and an OCPP charge point per
 * demo charging host, driven by the two simulator packages, which talk to Gatehouse only over the protocols.
 * Production code never imports this folder; main.ts loads it only to start the demo.
 */

export interface DemoDevices {
  controllers: DemoControllers | undefined;
  chargePoints: DemoChargePoints | undefined;
  /** Where the simulators' control APIs listen (SIMULATOR_CONTROL), to print. */
  controlUrls: string[];
  close(): Promise<void>;
}

/** The demo controllers answer before the WG gateway first calls them: start them before the app. */
export function startControllers(db: Db): Promise<DemoControllers | undefined> {
  return startDemoControllers(db);
}

/**
 * The charge points connect to the server once it listens (`ocppUrl`); with `control`, the simulators' small
 * JSON control APIs listen too (WG on its port, OCPP on the next; 0 picks free ports).
 */
export async function startDevices(
  db: Db,
  controllers: DemoControllers | undefined,
  options: { ocppUrl: string; control: { host: string; port: number } | undefined },
): Promise<DemoDevices> {
  const chargePoints = await startDemoChargePoints(db, options.ocppUrl);
  const closers: (() => Promise<void>)[] = [];
  const controlUrls: string[] = [];
  if (options.control) {
    const { host, port } = options.control;
    if (controllers) {
      const { serveHttp } = await import('@gatehouse/wg-simulator');
      const server = await serveHttp(controllers.simulator, port, host);
      closers.push(() => new Promise((resolve) => server.close(() => resolve())));
      controlUrls.push(`WG simulator control: http://${host}:${(server.address() as { port: number }).port}`);
    }
    if (chargePoints) {
      const { startControlApi } = await import('@gatehouse/ocpp-simulator');
      const control = await startControlApi(chargePoints.simulator, port === 0 ? 0 : port + 1, host);
      closers.push(() => control.close());
      controlUrls.push(`OCPP simulator control: ${control.url}`);
    }
  }
  return {
    controllers,
    chargePoints,
    controlUrls,
    async close() {
      for (const close of closers) await close();
      await chargePoints?.close();
      await controllers?.close();
    },
  };
}
