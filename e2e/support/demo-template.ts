// `node --import tsx e2e/support/demo-template.ts`: makes the seeded database a test server would make on its
// first start, with the configuration of the environment (DATABASE_URL the file to write), and closes it. Run once
// per e2e run by global-setup.ts; every test server without devices then starts on a copy (server.ts).
import { loadConfig } from '../../packages/server/src/config.ts';
import { prepareDatabase } from '../../packages/server/src/assembly.ts';

const { setup, seed } = await prepareDatabase(loadConfig());
// Closing the only connection checkpoints the WAL into the file: the copy is one file.
await setup.close();
if (!seed.seeded) throw new Error('The template database was not empty.');
