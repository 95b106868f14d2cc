import { isoInstant } from '@gatehouse/shared';

/** An epoch-ms column as the API's ISO string (null stays null): the one conversion every item uses. */
export function isoOrNull(ms: number | string | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoInstant(Number(ms));
}

/**
 * A stored number that may be null, as a number: PostgreSQL's int8 columns (instants) arrive as text, SQLite's as
 * numbers. The one conversion for nullable numeric columns (null, or a column a query left out, is null).
 */
export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
