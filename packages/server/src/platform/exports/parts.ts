import { EXPORT_MAX_PARTS, EXPORT_MAX_ROWS } from '@gatehouse/shared';
import type { z } from 'zod';
import type { ServiceContext } from '../context.ts';
import type { Exportable } from './registry.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are whatever the list returns */
type Row = Record<string, any>;

/**
 * Parts of an export larger than EXPORT_MAX_ROWS (issue 21, item 14): one job per part, each file at most
 * EXPORT_MAX_ROWS rows, together exactly the rows the list showed when the operator asked, in its order.
 *
 * How the parts stay stable whatever happens to the list meanwhile:
 * - The plan is one read of the list (its own `rows`, in its own order, which ends with the id as tiebreak),
 *   made when the parts are asked for. Its largest id is the snapshot bound `maxId`; each part records the ids
 *   of its first and last row (`first`, `last`), so the parts partition the plan by construction.
 * - A part's job reads the list again, drops every row with an id above `maxId` (added after the plan), and
 *   keeps the run from `first` to `last`: rows added meanwhile are in no part, and a part never takes a row of
 *   its neighbour, so no overlap and no gap. Rows deleted meanwhile are simply absent.
 * - Should the list no longer show a boundary row (deleted, or its filter field changed), or a part's run grow
 *   beyond EXPORT_MAX_ROWS (on PostgreSQL, a row with an id below `maxId` whose insert committed after the
 *   plan), the part fails with a clear message ("the list changed, export again") instead of guessing.
 *
 * It asks nothing of the exportable beyond `rows` (each row's numeric `Id`), so every list can be exported
 * in parts as it is. The price: a part reads the list's current rows (at most EXPORT_MAX_PARTS × 3,000 plus
 * those added since) to find its run, which is why the number of parts is capped.
 */
export interface ExportPart {
  /** 1-based. */
  index: number;
  count: number;
  /** Snapshot bound: rows with a higher id were added after the plan and belong to no part. */
  maxId: number;
  /** Ids of the part's first and last row in the list's order. */
  first: number;
  last: number;
  /** Rows in the part when planned. */
  rows: number;
}

/** The key of the part descriptor in an ExportJob's Query (next to the list's own filters). */
export const PART_KEY = '~part';

/**
 * An export's filters read the way its list reads them, from a query string, whatever JSON types the client
 * used (true or 'true', 2 or '2'); the part, if any, is not a filter. `asQuery` for the field errors.
 * The list's filter schema is applied strictly (issue 27): the list ignores a parameter it does not know, but
 * an export's Query is stored and run later, so a key that is not one of the list's filters (a typo, an
 * operator such as `$gt`) is refused and named rather than dropped.
 */
export function parseExportQuery(exportable: Exportable, raw: Record<string, unknown>) {
  const asQuery = Object.fromEntries(
    Object.entries(raw)
      .filter(([key]) => key !== PART_KEY)
      .map(([key, value]) => [key, String(value)]),
  );
  return { asQuery, parsed: (exportable.query as z.ZodObject).strict().safeParse(asQuery) };
}

export class PartsUnsupportedError extends Error {}
/** The list no longer shows a part's boundary rows, or the run between them outgrew a file. */
export class PartChangedError extends Error {}

function idOf(row: Row): number {
  const id = Number(row.Id);
  if (!Number.isSafeInteger(id)) throw new PartsUnsupportedError('a row of this list has no numeric Id');
  return id;
}

/**
 * Reads the list once and splits it into parts of at most EXPORT_MAX_ROWS rows. Null when it holds more than
 * EXPORT_MAX_PARTS parts' worth of rows by the time it is read.
 */
export async function planParts(
  exportable: Exportable,
  ctx: ServiceContext,
  q: Row,
): Promise<ExportPart[] | null> {
  const limit = EXPORT_MAX_PARTS * EXPORT_MAX_ROWS;
  const rows = await exportable.rows(ctx, q, limit + 1);
  if (rows.length > limit) return null;
  const ids = rows.map(idOf);
  if (new Set(ids).size !== ids.length) throw new PartsUnsupportedError('the list shows an Id twice');
  const maxId = Math.max(...ids);
  const count = Math.ceil(ids.length / EXPORT_MAX_ROWS);
  return Array.from({ length: count }, (_, i) => {
    const slice = ids.slice(i * EXPORT_MAX_ROWS, (i + 1) * EXPORT_MAX_ROWS);
    return { index: i + 1, count, maxId, first: slice[0]!, last: slice.at(-1)!, rows: slice.length };
  });
}

/** The rows of one part, as the list shows them now (see above). */
export async function readPart(
  exportable: Exportable,
  ctx: ServiceContext,
  q: Row,
  part: ExportPart,
): Promise<Row[]> {
  // Every row the list shows now, up to twice the most a plan can hold: a part's run lies within them unless
  // the list has grown by more than a whole plan since, which reads as "changed".
  const now = await exportable.count(ctx, q);
  const limit = Math.min(now + 1, 2 * EXPORT_MAX_PARTS * EXPORT_MAX_ROWS);
  const snapshot = (await exportable.rows(ctx, q, limit)).filter((row) => idOf(row) <= part.maxId);
  const from = snapshot.findIndex((row) => idOf(row) === part.first);
  const to = snapshot.findIndex((row) => idOf(row) === part.last);
  if (from < 0 || to < from) throw new PartChangedError('a boundary row of the part is gone');
  if (to - from + 1 > EXPORT_MAX_ROWS) throw new PartChangedError('the part outgrew a file');
  return snapshot.slice(from, to + 1);
}

/** The part descriptor an ExportJob's Query carries, if any (validated: it came from the database). */
export function partOf(query: Record<string, unknown>): ExportPart | null {
  const value = query[PART_KEY] as Partial<ExportPart> | undefined;
  if (!value || typeof value !== 'object') return null;
  const fields = ['index', 'count', 'maxId', 'first', 'last', 'rows'] as const;
  if (!fields.every((f) => Number.isSafeInteger(value[f]))) return null;
  return value as ExportPart;
}
