// A Gatehouse WG gateway in a process of its own, for the SIGKILL test (wg-gateway-kill.test.ts): collects
// records from the simulator into the database it is given (SQLite file, or PostgreSQL URL and schema) until
// it is killed.
import { openDatabase } from '../../src/db/database.ts';
import { WgGateway } from '../../src/gateways/wg/index.ts';
import { systemClock } from '../../src/platform/clock.ts';

const [url, pgSchema] = process.argv.slice(2);
if (!url) throw new Error('usage: wg-child.ts <sqlite file | postgres url> [schema]');
const db = openDatabase(url, pgSchema ? { pgSchema } : {});
await WgGateway.start({
  db,
  clock: systemClock,
  listen: null,
  pollSeconds: 0.05,
  syncSeconds: 3600,
  driftMinutes: 600,
  driver: { timeoutMs: 200, tries: 3 },
});
process.send?.('started');
