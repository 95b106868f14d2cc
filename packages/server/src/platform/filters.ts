import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

/** Escapes LIKE wildcards in user input (the pattern is used with ESCAPE '\\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>;

/**
 * The condition of one list filter on its parsed value. The filter's schema is the contract's
 * (`filterSchema` in packages/shared): the server only says which rows a value matches.
 */
export type Where<V> = (eb: Eb, value: V) => Expression<SqlBool>;

/**
 * Case-insensitive substring match, the same on both databases: lower() on both sides, and an explicit
 * ESCAPE because SQLite's LIKE has no default escape character.
 */
export function contains(eb: Eb, column: string, text: string): Expression<SqlBool> {
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  return sql<SqlBool>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`;
}

/** The usual conditions: a resource implementation pairs each filter the contract declares with one. */
export const match = {
  /** Substring match on one column. */
  like:
    (column: string): Where<string> =>
    (eb, v) =>
      contains(eb, column, v),
  /** Substring match on any of several columns (a search box). */
  keyword:
    (columns: readonly string[]): Where<string> =>
    (eb, v) =>
      eb.or(columns.map((c) => contains(eb, c, v))),
  /** Exact match (ids, text, enumeration values). */
  equals:
    <V extends string | number>(column: string): Where<V> =>
    (eb, v) =>
      eb(column, '=', v),
  /** A 0/1 flag column. */
  flag:
    (column: string): Where<boolean> =>
    (eb, v) =>
      eb(column, '=', v ? 1 : 0),
  /** Instant at or after / at or before (epoch ms column). */
  from:
    (column: string): Where<number> =>
    (eb, v) =>
      eb(column, '>=', v),
  to:
    (column: string): Where<number> =>
    (eb, v) =>
      eb(column, '<=', v),
};
