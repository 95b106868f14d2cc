/**
 * Where bench/volume.ts writes its rows, as fast as each database takes them:
 * - SQLite: 100-row prepared INSERTs on the raw better-sqlite3 handle, committed every million rows.
 * - PostgreSQL: one COPY … FROM STDIN per table, on its own connection, fed while the rows are generated. node-pg
 *   has no COPY helper (pg-copy-streams is not installed), but its connection speaks the protocol's CopyData
 *   messages: `CopyIn` below is the small piece of pg-copy-streams that is needed. Measured on these 2 cores under
 *   load, 500,000 swipe-shaped rows into a table with only its primary key: COPY 100–114k rows/s, INSERT … SELECT
 *   generate_series (no per-row data from the client) 120–167k, INSERT … SELECT unnest(arrays) 40–54k (70k with the
 *   text columns joined from a lookup table), multi-row INSERT … VALUES 19–32k. COPY carries the generated rows as
 *   they are (the same rows as on SQLite) at nearly the speed of generate_series.
 * Plus what both need around a bulk load: secondary indexes dropped before and rebuilt from their own DDL after
 * (the schema stays the migrator's), foreign-key checks off while loading, sequences moved past the given ids.
 */
import type SQLite from 'better-sqlite3';
import pg from 'pg';

export type Value = string | number | null;

export interface TableSink {
  row(values: Value[]): void;
}

export interface Sink {
  table(name: string, columns: readonly string[]): TableSink;
  /** Between batches of rows: waits while the database is behind, and commits now and then (SQLite). */
  pause(): Promise<void>;
  finish(): Promise<void>;
}

const q = (name: string) => `"${name}"`;

// ---------------------------------------------------------------------------------------------------------
// SQLite

const SQLITE_ROWS_PER_INSERT = 100;
const SQLITE_ROWS_PER_COMMIT = 1_000_000;

class SqliteTable implements TableSink {
  private values: Value[] = [];
  private count = 0;
  private readonly full: SQLite.Statement;

  constructor(
    private readonly db: SQLite.Database,
    private readonly name: string,
    private readonly columns: readonly string[],
    private readonly counted: () => void,
  ) {
    this.full = db.prepare(this.insert(SQLITE_ROWS_PER_INSERT));
  }

  private insert(rows: number): string {
    const one = `(${this.columns.map(() => '?').join(',')})`;
    return `insert into ${q(this.name)} (${this.columns.map(q).join(',')}) values ${Array(rows).fill(one).join(',')}`;
  }

  row(values: Value[]): void {
    for (const v of values) this.values.push(v);
    this.counted();
    if (++this.count === SQLITE_ROWS_PER_INSERT) {
      this.full.run(this.values);
      this.values.length = 0;
      this.count = 0;
    }
  }

  flush(): void {
    if (this.count === 0) return;
    this.db.prepare(this.insert(this.count)).run(this.values);
    this.values.length = 0;
    this.count = 0;
  }
}

export function sqliteSink(db: SQLite.Database): Sink {
  const tables: SqliteTable[] = [];
  let pending = 0;
  db.exec('begin');
  const commit = () => {
    for (const t of tables) t.flush();
    db.exec('commit');
    pending = 0;
  };
  return {
    table(name, columns) {
      const t = new SqliteTable(db, name, columns, () => pending++);
      tables.push(t);
      return t;
    },
    async pause() {
      if (pending < SQLITE_ROWS_PER_COMMIT) return;
      commit();
      db.exec('begin');
    },
    async finish() {
      commit();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL: COPY FROM STDIN through node-pg's connection.

interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain: boolean };
}

/** Text chunks handed from the generator to a COPY, with a bound on how many wait. */
class Chunks implements AsyncIterable<string> {
  private readonly items: string[] = [];
  private closed = false;
  private wakeReader: (() => void) | null = null;
  private wakeWriters: (() => void)[] = [];

  push(chunk: string): void {
    this.items.push(chunk);
    this.wakeReader?.();
  }

  close(): void {
    this.closed = true;
    this.wakeReader?.();
  }

  get length(): number {
    return this.items.length;
  }

  /** Resolves once fewer than `limit` chunks wait. */
  async below(limit: number): Promise<void> {
    while (this.items.length >= limit) await new Promise<void>((r) => this.wakeWriters.push(r));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.items.shift();
      if (next !== undefined) {
        const writers = this.wakeWriters;
        this.wakeWriters = [];
        for (const w of writers) w();
        yield next;
      } else if (this.closed) return;
      else await new Promise<void>((r) => (this.wakeReader = r));
      this.wakeReader = null;
    }
  }
}

/** A COPY … FROM STDIN as a node-pg "submittable": `client.query(copy)`, then `await copy.done`. */
class CopyIn {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: unknown) => void;
  private rows = 0;
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly source: AsyncIterable<string>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    void (async () => {
      try {
        for await (const chunk of this.source) {
          if (this.failed) return;
          connection.sendCopyFromChunk(Buffer.from(chunk));
          if (connection.stream.writableNeedDrain)
            await new Promise((r) => connection.stream.once('drain', r));
        }
        connection.endCopyFrom();
      } catch (error) {
        connection.sendCopyFail(String(error));
      }
    })();
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = Number(message.text.split(' ')[1]);
  }

  handleReadyForQuery(): void {
    this.resolve(this.rows);
  }

  handleError(error: unknown): void {
    this.failed = true;
    this.reject(error);
  }

  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
}

/** COPY text format: \N for null; backslash, tab and line breaks escaped. */
function copyText(value: Value): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : value;
}

const PG_CHUNK_CHARS = 1 << 20;
const PG_CHUNKS_WAITING = 6;

export interface PgSinkOptions {
  /** Foreign-key triggers off on the loading connections (superuser only). */
  replica: boolean;
}

export function pgSink(url: string, options: PgSinkOptions): Sink {
  const tables: { chunks: Chunks; flush(): void; done: Promise<unknown>; error: unknown }[] = [];
  return {
    table(name, columns) {
      const chunks = new Chunks();
      const client = new pg.Client({ connectionString: url });
      let text = '';
      const entry = {
        chunks,
        error: null as unknown,
        flush() {
          if (text.length) chunks.push(text);
          text = '';
        },
        done: (async () => {
          await client.connect();
          try {
            await client.query('set synchronous_commit = off');
            if (options.replica) await client.query('set session_replication_role = replica');
            const copy = new CopyIn(`copy ${q(name)} (${columns.map(q).join(',')}) from stdin`, chunks);
            client.query(copy as never);
            return await copy.done;
          } finally {
            await client.end();
          }
        })(),
      };
      entry.done.catch((error: unknown) => (entry.error = error));
      tables.push(entry);
      return {
        row(values) {
          let line = copyText(values[0]!);
          for (let i = 1; i < values.length; i++) line += '\t' + copyText(values[i]!);
          text += line + '\n';
          if (text.length >= PG_CHUNK_CHARS) entry.flush();
        },
      };
    },
    async pause() {
      for (const t of tables) {
        if (t.error) throw t.error;
        await Promise.race([t.chunks.below(PG_CHUNKS_WAITING), t.done]);
        if (t.error) throw t.error;
      }
    },
    async finish() {
      for (const t of tables) {
        t.flush();
        t.chunks.close();
      }
      await Promise.all(tables.map((t) => t.done));
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Around the bulk load: indexes, foreign keys, sequences.

export interface Ddl {
  name: string;
  table: string;
  sql: string;
}

/** Secondary indexes of these tables with the statement that creates each (not those behind constraints). */
export async function secondaryIndexes(
  dialect: 'sqlite' | 'postgres',
  run: (sql: string, params?: Value[]) => Promise<Record<string, unknown>[]>,
  tables: readonly string[],
): Promise<Ddl[]> {
  const rows =
    dialect === 'sqlite'
      ? await run(
          `select name, tbl_name as "table", sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables.map(() => '?').join(',')}) order by name`,
          [...tables],
        )
      : await run(
          `select i.relname as name, t.relname as "table", pg_get_indexdef(i.oid) as sql
           from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
           join pg_namespace n on n.oid = t.relnamespace
           where n.nspname = current_schema() and t.relname = any($1::text[])
             and not exists (select 1 from pg_constraint c where c.conindid = i.oid)
           order by i.relname`,
          [`{${tables.join(',')}}`],
        );
  // A partitioned table's index reads `ON ONLY "T"`: made again that way, it would cover the parent alone (no
  // partition indexed, every list a scan). Without ONLY it is made on every partition, as the migration made it.
  return rows.map((r) => ({
    name: String(r.name),
    table: String(r.table),
    sql: String(r.sql).replace(/ ON ONLY /, ' ON '),
  }));
}

/** Foreign keys of these tables (PostgreSQL), for a loader that may not switch their triggers off. */
export async function foreignKeys(
  run: (sql: string, params?: Value[]) => Promise<Record<string, unknown>[]>,
  tables: readonly string[],
): Promise<Ddl[]> {
  const rows = await run(
    `select c.conname as name, t.relname as "table", pg_get_constraintdef(c.oid) as sql
     from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
     where c.contype = 'f' and n.nspname = current_schema() and t.relname = any($1::text[])`,
    [`{${tables.join(',')}}`],
  );
  return rows.map((r) => ({
    name: String(r.name),
    table: String(r.table),
    sql: `alter table "${String(r.table)}" add constraint "${String(r.name)}" ${String(r.sql)}`,
  }));
}
