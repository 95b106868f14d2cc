import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database as Schema } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  /**
   * This database connection's number in the process: a per-process cache of what was read (the lists' totals,
   * platform/count-cache.ts) keys by it, since two connections (tests, several apps in one process) run the
   * same SQL on different data.
   */
  id: number;
  kysely: Kysely<Schema>;
  dialect: DialectName;
  /** The underlying better-sqlite3 handle (SQLite only), for bulk seeding and benchmarks. */
  sqlite?: SQLite.Database;
  /** PostgreSQL only: the connection string and schema, for connections of its own (the bus's listener). */
  url?: string;
  schema?: string;
  /** PostgreSQL only: the pool's connections now (the metrics' gauge); SQLite has one connection, no pool. */
  pool?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

// pg returns int8 and numeric as strings; our bigint columns hold epoch milliseconds, well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * better-sqlite3 compiles a statement on every prepare() and Kysely prepares per execution;
 * caching statements by SQL text removes that cost from every request (measured in bench/).
 */
function withStatementCache(db: SQLite.Database, limit = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (sql: string) => {
          let stmt = cache.get(sql);
          if (!stmt) {
            stmt = prepare(sql);
            if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
            cache.set(sql, stmt);
          }
          return stmt;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export interface OpenOptions {
  /** PostgreSQL only: run everything inside this schema (tests isolate themselves this way). */
  pgSchema?: string;
  /** PostgreSQL only: connections in the pool (default 10). */
  poolSize?: number;
  /** PostgreSQL only: a statement running longer is cancelled (error 57014); 0 or absent: no limit. */
  statementTimeoutMs?: number;
}

let opened = 0;

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  const id = ++opened;
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle connection the server drops (a restart, pg_terminate_backend, a network cut) is reported on the
    // pool: unhandled, that event would end the process. The pool replaces the connection at the next query,
    // and a query in flight fails on its own.
    pool.on('error', (error) => console.error(`PostgreSQL: an idle connection was lost (${error.message})`));
    const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    return {
      id,
      kysely,
      dialect: 'postgres',
      url,
      ...(options.pgSchema ? { schema: options.pgSchema } : {}),
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => kysely.destroy(),
    };
  }
  if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
  const sqlite = new SQLite(url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { id, kysely, dialect: 'sqlite', sqlite, close: () => kysely.destroy() };
}
