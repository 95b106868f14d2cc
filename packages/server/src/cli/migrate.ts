// `npm run migrate`: applies the house's migrations without starting the server.
import { migrateToLatest } from '../assembly.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';

const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.close();
}
