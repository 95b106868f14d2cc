// A resource's rows: the declaration (table, query, filters, sorts, write rules) and the queries over it
// that its routes (resource.ts) and custom lists run: list, count, get. The writes (create, update, delete,
// status) are resource-writes.ts.
import { LIST_TOTAL_CAP, MAX_DAY_SPAN, exceedsMaxDaySpan } from '@gatehouse/shared';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { cachedCount } from './count-cache.ts';
import { AppError, notFound } from './errors.ts';
import type { Where } from './filters.ts';
import { shapedRows } from './list-statements.ts';
import { DAY_MS } from './record-days.ts';
import type { RetentionSetting } from './retention.ts';
import { actorKey, scopedArea, type ServiceContext } from './context.ts';
import type { Page } from '@gatehouse/shared';

/* eslint-disable @typescript-eslint/no-explicit-any -- the helper serves every table; declarations stay typed. */
type AnyKysely = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;
type Row = Record<string, any>;
type Trx = Kysely<Database>;

export interface UniqueRule {
  /** Columns that together must be unique (within the area for area-scoped resources). */
  fields: string[];
  /** Catalogue key of the 409 message. */
  key: string;
}

export interface TimeRange {
  /** The epoch-ms column the range applies to. */
  column: string;
  /** Refuse exports without a range (record lists): an unbounded record export makes no sense. */
  requiredForExport?: boolean;
  /**
   * The setting whose retention removes these records (platform/retention.ts): a page whose range starts
   * before its cutoff, or has no start, says `RetainedFrom` while the setting is on.
   */
  retention?: RetentionSetting;
}

/**
 * The server's side of a resource the contract declares (`resourceApi` in packages/shared): its table, query,
 * conditions and write rules. What a request may carry (URLs, query, bodies, replies, codes) is the contract's
 * alone; nothing here describes it (resource.ts routes the contract's operations to these queries).
 *
 * `C` is the context the declaration's callbacks need: the service context, or (for the few administration
 * lists that scope what they show by the caller's own areas or grants) the signed-in route's context.
 */
export interface ResourceDef<
  Item extends Row,
  Create extends z.ZodType,
  Update extends z.ZodType,
  C extends ServiceContext = ServiceContext,
  Ar extends boolean = boolean,
> {
  /** URL segment and audit entity: /api/{name}. */
  name: string;
  table: keyof Database & string;
  /** Area-scoped: calls need X-Area-Id (the guard) and every query is limited to the current area. */
  area: Ar;
  /**
   * The column holding the area (default `<table>.AreaId`). `false`: the `query` scopes itself (through a
   * link table); such a resource must not use the helper's update, delete or status, which look rows up by column.
   */
  areaColumn?: string | false;
  /** The list/detail query (joins and selected columns); the helper adds area, filters, sort and paging. */
  query(db: AnyKysely, ctx: C): AnyQuery;
  /** A database row of `query` → API item. */
  toItem(row: Row): Item;
  /** Adds what one query cannot carry (many-to-many ids, counts) to a page of items, in bulk. */
  enrich?(ctx: C, items: Item[]): Promise<Item[]>;
  /** The condition of each filter of the contract's list query (its schema parsed the value). */
  filters?: Record<string, Where<any>>;
  /** Sort keys → qualified columns; the first is the default. The id column breaks ties. */
  sorts: Record<string, string>;
  /**
   * The column that orders rows by id (default `<table>.Id`): for a list read through a link table, the
   * link's copy of the id (`UserArea.UserId`) lets an index of the link serve the order.
   */
  idColumn?: string;
  defaultOrder?: 'asc' | 'desc';
  timeRange?: TimeRange;
  /**
   * Choose the page on the table alone, then read only its rows through `query` (records tables): the area,
   * the filters, the range, the order and the OFFSET run over `table` without the query's joins, selecting
   * only the id (an index of (AreaId, time, Id) serves it whole), and the count too. Every filter must then
   * name the table's own columns, except those listed in `joinedFilters`, which take the whole query.
   * `dayCounted`: the table's rows are counted per area and day in `RecordDay` under the table's name, by
   * the time range's column (record-days.ts): an unfiltered page then starts from its day, and its total is exact.
   */
  pageOnTable?: { joinedFilters?: readonly string[]; dayCounted?: boolean };
  /**
   * Filters that pick few rows through an index of their own (one socket, one host): when one is set, no
   * index is used for the area's condition (`+AreaId = ?`), so the planner starts from the filter's index
   * instead of walking the area's time index and testing every row (what SQLite chose: seconds on a large
   * area; docs/performance.md).
   */
  narrowFilters?: readonly string[];
  create?: {
    /** Parsed body → column values; AreaId and timestamps are added by the helper. Throw AppError to refuse. */
    values(input: z.output<Create>, ctx: C, trx: Trx): Promise<Row> | Row;
    /** Runs in the same transaction after the insert (link rows, derived records). */
    after?(input: z.output<Create>, ctx: C, trx: Trx, id: number): Promise<void>;
  };
  update?: {
    /** The contract's update body: it contains Id. */
    values(input: z.output<Update>, ctx: C, trx: Trx, existing: Row): Promise<Row> | Row;
    /** Runs in the same transaction after the row is written (what follows from the new values). */
    after?(input: z.output<Update>, ctx: C, trx: Trx, existing: Row): Promise<void>;
  };
  /** Offer DELETE (and batch delete); `check` refuses (throw 409) while something depends on the row. */
  remove?: { check?(ctx: C, row: Row, trx: Trx): Promise<void> };
  /** Offer SetStatus for a Disabled column. */
  status?: { check?(ctx: C, row: Row, disabled: boolean, trx: Trx): Promise<void> };
  unique?: UniqueRule[];
  /** The table has CreatedAt/UpdatedAt. */
  timestamps?: boolean;
}

export function assertDaySpan(q: Row, def: Pick<ResourceDef<any, any, any, any, any>, 'timeRange'>) {
  if (!def.timeRange) return;
  const { StartTime, EndTime } = q;
  if (StartTime !== undefined && EndTime !== undefined && exceedsMaxDaySpan(StartTime, EndTime)) {
    throw new AppError(400, 'error.daySpanTooLong', { days: MAX_DAY_SPAN });
  }
}

/** Applies area scope, filters and time range of a parsed list query to a base query. */
function areaColumn(def: ResourceDef<any, any, any, any, any>): string | false {
  if (!def.area) return false;
  return def.areaColumn === undefined ? `${def.table}.AreaId` : def.areaColumn;
}

export function applyListQuery(
  base: AnyQuery,
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
): AnyQuery {
  const column = areaColumn(def);
  const narrow = def.narrowFilters?.some((name) => q[name] !== undefined);
  let query = !column
    ? base
    : narrow
      ? base.where(sql`+${sql.ref(column)}`, '=', scopedArea(ctx))
      : base.where(column, '=', scopedArea(ctx));
  for (const [name, f] of Object.entries(def.filters ?? {})) {
    const value = q[name];
    if (value !== undefined) query = query.where((eb) => f(eb, value as never));
  }
  if (def.timeRange) {
    if (q.StartTime !== undefined) query = query.where(def.timeRange.column, '>=', q.StartTime);
    if (q.EndTime !== undefined) query = query.where(def.timeRange.column, '<=', q.EndTime);
  }
  return query;
}

export function ordered(query: AnyQuery, def: ResourceDef<any, any, any, any, any>, q: Row): AnyQuery {
  const keys = Object.keys(def.sorts);
  const key = (q.SortField as string | undefined) ?? keys[0]!;
  const order = listOrder(def, q);
  const idColumn = def.idColumn ?? `${def.table}.Id`;
  let out = query.orderBy(def.sorts[key]!, order);
  if (def.sorts[key] !== idColumn) out = out.orderBy(idColumn, order);
  return out;
}

/**
 * The parts of the caller's context a declaration's query may read and still have its statement kept: the
 * area is in every list statement's key (list-statements.ts). A query that reads anything else (the user, the
 * clock, the language) is built afresh on every call.
 */
const KEYED_CONTEXT = new Set<PropertyKey>(['areaId', 'db']);

/** `ctx` as a declaration's query sees it while a statement is built, telling whether it read past the key. */
function watched(ctx: ServiceContext): { ctx: ServiceContext; keyed(): boolean } {
  let keyed = true;
  const outside = () => {
    keyed = false;
  };
  const seen = new Proxy(ctx, {
    get(target, prop, receiver) {
      if (!KEYED_CONTEXT.has(prop)) outside();
      return Reflect.get(target, prop, receiver) as unknown;
    },
    has(target, prop) {
      outside();
      return Reflect.has(target, prop);
    },
    ownKeys(target) {
      outside();
      return Reflect.ownKeys(target);
    },
  });
  return { ctx: seen, keyed: () => keyed };
}

/**
 * The key of a list statement of `def`: everything its SQL and constant parameters are built from besides the
 * declaration and the database (the cache's owners). The area (the query and the area condition read it),
 * the sort key and order as asked, which time bounds are given, and each filter given with its value: a
 * filter's SQL may depend on its value (ChargeRecord's `Forced` is a condition or its negation), so equal
 * keys need equal values. What is bound per call (offset, time bounds, ids) is not in the key.
 */
function statementKey(
  kind: string,
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
  extra: readonly (string | number | boolean | null)[],
): string {
  const given: [string, unknown][] = [];
  for (const name in def.filters) if (q[name] !== undefined) given.push([name, q[name]]);
  return JSON.stringify([
    kind,
    ctx.areaId ?? null,
    q.SortField ?? null,
    q.SortOrder ?? null,
    q.StartTime !== undefined,
    q.EndTime !== undefined,
    given,
    ...extra,
  ]);
}

/** The list query of `def` before order and paging: over the table alone (`pageOnTable`) or the full query. */
function filteredQuery(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
  onTable: boolean,
): AnyQuery {
  const k = ctx.db.kysely as AnyKysely;
  return applyListQuery(
    onTable ? k.selectFrom(def.table).select(`${def.table}.Id`) : def.query(k, ctx),
    def,
    ctx,
    q,
  );
}

/** `q` with its time bounds, when given, replaced by the call's values (slots while a statement is built). */
function withRange(q: Row, start: unknown, end: unknown): Row {
  if (q.StartTime === undefined && q.EndTime === undefined) return q;
  return {
    ...q,
    ...(q.StartTime !== undefined ? { StartTime: start } : {}),
    ...(q.EndTime !== undefined ? { EndTime: end } : {}),
  };
}

export async function listResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
): Promise<Page<Item>> {
  assertDaySpan(q, def);
  const onTable = Boolean(
    def.pageOnTable && !def.pageOnTable.joinedFilters?.some((name) => q[name] !== undefined),
  );
  const size = q.PageSize as number;
  const offset = ((q.PageIndex as number) - 1) * size;
  const days = onTable && def.pageOnTable?.dayCounted ? await daysOf(def, ctx, q) : undefined;
  if (days && offset >= days.total) return { Items: [], Total: days.total };
  // With day counts, the page is looked for from the day it starts in (its bound replaces the range's).
  const { q: bounded, offset: within } = days ? seekDay(def, q, days, offset) : { q, offset };
  // The page size (a validated 1 to 100) is written into the SQL: SQLite plans `LIMIT 20` better than a bound
  // `LIMIT ?` (bench: 25 µs of 150 per page), and a handful of sizes keeps the statement cache small.
  const page = await shapedRows<Row>(
    ctx.db,
    def,
    statementKey('page', def, ctx, bounded, [onTable, size]),
    [within, bounded.StartTime, bounded.EndTime],
    ([at, start, end]) => {
      const seen = watched(ctx);
      const query = ordered(filteredQuery(def, seen.ctx, withRange(bounded, start, end), onTable), def, q)
        .limit(sql.lit(size))
        .offset(at as number);
      return { query, cacheable: seen.keyed() };
    },
  );
  const rows = onTable ? await rowsOfPage(def, ctx, page) : page;
  if (days) return { Items: await itemsOf(def, ctx, rows), Total: days.total };
  // A page that is not full, and not past the end, tells the total by itself: no count query needed.
  if (rows.length < size && (rows.length > 0 || offset === 0))
    return { Items: await itemsOf(def, ctx, rows), Total: offset + rows.length };
  // Otherwise count, but no further than the cap: past it the page says "more than 10,000" (the count rule).
  const counted = await countRows(def, ctx, q, { onTable, cap: LIST_TOTAL_CAP + 1 });
  const items = await itemsOf(def, ctx, rows);
  return counted > LIST_TOTAL_CAP
    ? { Items: items, Total: LIST_TOTAL_CAP, TotalCapped: true }
    : { Items: items, Total: counted };
}

/** A list's matching rows per UTC day, in the list's order (oldest first when ascending), and their sum. */
interface Days {
  /** [day, rows] with rows > 0, ordered as the page walks them. */
  counts: [number, number][];
  total: number;
}

/**
 * The day counts of an unfiltered list (area and time range only) of a day-counted table, or undefined
 * when a filter is set (the counts are of every row of the area, not of a filter's matches). Whole days
 * inside the range come from `RecordDay`; the range's partial first and last day are counted in the table,
 * which reads at most those two days of the area's time index.
 */
async function daysOf(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
): Promise<Days | undefined> {
  if (Object.keys(def.filters ?? {}).some((name) => q[name] !== undefined)) return undefined;
  const column = def.timeRange!.column;
  const area = scopedArea(ctx);
  const k = ctx.db.kysely;
  const start = q.StartTime as number | undefined;
  const end = q.EndTime as number | undefined;
  const first = start === undefined ? undefined : Math.floor(start / DAY_MS);
  const last = end === undefined ? undefined : Math.floor(end / DAY_MS);
  let whole = k
    .selectFrom('RecordDay')
    .select(['Day', 'Count'])
    .where('Kind', '=', def.table)
    .where('AreaId', '=', area);
  if (first !== undefined) whole = whole.where('Day', '>', first);
  if (last !== undefined) whole = whole.where('Day', '<', last);
  const counts = new Map<number, number>();
  for (const r of await whole.execute()) counts.set(Number(r.Day), Number(r.Count));
  const countBetween = async (from: number, to: number) => {
    const row = await (k as AnyKysely)
      .selectFrom(def.table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(areaColumn(def) as string, '=', area)
      .where(column, '>=', from)
      .where(column, '<=', to)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  if (first !== undefined)
    counts.set(first, await countBetween(start!, Math.min(end ?? Infinity, (first + 1) * DAY_MS - 1)));
  if (last !== undefined && last !== first) counts.set(last, await countBetween(last * DAY_MS, end!));
  const descending = listOrder(def, q) === 'desc';
  const ordered = [...counts.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]));
  return { counts: ordered, total: ordered.reduce((sum, [, n]) => sum + n, 0) };
}

/**
 * Where a page of a day-counted list starts: when the list is in time order, the day holding row `offset`
 * bounds the range (its end when newest first, its start when oldest first) and the offset becomes the
 * position within that day, so the OFFSET skips at most one day of index entries instead of every newer
 * row. Sorted by anything else, the page is found as before.
 */
function seekDay(
  def: ResourceDef<any, any, any, any, any>,
  q: Row,
  days: Days,
  offset: number,
): { q: Row; offset: number } {
  const key = (q.SortField as string | undefined) ?? Object.keys(def.sorts)[0]!;
  if (def.sorts[key] !== def.timeRange!.column) return { q, offset };
  let before = 0;
  for (const [day, n] of days.counts) {
    if (before + n > offset) {
      const bounded =
        listOrder(def, q) === 'desc'
          ? { ...q, EndTime: Math.min((q.EndTime as number | undefined) ?? Infinity, (day + 1) * DAY_MS - 1) }
          : { ...q, StartTime: Math.max((q.StartTime as number | undefined) ?? -Infinity, day * DAY_MS) };
      return { q: bounded, offset: offset - before };
    }
    before += n;
  }
  return { q, offset };
}

function listOrder(def: ResourceDef<any, any, any, any, any>, q: Row): 'asc' | 'desc' {
  return (q.SortOrder as 'asc' | 'desc' | undefined) ?? def.defaultOrder ?? 'asc';
}

/** The rows of a page chosen on the table alone (`pageOnTable`): the full query for those ids, in order. */
async function rowsOfPage(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  page: Row[],
): Promise<Row[]> {
  if (page.length === 0) return page;
  const ids = page.map((r) => r.Id as number);
  const found = await shapedRows<Row>(
    ctx.db,
    def,
    JSON.stringify(['rows', ctx.areaId ?? null, ids.length]),
    ids,
    (slots) => {
      const seen = watched(ctx);
      const query = def
        .query(ctx.db.kysely as AnyKysely, seen.ctx)
        .where(`${def.table}.Id`, 'in', slots as number[]);
      return { query, cacheable: seen.keyed() };
    },
  );
  const byId = new Map(found.map((r) => [Number(r.Id), r]));
  // A row deleted between the two reads is left out; the order is the page's.
  return ids.flatMap((id) => byId.get(Number(id)) ?? []);
}

/**
 * The number of rows a list query matches (cached briefly, see count-cache.ts), or `cap` when there are at
 * least that many: `count(*)` over the first `cap` matches, which reads at most `cap` index entries however
 * large the area. The key is the database, the resource, the caller, the area, the parsed filters and the cap:
 * exactly what the query is built from, and far cheaper to make than building the count query on every page,
 * which is only done when the total is not kept (and then from a kept statement, list-statements.ts).
 */
export function countRows(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
  options: { onTable?: boolean; cap?: number } = {},
): Promise<number> {
  const { onTable = false, cap } = options;
  const { PageIndex: _page, PageSize: _size, SortField: _field, SortOrder: _order, ...filters } = q;
  const key = `${ctx.db.id}\u0000${def.name}\u0000${actorKey(ctx.actor)}\u0000${ctx.areaId ?? ''}\u0000${cap ?? ''}\u0000${JSON.stringify(filters)}`;
  const k = ctx.db.kysely as AnyKysely;
  return cachedCount(key, ctx.clock.now(), async () => {
    const [row] = await shapedRows<{ n: number | string | bigint }>(
      ctx.db,
      def,
      statementKey('count', def, ctx, filters, [onTable, cap ?? null]),
      [q.StartTime, q.EndTime],
      ([start, end]) => {
        const seen = watched(ctx);
        const filtered = filteredQuery(def, seen.ctx, withRange(filters, start, end), onTable);
        const query =
          cap === undefined
            ? filtered.clearSelect().select((eb) => eb.fn.countAll().as('n'))
            : k
                .selectFrom(
                  filtered.clearSelect().select(sql.lit(1).as('one')).limit(sql.lit(cap)).as('capped'),
                )
                .select((eb) => eb.fn.countAll().as('n'));
        return { query, cacheable: seen.keyed() };
      },
    );
    return Number(row!.n);
  });
}

export async function itemsOf<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  rows: Row[],
): Promise<Item[]> {
  const items = rows.map((r) => def.toItem(r));
  return def.enrich && items.length ? def.enrich(ctx, items) : items;
}

/** The row of `def`'s query with this id, of the current area, or 404. */
export async function findRow(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
  trx: AnyKysely,
): Promise<Row> {
  let query = def.query(trx, ctx).where(`${def.table}.Id`, '=', rowId);
  const column = areaColumn(def);
  if (column) query = query.where(column, '=', scopedArea(ctx));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function getResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
): Promise<Item> {
  const [item] = await itemsOf(def, ctx, [await findRow(def, ctx, rowId, ctx.db.kysely as AnyKysely)]);
  return item!;
}
