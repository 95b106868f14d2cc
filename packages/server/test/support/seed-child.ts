// A first start's seed in a process of its own, so a test can kill it with SIGKILL half-way:
// node --import tsx seed-child.ts <database url> [pg schema]
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../../src/assembly.ts';

const [url, pgSchema] = process.argv.slice(2);
const db = openDatabase(url!, pgSchema ? { pgSchema } : {});
await migrateToLatest(db);
console.log('seeding');
await seedIfEmpty(db, {
  mode: 'demo',
  adminPassword: 'Admin#Test2026',
  now: Date.UTC(2026, 10, 1),
  scale: 1,
});
console.log('seeded');
await db.close();
