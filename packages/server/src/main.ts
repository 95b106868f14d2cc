import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed/index.ts';
import { DEMO_PASSWORD } from './db/seed/catalog.ts';
import { buildApp } from './app.ts';

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
const { app } = await buildApp({ config, db });

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

await app.listen({ port: config.port, host: config.host });
console.log(
  `  Gatehouse is running at http://localhost:${(app.server.address() as { port: number }).port}/  (API docs: /api/docs)\n`,
);
