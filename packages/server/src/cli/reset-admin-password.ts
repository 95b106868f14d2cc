// `npm run reset-admin-password`: a new password for `admin` (ADMIN_PASSWORD, or generated and printed once).
import { migrateToLatest } from '../assembly.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { resetAdminPassword } from '../modules/system/index.ts';
import { systemClock } from '../platform/clock.ts';

try {
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const result = await resetAdminPassword(db, systemClock, config.adminPassword);
    console.log(
      result.generated
        ? `\n  Administrator: admin / ${result.generated}\n  (generated; its sessions were ended)\n`
        : '\n  The admin password is now ADMIN_PASSWORD; its sessions were ended.\n',
    );
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(
    `Cannot reset the admin password. ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
