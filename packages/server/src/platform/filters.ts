import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { EnumDef } from '@gatehouse/shared';
import { enumNumber, id, instantText, queryBool } from './schemas.ts';

/** Escapes LIKE wildcards in user input (the pattern is used with ESCAPE '\\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>;

/** A list filter bound to one query parameter: its schema (query strings are text) and its condition. */
export interface Filter<V = unknown> {
  schema: z.ZodType<V>;
  where(eb: Eb, value: V): Expression<SqlBool>;
}

/**
 * Case-insensitive substring match, the same on both databases: lower() on both sides, and an explicit
 * ESCAPE because SQLite's LIKE has no default escape character.
 */
export function contains(eb: Eb, column: string, text: string): Expression<SqlBool> {
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  return sql<SqlBool>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`;
}

export const filter = {
  /** Substring match on one column. */
  like(column: string): Filter<string> {
    return { schema: z.string().trim().min(1).max(100), where: (eb, v) => contains(eb, column, v) };
  },
  /** Substring match on any of several columns (a search box). */
  keyword(columns: readonly string[]): Filter<string> {
    return {
      schema: z.string().trim().min(1).max(100),
      where: (eb, v) => eb.or(columns.map((c) => contains(eb, c, v))),
    };
  },
  /** Exact id match (foreign keys). */
  id(column: string): Filter<number> {
    return { schema: id, where: (eb, v) => eb(column, '=', v) };
  },
  /** Exact text match. */
  equals(column: string, max = 100): Filter<string> {
    return { schema: z.string().trim().min(1).max(max), where: (eb, v) => eb(column, '=', v) };
  },
  /** A 0/1 flag column from a true/false query value. */
  flag(column: string): Filter<boolean> {
    return { schema: queryBool, where: (eb, v) => eb(column, '=', v ? 1 : 0) };
  },
  /** A value of a numeric enumeration column. */
  oneOf(column: string, def: EnumDef<string, number>): Filter<number> {
    return { schema: enumNumber(def), where: (eb, v) => eb(column, '=', v) };
  },
  /** Instant at or after (epoch ms column). */
  from(column: string): Filter<number> {
    return { schema: instant, where: (eb, v) => eb(column, '>=', v) };
  },
  /** Instant at or before (epoch ms column). */
  to(column: string): Filter<number> {
    return { schema: instant, where: (eb, v) => eb(column, '<=', v) };
  },
};

/** An instant in a query string: ISO 8601 text with a zone or epoch milliseconds, bounded (schemas.ts). */
export const instant = instantText;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each filter has its own value type
export type Filters = Record<string, Filter<any>>;

type Where<V> = Filter<V>['where'];

/**
 * The conditions of list filters whose schemas the contract declares (`filterSchema` in packages/shared):
 * a resource implementation pairs each declared filter with one of these.
 */
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
