// The database a device benchmark runs on (bench:wg, bench:ocpp): DATABASE_URL names a SQLite file or a
// PostgreSQL database. The run gets a database of its own there and removes it at the end.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isPostgresUrl, openDatabase, type Db } from '../../packages/server/src/db/database.ts';

export interface BenchDatabase {
  postgres: boolean;
  /** What the server is given as DATABASE_URL. */
  url: string;
  /** A connection of the benchmark's own (close it). */
  open(): Db;
  /** Removes the run's database: the schema, or the SQLite file with its -wal and -shm. */
  drop(): Promise<void>;
}

/**
 * Where the server and the benchmark read and write: a SQLite file made for the run (`given` names a file that
 * must not exist yet; by default bench.db in `dir`), or a schema of its own (`<schemaPrefix>_<8 hex>`) in the
 * PostgreSQL database `given` names (the server is given it as its search_path), dropped by drop().
 */
export async function benchDatabase(options: {
  given: string | undefined;
  dir: string;
  /** npm script named in the error for a file that exists already (bench:wg). */
  bench: string;
  schemaPrefix: string;
}): Promise<BenchDatabase> {
  const { given } = options;
  if (given !== undefined && isPostgresUrl(given)) {
    const schema = `${options.schemaPrefix}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: given });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(given);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      postgres: true,
      url: url.href,
      open: () => openDatabase(given, { pgSchema: schema }),
      async drop() {
        const c = new pg.Client({ connectionString: given });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  const file = given ?? path.join(options.dir, 'bench.db');
  if (given && fs.existsSync(file)) throw new Error(`${file} exists: give ${options.bench} a new file`);
  return {
    postgres: false,
    url: file,
    open: () => openDatabase(file),
    async drop() {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    },
  };
}
