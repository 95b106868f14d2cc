/**
 * List statements compiled once per shape and bound per call. Building a list query with Kysely and compiling
 * it to SQL cost about 55 µs of a list request in the server (docs/performance.md, "API load"), as much as
 * the statement itself; the SQL of a list depends only on its shape, so it is compiled the first time a
 * shape is asked for and reused.
 *
 * What keeps one caller's statement from serving another: the caller passes the shape as a key that must
 * hold everything the SQL and its constant parameters are built from, and the values that change per call
 * (an offset, the bounds of a range, a page's ids) as `values`. The builder is handed a slot for each value
 * instead of the value and must pass it to Kysely untouched: a slot refuses to be converted, compared by
 * order, printed or serialised, so a builder that computed anything from it fails and that shape is never
 * cached. Each parameter of the compiled statement is then either a slot (bound per call) or a constant that
 * the key fixed. The cache lives per database and per owner (a declaration), so neither is in the key.
 * `test/list-statements.test.ts` proves replies equal those built without the cache.
 */
import type SQLite from 'better-sqlite3';
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db } from '../db/database.ts';

/** Stands for the value at `index` of a call's values while a statement is built. */
class Slot {
  constructor(readonly index: number) {}
  [Symbol.toPrimitive](): never {
    throw new SlotMisuse();
  }
  toJSON(): never {
    throw new SlotMisuse();
  }
}

class SlotMisuse extends Error {
  constructor() {
    super('a list statement slot was computed with: the shape cannot be cached');
  }
}

interface Statement {
  compiled: CompiledQuery;
  /** [parameter position, value index] of each bound parameter; every other parameter is the shape's. */
  bound: readonly (readonly [number, number])[];
  /** SQLite: the statement prepared once on the connection, run directly when no transaction holds it. */
  prepared?: Prepared;
}

/** A kept statement prepared on the SQLite connection, its rows read as arrays and made into objects here. */
interface Prepared {
  statement: SQLite.Statement;
  row: ((values: unknown[]) => unknown) | undefined;
}

/**
 * Prepares a kept statement to read its rows as arrays and build each row with one object literal of the
 * statement's columns, in their order (a later column of the same name wins, as in the driver's rows). The
 * driver builds a row object by setting its properties one by one from C++, which cost about 1.8 µs a row of
 * 12 columns, twice what the statement took to read them (users list, docs/performance.md "API load"); a
 * literal of a fixed shape is made in a fraction of that. The names are the statement's own (our SQL), quoted
 * as JSON string literals.
 */
function prepare(sqlite: SQLite.Database, sql: string): Prepared {
  const statement = sqlite.prepare(sql);
  if (!statement.reader) return { statement, row: undefined };
  const names = statement.columns().map((column) => column.name);
  statement.raw(true);
  // A row literal built once per statement, see above.
  const row = new Function(
    'r',
    `return {${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`,
  ) as (values: unknown[]) => unknown;
  return { statement, row };
}

/** What a builder returns: the query, and whether it read only what the key holds (else it is not kept). */
export interface Built<R> {
  query: Compilable<R>;
  cacheable: boolean;
}

/** Shapes kept per database and owner: a list has a handful (sort keys, page sizes, areas, filter values). */
const MAX_SHAPES = 500;
const statements = new WeakMap<object, WeakMap<object, Map<string, Statement>>>();
/** Owners whose builder once computed with a slot or read outside its key: built on every call, as before. */
const uncached = new WeakSet<object>();

const options = { cache: true, check: false };

/**
 * Tests only: `cache: false` builds every statement afresh (the reference a test compares with); `check: true`
 * also builds it afresh on every cache hit and throws when the SQL or any parameter differs.
 */
export function setListStatements(next: Partial<typeof options>): void {
  Object.assign(options, next);
}

function shapesOf(db: object, owner: object): Map<string, Statement> {
  let byDb = statements.get(owner);
  if (!byDb) statements.set(owner, (byDb = new WeakMap()));
  let shapes = byDb.get(db);
  if (!shapes) byDb.set(db, (shapes = new Map()));
  return shapes;
}

function bind(statement: Statement, values: readonly unknown[]): unknown[] {
  const parameters = statement.compiled.parameters.slice();
  for (const [at, index] of statement.bound) parameters[at] = values[index];
  return parameters;
}

/**
 * Runs a kept statement. On SQLite, while no transaction is open on the one connection, the prepared
 * statement runs at once: what Kysely's driver would do after taking its connection lock, without the lock's
 * round trips. While a transaction is open (its callback awaiting between statements), the read goes through
 * Kysely and waits for the lock as before, so a list never reads another request's uncommitted rows.
 */
function run<R>(db: Db, statement: Statement, values: readonly unknown[]): Promise<R[]> {
  const parameters = bind(statement, values);
  if (db.sqlite && !db.sqlite.inTransaction) {
    const { statement: prepared, row } = (statement.prepared ??= prepare(db.sqlite, statement.compiled.sql));
    const rows = prepared.all(parameters) as unknown[];
    // A settled promise, not an async function's: the list awaits it in one turn instead of three.
    return Promise.resolve((row ? (rows as unknown[][]).map(row) : rows) as R[]);
  }
  return db.kysely.executeQuery<R>({ ...statement.compiled, parameters }).then((result) => result.rows);
}

/** The statement of a build with slots, or undefined when a parameter holds a slot somewhere it cannot be bound. */
function template(compiled: CompiledQuery): Statement | undefined {
  const bound: [number, number][] = [];
  for (const [at, parameter] of compiled.parameters.entries()) {
    if (parameter instanceof Slot) bound.push([at, parameter.index]);
    else if (typeof parameter === 'object' && parameter !== null) return undefined;
  }
  return { compiled, bound };
}

/** The rows of a statement built and compiled for this call alone (no cache, or a shape that cannot be kept). */
async function freshRows<R>(
  db: Db,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Built<R>,
): Promise<R[]> {
  return (await db.kysely.executeQuery(build(values).query.compile())).rows;
}

/**
 * The rows of the statement `build` makes, for the shape `key` of `owner` on `db`. `build` receives `values`
 * (or slots standing for them) and must pass each to Kysely as a parameter, untouched; everything else the
 * query depends on must be in `key`.
 */
export function shapedRows<R>(
  db: Db,
  owner: object,
  key: string,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Built<R>,
): Promise<R[]> {
  // Not an async function (each layer of those costs the list turns of the event loop), so failures are
  // turned into a rejection here, as an async function would.
  try {
    return keptOrBuilt(db, owner, key, values, build);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function keptOrBuilt<R>(
  db: Db,
  owner: object,
  key: string,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Built<R>,
): Promise<R[]> {
  if (!options.cache || uncached.has(owner)) return freshRows(db, values, build);
  const shapes = shapesOf(db, owner);
  const kept = shapes.get(key);
  if (kept) {
    if (options.check) {
      const built = build(values).query.compile();
      const parameters = bind(kept, values);
      if (
        built.sql !== kept.compiled.sql ||
        built.parameters.length !== parameters.length ||
        !built.parameters.every((p, i) => Object.is(p, parameters[i]))
      )
        throw new Error(`list statement of shape ${key} differs from a fresh build: ${built.sql}`);
    }
    return run(db, kept, values);
  }
  let built: Built<R>;
  try {
    built = build(values.map((_, index) => new Slot(index)));
  } catch (error) {
    if (!(error instanceof SlotMisuse)) throw error;
    uncached.add(owner);
    return freshRows(db, values, build);
  }
  const statement = template(built.query.compile());
  if (!statement || !built.cacheable) {
    uncached.add(owner);
    return freshRows(db, values, build);
  }
  if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
  shapes.set(key, statement);
  return run(db, statement, values);
}
