import { MAX_DAY_SPAN, exceedsMaxDaySpan, isoInstant, type AnyResourceApi } from '@gatehouse/shared';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { audit } from './audit.ts';
import { cachedCount } from './count-cache.ts';
import { AppError, notFound } from './errors.ts';
import type { ExportColumn } from './exports/registry.ts';
import { instant, type Filter, type Filters } from './filters.ts';
import { actorKey, scopedArea, type AreaContext, type ServiceContext } from './context.ts';
import { defineRoute, type AuthedContext, type AnyRoute } from './route.ts';
import { endAfterStart, id, idParams, pageOf, paging, queryBool, type Page } from './schemas.ts';

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
}

/**
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
  /** Codes that may list, read and export. */
  read: readonly string[];
  /** Codes that may create, update, delete and enable/disable. */
  write: readonly string[];
  /** What the list and detail return, for OpenAPI and the web app. */
  item: z.ZodType<Item>;
  /** The list/detail query (joins and selected columns); the helper adds area, filters, sort and paging. */
  query(db: AnyKysely, ctx: C): AnyQuery;
  /** A database row of `query` → API item. */
  toItem(row: Row): Item;
  /** Adds what one query cannot carry (many-to-many ids, counts) to a page of items, in bulk. */
  enrich?(ctx: C, items: Item[]): Promise<Item[]>;
  filters?: Filters;
  /** Sort keys → qualified columns; the first is the default. The id column breaks ties. */
  sorts: Record<string, string>;
  /**
   * The column that orders rows by id (default `<table>.Id`): for a list read through a link table, the
   * link's copy of the id (`UserArea.UserId`) lets an index of the link serve the order.
   */
  idColumn?: string;
  defaultOrder?: 'asc' | 'desc';
  timeRange?: TimeRange;
  create?: {
    body: Create;
    /** Parsed body → column values; AreaId and timestamps are added by the helper. Throw AppError to refuse. */
    values(input: z.output<Create>, ctx: C, trx: Trx): Promise<Row> | Row;
    /** Runs in the same transaction after the insert (link rows, derived records). */
    after?(input: z.output<Create>, ctx: C, trx: Trx, id: number): Promise<void>;
  };
  update?: {
    /** Must contain Id. */
    body: Update;
    values(input: z.output<Update>, ctx: C, trx: Trx, existing: Row): Promise<Row> | Row;
  };
  /** Offer DELETE (and batch delete); `check` refuses (throw 409) while something depends on the row. */
  remove?: { check?(ctx: C, row: Row, trx: Trx): Promise<void> };
  /** Offer SetStatus for a Disabled column. */
  status?: { check?(ctx: C, row: Row, disabled: boolean, trx: Trx): Promise<void> };
  unique?: UniqueRule[];
  /** The table has CreatedAt/UpdatedAt. */
  timestamps?: boolean;
  /** After any write through the declared routes commits (e.g. invalidate cached sessions): route-layer work. */
  afterWrite?(ctx: AuthedContext): void;
  /** Export columns; without them the resource is not exportable. */
  export?: { titleKey: string; columns: ExportColumn<Item>[] };
  tag?: string;
}

const sortOrder = z.enum(['asc', 'desc']);

/** The list query of a resource: paging, its filters, sort key and order, and the time range if any. */
export function listQuerySchema(
  def: Pick<ResourceDef<any, any, any, any, any>, 'filters' | 'sorts' | 'timeRange'>,
  withPaging = true,
) {
  const sortKeys = Object.keys(def.sorts) as [string, ...string[]];
  const shape: Record<string, z.ZodType> = {
    ...(withPaging ? paging : {}),
    SortField: z.enum(sortKeys).optional(),
    SortOrder: sortOrder.optional(),
  };
  for (const [name, f] of Object.entries(def.filters ?? {})) shape[name] = f.schema.optional();
  if (def.timeRange) {
    shape.StartTime = instant.optional();
    shape.EndTime = instant.optional();
  }
  return z.object(shape).superRefine(endAfterStart('StartTime', 'EndTime'));
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
  let query = column ? base.where(column, '=', scopedArea(ctx)) : base;
  for (const [name, f] of Object.entries(def.filters ?? {})) {
    const value = q[name];
    if (value !== undefined) query = query.where((eb) => f.where(eb, value as never));
  }
  if (def.timeRange) {
    if (q.StartTime !== undefined) query = query.where(def.timeRange.column, '>=', q.StartTime);
    if (q.EndTime !== undefined) query = query.where(def.timeRange.column, '<=', q.EndTime);
  }
  return query;
}

function ordered(query: AnyQuery, def: ResourceDef<any, any, any, any, any>, q: Row): AnyQuery {
  const keys = Object.keys(def.sorts);
  const key = (q.SortField as string | undefined) ?? keys[0]!;
  const order = (q.SortOrder as 'asc' | 'desc' | undefined) ?? def.defaultOrder ?? 'asc';
  const idColumn = def.idColumn ?? `${def.table}.Id`;
  let out = query.orderBy(def.sorts[key]!, order);
  if (def.sorts[key] !== idColumn) out = out.orderBy(idColumn, order);
  return out;
}

export async function listResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
): Promise<Page<Item>> {
  assertDaySpan(q, def);
  const k = ctx.db.kysely as AnyKysely;
  const filtered = applyListQuery(def.query(k, ctx), def, ctx, q);
  const size = q.PageSize as number;
  const offset = ((q.PageIndex as number) - 1) * size;
  // The page size (a validated 1 to 100) is written into the SQL: SQLite plans `LIMIT 20` better than a bound
  // `LIMIT ?` (bench: 25 µs of 150 per page), and a handful of sizes keeps the statement cache small.
  const rows = await ordered(filtered, def, q).limit(sql.lit(size)).offset(offset).execute();
  // A page that is not full, and not past the end, tells the total by itself: no count query needed.
  const total =
    rows.length < size && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : await countRows(def, ctx, q, filtered);
  return { Items: await itemsOf(def, ctx, rows), Total: total };
}

/**
 * The number of rows a list query matches (cached briefly, see count-cache.ts). The key is the resource,
 * the caller, the area and the parsed filters: exactly what the query is built from, and far cheaper to
 * make than compiling the count query on every page.
 */
export async function countRows(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  q: Row,
  filtered: AnyQuery,
): Promise<number> {
  const { PageIndex: _page, PageSize: _size, SortField: _field, SortOrder: _order, ...filters } = q;
  const key = `${def.name}\u0000${actorKey(ctx.actor)}\u0000${ctx.areaId ?? ''}\u0000${JSON.stringify(filters)}`;
  return cachedCount(key, ctx.clock.now(), async () =>
    Number(
      (
        await filtered
          .clearSelect()
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );
}

async function itemsOf<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  rows: Row[],
): Promise<Item[]> {
  const items = rows.map((r) => def.toItem(r));
  return def.enrich && items.length ? def.enrich(ctx, items) : items;
}

async function findRow(
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

/** The raw table row (all columns) of the current area, or 404: what audit "before" records. */
async function findRaw(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
  trx: AnyKysely,
): Promise<Row> {
  // Visibility first, by the declaration's own query (a pool resource shows only the pool and the
  // caller's areas): a row the caller cannot see is not found, before any check could describe it.
  await findRow(def, ctx, rowId, trx);
  let query = trx.selectFrom(def.table).selectAll().where('Id', '=', rowId);
  if (def.area) query = query.where('AreaId', '=', scopedArea(ctx));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function assertUnique(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  trx: AnyKysely,
  values: Row,
  exceptId?: number,
) {
  for (const rule of def.unique ?? []) {
    if (rule.fields.some((f) => values[f] === undefined)) continue;
    let query = trx.selectFrom(def.table).select('Id');
    for (const f of rule.fields)
      query = values[f] === null ? query.where(f, 'is', null) : query.where(f, '=', values[f]);
    if (def.area) query = query.where('AreaId', '=', scopedArea(ctx));
    if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw new AppError(409, rule.key);
  }
}

export async function getResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
): Promise<Item> {
  const [item] = await itemsOf(def, ctx, [await findRow(def, ctx, rowId, ctx.db.kysely as AnyKysely)]);
  return item!;
}

export async function createResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  input: Row,
): Promise<Item> {
  const now = ctx.clock.now();
  const createdId = await ctx.db.kysely.transaction().execute(async (trx) => {
    const values: Row = {
      ...(await def.create!.values(input, ctx, trx)),
      ...(def.area ? { AreaId: scopedArea(ctx) } : {}),
      ...(def.timestamps ? { CreatedAt: now, UpdatedAt: now } : {}),
    };
    await assertUnique(def, ctx, trx as AnyKysely, values);
    const created = await (trx as AnyKysely)
      .insertInto(def.table)
      .values(values)
      .returning('Id')
      .executeTakeFirstOrThrow();
    await def.create!.after?.(input, ctx, trx, created.Id as number);
    await audit(
      ctx,
      {
        action: 'create',
        entity: def.name,
        entityId: created.Id,
        after: { Id: created.Id, ...input, ...values },
      },
      trx,
    );
    return created.Id as number;
  });
  return getResource(def, ctx, createdId);
}

export async function updateResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  input: Row,
): Promise<Item> {
  const rowId = input.Id as number;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
    const values: Row = {
      ...(await def.update!.values(input, ctx, trx, before)),
      ...(def.timestamps ? { UpdatedAt: ctx.clock.now() } : {}),
    };
    delete values.Id;
    delete values.AreaId;
    await assertUnique(def, ctx, trx as AnyKysely, { ...before, ...values }, rowId);
    await (trx as AnyKysely).updateTable(def.table).set(values).where('Id', '=', rowId).execute();
    await audit(
      ctx,
      { action: 'update', entity: def.name, entityId: rowId, before, after: { ...before, ...values } },
      trx,
    );
  });
  return getResource(def, ctx, rowId);
}

/** Deletes rows of the current area in one transaction: all or none (the first refusal aborts). */
export async function deleteResources(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  ids: number[],
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const rowId of new Set(ids)) {
      const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
      await def.remove!.check?.(ctx, before, trx);
      const deleted = await (trx as AnyKysely)
        .deleteFrom(def.table)
        .where('Id', '=', rowId)
        .executeTakeFirst();
      // A concurrent delete won the row between the read and here (PostgreSQL runs both): nothing was
      // removed, so the caller gets 404 and no audit entry, and a batch rolls back whole.
      if (Number(deleted.numDeletedRows) === 0) throw notFound();
      await audit(ctx, { action: 'delete', entity: def.name, entityId: rowId, before }, trx);
    }
  });
}

export async function setResourceStatus(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
  disabled: boolean,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
    await def.status!.check?.(ctx, before, disabled, trx);
    const values: Row = {
      Disabled: disabled ? 1 : 0,
      ...(def.timestamps ? { UpdatedAt: ctx.clock.now() } : {}),
    };
    await (trx as AnyKysely).updateTable(def.table).set(values).where('Id', '=', rowId).execute();
    await audit(
      ctx,
      { action: 'status', entity: def.name, entityId: rowId, before, after: { ...before, ...values } },
      trx,
    );
  });
}

/**
 * Declares a resource: yields its list/get/create/update/delete/batch-delete/status routes (each only when
 * the declaration offers it) and registers it for export. Routes are guarded by the read or write codes
 * and, for area resources, the area guard; rows of another area are not found (404).
 */
export function defineResource<
  Item extends Row,
  Create extends z.ZodType = z.ZodType,
  Update extends z.ZodType = z.ZodType,
  Ar extends boolean = boolean,
  // Callbacks of an area resource see its area as a number: the guard admitted it before they run.
  C extends ServiceContext = Ar extends true ? AreaContext : ServiceContext,
>(def: ResourceDef<Item, Create, Update, C, Ar>): AnyRoute[] {
  const base = `/api/${def.name}`;
  const tag = def.tag ?? def.name;
  const area = def.area;
  const routes: AnyRoute[] = [
    defineRoute({
      method: 'GET',
      url: base,
      summary: `List ${def.name} (paged, filtered, sorted)`,
      tag,
      access: def.read,
      area,
      query: listQuerySchema(def),
      response: pageOf(def.item),
      handler: ({ query }, ctx) => listResource(def, ctx, query as Row),
    }),
    defineRoute({
      method: 'GET',
      url: `${base}/:Id`,
      summary: `One ${def.name}`,
      tag,
      access: def.read,
      area,
      params: idParams,
      response: def.item,
      handler: ({ params }, ctx) => getResource(def, ctx, params.Id),
    }),
  ];
  if (def.create) {
    routes.push(
      defineRoute({
        method: 'POST',
        url: base,
        summary: `Create ${def.name}`,
        tag,
        access: def.write,
        area,
        body: def.create.body,
        response: def.item,
        async handler({ body }, ctx) {
          const created = await createResource(def, ctx, body as Row);
          def.afterWrite?.(ctx);
          return created;
        },
      }),
    );
  }
  if (def.update) {
    routes.push(
      defineRoute({
        method: 'PUT',
        url: base,
        summary: `Update ${def.name} (Id in the body)`,
        tag,
        access: def.write,
        area,
        body: def.update.body,
        response: def.item,
        async handler({ body }, ctx) {
          const updated = await updateResource(def, ctx, body as Row);
          def.afterWrite?.(ctx);
          return updated;
        },
      }),
    );
  }
  if (def.remove) {
    routes.push(
      defineRoute({
        method: 'DELETE',
        url: `${base}/:Id`,
        summary: `Delete ${def.name}`,
        tag,
        access: def.write,
        area,
        params: idParams,
        async handler({ params }, ctx) {
          await deleteResources(def, ctx, [params.Id]);
          def.afterWrite?.(ctx);
          return null;
        },
      }),
      defineRoute({
        method: 'POST',
        url: `${base}/BatchDelete`,
        summary: `Delete several ${def.name} at once (all or none)`,
        tag,
        access: def.write,
        area,
        body: z.strictObject({ Ids: z.array(id).min(1).max(500) }),
        async handler({ body }, ctx) {
          await deleteResources(def, ctx, body.Ids);
          def.afterWrite?.(ctx);
          return null;
        },
      }),
    );
  }
  if (def.status) {
    routes.push(
      defineRoute({
        method: 'POST',
        url: `${base}/SetStatus`,
        summary: `Enable or disable ${def.name}`,
        tag,
        access: def.write,
        area,
        query: z.object({
          Id: id,
          Disabled: queryBool,
        }),
        async handler({ query }, ctx) {
          await setResourceStatus(def, ctx, query.Id, query.Disabled);
          def.afterWrite?.(ctx);
          return null;
        },
      }),
    );
  }
  if (def.export) {
    const exportDef = def.export;
    const querySchema = listQuerySchema(def, false);
    // The list route carries its export; registering the route registers it (no import-time side effect).
    routes[0]!.exportable = {
      name: def.name,
      read: def.read,
      titleKey: exportDef.titleKey,
      columns: exportDef.columns as ExportColumn<Row>[],
      query: querySchema,
      requiresRange: def.timeRange?.requiredForExport ? ['StartTime', 'EndTime'] : undefined,
      checkQuery: (q) => assertDaySpan(q, def),
      count: (ctx, q) =>
        countRows(def, ctx, q, applyListQuery(def.query(ctx.db.kysely as AnyKysely, ctx as C), def, ctx, q)),
      async rows(ctx, q, limit) {
        const filtered = applyListQuery(def.query(ctx.db.kysely as AnyKysely, ctx as C), def, ctx, q);
        return itemsOf(def, ctx, await ordered(filtered, def, q).limit(limit).execute());
      },
    };
  }
  return routes;
}

// ---- resources declared in the contract -------------------------------------------------------------------

type Where<V> = Filter<V>['where'];
type FiltersOf<A extends AnyResourceApi> = A['def'] extends {
  filters: infer F extends Record<string, z.ZodType>;
}
  ? F
  : Record<never, z.ZodType>;
type InputOfBody<O> = O extends { body: infer B extends z.ZodType } ? z.output<B> : never;

/**
 * What the server adds to a resource the contract declares (`resourceApi` in packages/shared): the table,
 * the query and its row mapping, each filter's condition, each sort key's column, and the write rules. The
 * operations themselves (URLs, bodies, replies, codes, area) are the contract's.
 */
export interface ResourceImpl<A extends AnyResourceApi, C extends ServiceContext = ServiceContext> {
  table: keyof Database & string;
  /** See ResourceDef.areaColumn. */
  areaColumn?: string | false;
  query(db: AnyKysely, ctx: C): AnyQuery;
  toItem(row: Row): z.output<A['def']['item']>;
  enrich?(ctx: C, items: z.output<A['def']['item']>[]): Promise<z.output<A['def']['item']>[]>;
  /** The condition of each filter the contract declares. */
  where: { [K in keyof FiltersOf<A>]: Where<z.output<FiltersOf<A>[K]>> };
  /** The column of each sort key the contract declares. */
  sorts: { [K in A['def']['sorts'][number]]: string };
  idColumn?: string;
  defaultOrder?: 'asc' | 'desc';
  /** The column StartTime/EndTime apply to (the contract says the list takes a range). */
  timeRange?: TimeRange;
  create?: {
    values(input: InputOfBody<A['create']>, ctx: C, trx: Trx): Promise<Row> | Row;
    after?(input: InputOfBody<A['create']>, ctx: C, trx: Trx, id: number): Promise<void>;
  };
  update?: {
    values(input: InputOfBody<A['update']>, ctx: C, trx: Trx, existing: Row): Promise<Row> | Row;
  };
  remove?: { check?(ctx: C, row: Row, trx: Trx): Promise<void> };
  status?: { check?(ctx: C, row: Row, disabled: boolean, trx: Trx): Promise<void> };
  unique?: UniqueRule[];
  timestamps?: boolean;
  afterWrite?(ctx: AuthedContext): void;
  export?: { titleKey: string; columns: ExportColumn<z.output<A['def']['item']> & Row>[] };
}

/**
 * The routes of a resource the contract declares, implemented by `impl`: each operation the declaration
 * offers, with an audit entry for every write and the list's export. Throws at start when the contract
 * offers a write the implementation does not provide (or the reverse), so the two cannot drift apart.
 */
/** The internal declaration of a contract resource and its implementation (see implementResource). */
function resourceDefOf<A extends AnyResourceApi, C extends ServiceContext>(
  api: A,
  impl: ResourceImpl<A, C>,
): ResourceDef<Row, z.ZodType, z.ZodType, C, boolean> {
  const d = api.def;
  for (const part of ['create', 'update', 'remove', 'status'] as const) {
    if (Boolean(d[part]) !== Boolean(impl[part]))
      throw new Error(`${d.name}: the contract and the implementation disagree on ${part}`);
  }
  if (Boolean(d.timeRange) !== Boolean(impl.timeRange))
    throw new Error(`${d.name}: the contract and the implementation disagree on the time range`);
  const filters: Filters = {};
  for (const [name, schema] of Object.entries(d.filters ?? {})) {
    const where = (impl.where as Record<string, Where<unknown>>)[name];
    if (!where) throw new Error(`${d.name}: no condition for the filter ${name}`);
    filters[name] = { schema, where };
  }
  return {
    ...(impl as unknown as Omit<ResourceDef<Row, z.ZodType, z.ZodType, C, boolean>, 'name'>),
    name: d.name,
    area: d.area,
    read: d.read,
    write: d.write,
    item: d.item as z.ZodType<Row>,
    filters,
    sorts: impl.sorts as Record<string, string>,
    ...(d.tag ? { tag: d.tag } : {}),
    create: impl.create && { ...impl.create, body: d.create! },
    update: impl.update && { ...impl.update, body: d.update! },
  } as ResourceDef<Row, z.ZodType, z.ZodType, C, boolean>;
}

/** One item of a contract resource as its list and detail show it (what a custom write answers with). */
export function getItem<A extends AnyResourceApi, C extends ServiceContext>(
  api: A,
  impl: ResourceImpl<A, C>,
  ctx: ServiceContext,
  rowId: number,
): Promise<z.output<A['def']['item']>> {
  return getResource(resourceDefOf(api, impl), ctx, rowId) as Promise<z.output<A['def']['item']>>;
}

export function implementResource<
  const A extends AnyResourceApi,
  C extends ServiceContext = A['def']['area'] extends true ? AreaContext : ServiceContext,
>(api: A, impl: ResourceImpl<A, C>): AnyRoute[] {
  const d = api.def;
  const def = resourceDefOf(api, impl);
  const routes = defineResource(def);
  // The routes are the contract's operations: same order as operationsOf(api).
  // Only the operations the declaration itself generated: a resource may add writes of its own under the
  // same keys (AppUser's create and update are custom operations), which its module implements with route().
  const ops = [
    api.list,
    api.get,
    d.create && api.create,
    d.update && api.update,
    d.remove && api.remove,
    d.remove && api.batchRemove,
    d.status && api.setStatus,
  ].filter((op) => op !== undefined && op !== false);
  if (ops.length !== routes.length)
    throw new Error(`${d.name}: ${ops.length} operations, ${routes.length} routes`);
  return routes.map((r, i) => {
    const op = ops[i]!;
    if (r.method !== op.method || r.url !== op.path) throw new Error(`${d.name}: ${r.url} is not ${op.path}`);
    // Parsed and documented with the contract's own schemas.
    const routed: AnyRoute = {
      ...r,
      op,
      query: op.query,
      body: op.body,
      params: op.params,
      response: op.reply,
    };
    if (routed.exportable) routed.exportable = { ...routed.exportable, query: api.filterQuery };
    return routed;
  });
}

/** Maps 0/1 columns to booleans and epoch-ms columns to ISO strings, leaving the rest as they are. */
export function rowMapper<Item extends Row>(options: { flags?: string[]; instants?: string[] }) {
  const flags = options.flags ?? ['Disabled'];
  const instants = options.instants ?? ['CreatedAt', 'UpdatedAt'];
  // Rows are fresh objects from the driver, used once: they are converted in place, not copied.
  return (row: Row): Item => {
    const out = row;
    for (const f of flags) if (f in out) out[f] = out[f] === 1 || out[f] === true;
    for (const f of instants)
      if (f in out) out[f] = out[f] === null || out[f] === undefined ? null : isoInstant(Number(out[f]));
    return out as Item;
  };
}
