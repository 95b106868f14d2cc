import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { prepareDatabase } from './assembly.ts';
import { buildApp } from './app.ts';
import { systemClock } from './platform/clock.ts';
import { keepLease } from './platform/cluster/kept-lease.ts';
import { Leases } from './platform/cluster/leases.ts';

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

// Migrations and the seed on a connection of their own (assembly.ts prepareDatabase).
const { setup, seed } = await prepareDatabase(config);
const db = setup.dialect === 'postgres' ? openDatabase(config.databaseUrl, config.pg) : setup;
// The demo place is loaded only for the demo (its simulators are development dependencies); its simulated door
// controllers answer before the gateway first calls them.
// On PostgreSQL several instances may share the database: the simulators run in one of them only, the one
// holding the demo lease (docs/deployment.md); the others start without them and say where they run.
const demoLease =
  config.seed === 'demo' && config.simulator && db.dialect === 'postgres'
    ? await keepLease(new Leases(db, systemClock), 'demo', 'simulators', config.instanceId, 30_000)
    : undefined;
if (demoLease && !demoLease.held)
  console.warn(
    `\n  The demo's simulators already run in instance ${demoLease.holder ?? '(unknown)'} on this database:\n` +
      '  this instance starts without them (one instance runs the demo devices).\n',
  );
const demo =
  config.seed === 'demo' && config.simulator && (demoLease?.held ?? true)
    ? await import('./demo/index.ts')
    : undefined;
const demoControllers = demo && config.wg.enabled ? await demo.startControllers(db) : undefined;
// A setting found wrong only when used (a gateway's port taken: WG_LISTEN) stops the start in one line, as above.
const built = await buildApp({ config, db, devices: true }).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Gatehouse cannot start. ${error.message}`);
  process.exit(1);
});
const { app } = built;
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
  if (seed.demoUsers.length) {
    const { DEMO_PASSWORD } = await import('./demo/catalog.ts');
    console.log(`  Demo users (password ${DEMO_PASSWORD}): ${seed.demoUsers.join(', ')}\n`);
  }
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, drainSeconds: config.drainSeconds }, 'draining, then shutting down');
    // Drain (docs/deployment.md): /readyz answers 503 for DRAIN_DELAY so the proxy sends nothing new here, then
    // the live hub's sockets and the device gateways close (browsers and charge points reconnect elsewhere);
    // then stop accepting, let requests in flight finish, and close the database.
    const force = setTimeout(() => process.exit(1), config.drainSeconds * 1000 + 15_000).unref();
    built
      .drain(signal === 'SIGTERM' ? config.drainSeconds * 1000 : 0)
      .then(() => app.close())
      .then(() => (demoDevices ? demoDevices.close() : demoControllers?.close()))
      .then(() => (demoLease?.held ? demoLease.release() : undefined))
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

let demoDevices: Awaited<ReturnType<NonNullable<typeof demo>['startDevices']>> | undefined;
await app.listen({ port: config.port, host: config.host });
if (demo) {
  // The demo's charge points connect to the server they belong to once it listens, or through the proxy
  // (SIMULATOR_OCPP_URL) so that another instance takes them over when this one stops.
  const port = (app.server.address() as { port: number }).port;
  demoDevices = await demo.startDevices(db, demoControllers, {
    ocppUrl: config.simulatorOcppUrl ?? `ws://127.0.0.1:${port}/ocpp`,
    control: config.simulatorControl ?? undefined,
  });
  if (demoDevices.chargePoints)
    console.log(
      `  Simulated OCPP charge points: ${demoDevices.chargePoints.simulator.points.size}, connected to ` +
        `${config.simulatorOcppUrl ?? 'this instance (SIMULATOR_OCPP_URL: through a proxy)'} (SIMULATOR=off turns them off)\n`,
    );
  for (const url of demoDevices.controlUrls) console.log(`  ${url}\n`);
}
console.log(
  `  Gatehouse is running at http://localhost:${(app.server.address() as { port: number }).port}/  (API docs: /api/docs)\n`,
);
if (config.seed === 'demo') {
  const { DEMO_PASSWORD } = await import('./demo/catalog.ts');
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
