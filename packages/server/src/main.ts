import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed/index.ts';
import { DEMO_PASSWORD } from './db/seed/catalog.ts';
import { buildApp } from './app.ts';
import { startDemoChargePoints, type DemoChargePoints } from './gateways/ocpp/demo.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Gatehouse cannot start. ${error.message}`);
    process.exit(1);
  }
  throw error;
}

const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const seed = await seedIfEmpty(db, {
  mode: config.seed,
  adminPassword: config.adminPassword,
  now: Date.now(),
  scale: config.demoScale,
});
// The demo's simulated door controllers answer before the gateway first calls them.
const demoControllers =
  config.seed === 'demo' && config.simulator && config.wg.enabled
    ? // Loaded only for the demo: the simulator package is a development dependency.
      await (await import('./gateways/wg/demo.ts')).startDemoControllers(db)
    : undefined;
const { app } = await buildApp({ config, db, devices: true });
if (demoControllers)
  console.log(
    `  Simulated WG controllers: ${demoControllers.simulator.controllers.size} on 127.0.0.1 (SIMULATOR=off turns them off)\n`,
  );

if (seed.seeded) {
  app.log.info({ database: db.dialect, mode: config.seed }, 'empty database seeded');
  if (seed.generatedAdminPassword) {
    // Printed once to the console (not the JSON log), as the only copy of a generated secret.
    console.log(
      `\n  Administrator: admin / ${seed.generatedAdminPassword}\n  (generated; set ADMIN_PASSWORD to choose it)\n`,
    );
  }
  if (seed.demoUsers.length)
    console.log(`  Demo users (password ${DEMO_PASSWORD}): ${seed.demoUsers.join(', ')}\n`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let requests in flight finish, then close the database.
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    app
      .close()
      .then(() => Promise.all(controls.map((c) => c.close())))
      .then(() => demoChargePoints?.close())
      .then(() => demoControllers?.close())
      .then(() => db.close())
      .then(() => {
        clearTimeout(force);
        process.exit(0);
      })
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}

let demoChargePoints: DemoChargePoints | undefined;
await app.listen({ port: config.port, host: config.host });
// The demo's charge points connect to the server they belong to, once it listens (gateways/ocpp/demo.ts).
if (config.seed === 'demo' && config.simulator) {
  const port = (app.server.address() as { port: number }).port;
  demoChargePoints = await startDemoChargePoints(db, `ws://127.0.0.1:${port}/ocpp`);
  if (demoChargePoints)
    console.log(
      `  Simulated OCPP charge points: ${demoChargePoints.simulator.points.size} (SIMULATOR=off turns them off)\n`,
    );
}
// Control APIs of the demo's simulators (SIMULATOR_CONTROL): swipe a card, plug in a bike, take a device away.
const controls: { close(): Promise<void> }[] = [];
if (config.simulatorControl) {
  const { host, port } = config.simulatorControl;
  if (demoControllers) {
    const { serveHttp } = await import('@gatehouse/wg-simulator');
    const server = await serveHttp(demoControllers.simulator, port, host);
    controls.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const address = server.address() as { port: number };
    console.log(`  WG simulator control: http://${host}:${address.port}\n`);
  }
  if (demoChargePoints) {
    const { startControlApi } = await import('@gatehouse/ocpp-simulator');
    const control = await startControlApi(demoChargePoints.simulator, port === 0 ? 0 : port + 1, host);
    controls.push(control);
    console.log(`  OCPP simulator control: ${control.url}\n`);
  }
}
console.log(
  `  Gatehouse is running at http://localhost:${(app.server.address() as { port: number }).port}/  (API docs: /api/docs)\n`,
);
if (config.seed === 'demo') {
  if (isLoopback(config.host))
    console.log(
      '  Demo mode: reachable from this machine only. To open it to the network, set HOST=0.0.0.0\n' +
        '  (and change or remove the demo accounts first: their password is published).\n',
    );
  else
    console.warn(
      `  WARNING: demo accounts with the published password ${DEMO_PASSWORD} are reachable from the network\n` +
        `  (HOST=${config.host}). Disable them or start with SEED=none on an empty database for real use.\n`,
    );
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
