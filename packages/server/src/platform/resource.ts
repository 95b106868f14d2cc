import { isoInstant, type AnyResourceApi } from '@gatehouse/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import type { ExportColumn } from './exports/registry.ts';
import type { Filter, Filters } from './filters.ts';
import type { AreaContext, ServiceContext } from './context.ts';
import { retainedFrom } from './retention.ts';
import { defineRoute, type AuthedContext, type AnyRoute } from './route.ts';
import { id, idParams, pageOf, queryBool } from './schemas.ts';
import {
  applyListQuery,
  assertDaySpan,
  countRows,
  createResource,
  deleteResources,
  getResource,
  itemsOf,
  listQuerySchema,
  listResource,
  ordered,
  setResourceStatus,
  updateResource,
  type ResourceDef,
  type TimeRange,
  type UniqueRule,
} from './resource-store.ts';

export { assertDaySpan };
export type { ResourceDef, TimeRange, UniqueRule } from './resource-store.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the helper serves every table; declarations stay typed. */
type AnyKysely = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;
type Row = Record<string, any>;
type Trx = Kysely<Database>;

type AnyDef = ResourceDef<Row, z.ZodType, z.ZodType, any, boolean>;

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
  const d = def as unknown as AnyDef;
  const list = listRoute(d);
  // The list route carries its export; registering the route registers it (no import-time side effect).
  if (d.export) list.exportable = exportOf(d);
  return [list, getRoute(d), ...writeRoutes(d)];
}

/** What every route of a resource shares: its tag, the codes it asks for and whether it is area-scoped. */
function common(def: AnyDef, access: 'read' | 'write') {
  return { tag: def.tag ?? def.name, access: def[access], area: def.area };
}

function listRoute(def: AnyDef): AnyRoute {
  return defineRoute({
    method: 'GET',
    url: `/api/${def.name}`,
    summary: `List ${def.name} (paged, filtered, sorted)`,
    ...common(def, 'read'),
    query: listQuerySchema(def),
    response: pageOf(def.item),
    async handler({ query }, ctx) {
      const page = await listResource(def, ctx, query as Row);
      const retention = def.timeRange?.retention;
      if (!retention) return page;
      // The page of a record kind that retention may have cut says so (RetainedFrom): the setting is read here,
      // in the route, and the cutoff is the retention runs' own.
      const start = (query as Row).StartTime as number | undefined;
      return { ...page, ...retainedFrom(ctx.platform.settings, retention, ctx.clock.now(), start) };
    },
  });
}

function getRoute(def: AnyDef): AnyRoute {
  return defineRoute({
    method: 'GET',
    url: `/api/${def.name}/:Id`,
    summary: `One ${def.name}`,
    ...common(def, 'read'),
    params: idParams,
    response: def.item,
    handler: ({ params }, ctx) => getResource(def, ctx, params.Id),
  });
}

/** The writes the declaration offers, in the contract's order; each runs afterWrite once it has committed. */
function writeRoutes(def: AnyDef): AnyRoute[] {
  const base = `/api/${def.name}`;
  const write = common(def, 'write');
  const then = <T>(ctx: AuthedContext, result: T): T => {
    def.afterWrite?.(ctx);
    return result;
  };
  const routes: AnyRoute[] = [];
  if (def.create) {
    const body = def.create.body;
    routes.push(
      defineRoute({
        method: 'POST',
        url: base,
        summary: `Create ${def.name}`,
        ...write,
        body,
        response: def.item,
        handler: async ({ body }, ctx) => then(ctx, await createResource(def, ctx, body as Row)),
      }),
    );
  }
  if (def.update) {
    const body = def.update.body;
    routes.push(
      defineRoute({
        method: 'PUT',
        url: base,
        summary: `Update ${def.name} (Id in the body)`,
        ...write,
        body,
        response: def.item,
        handler: async ({ body }, ctx) => then(ctx, await updateResource(def, ctx, body as Row)),
      }),
    );
  }
  if (def.remove) {
    routes.push(
      defineRoute({
        method: 'DELETE',
        url: `${base}/:Id`,
        summary: `Delete ${def.name}`,
        ...write,
        params: idParams,
        async handler({ params }, ctx) {
          await deleteResources(def, ctx, [params.Id]);
          return then(ctx, null);
        },
      }),
      defineRoute({
        method: 'POST',
        url: `${base}/BatchDelete`,
        summary: `Delete several ${def.name} at once (all or none)`,
        ...write,
        body: z.strictObject({ Ids: z.array(id).min(1).max(500) }),
        async handler({ body }, ctx) {
          await deleteResources(def, ctx, body.Ids);
          return then(ctx, null);
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
        ...write,
        query: z.object({ Id: id, Disabled: queryBool }),
        async handler({ query }, ctx) {
          await setResourceStatus(def, ctx, query.Id, query.Disabled);
          return then(ctx, null);
        },
      }),
    );
  }
  return routes;
}

/** The list's export: the same query, filters and order as the list, in rows up to a limit. */
function exportOf(def: AnyDef): NonNullable<AnyRoute['exportable']> {
  const exportDef = def.export!;
  const filtered = (ctx: ServiceContext, q: Row) =>
    applyListQuery(def.query(ctx.db.kysely as AnyKysely, ctx), def, ctx, q);
  return {
    name: def.name,
    read: def.read,
    titleKey: exportDef.titleKey,
    columns: exportDef.columns as ExportColumn<Row>[],
    query: listQuerySchema(def, false),
    requiresRange: def.timeRange?.requiredForExport ? ['StartTime', 'EndTime'] : undefined,
    checkQuery: (q) => assertDaySpan(q, def),
    count: (ctx, q) => countRows(def, ctx, q),
    async rows(ctx, q, limit) {
      return itemsOf(def, ctx, await ordered(filtered(ctx, q), def, q).limit(limit).execute());
    },
  };
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
  /** See ResourceDef.pageOnTable. */
  pageOnTable?: { joinedFilters?: readonly (keyof FiltersOf<A> & string)[]; dayCounted?: boolean };
  /** See ResourceDef.narrowFilters. */
  narrowFilters?: readonly (keyof FiltersOf<A> & string)[];
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
