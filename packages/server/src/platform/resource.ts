import { isoInstant, type AnyResourceApi, type OperationSpec } from '@gatehouse/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.ts';
import type { Exportable, ExportColumn } from './exports/registry.ts';
import type { Where } from './filters.ts';
import type { AreaContext, ServiceContext } from './context.ts';
import { retainedFrom } from './retention.ts';
import { route, type AuthedContext, type AnyRoute } from './route.ts';
import {
  applyListQuery,
  assertDaySpan,
  countRows,
  getResource,
  itemsOf,
  listResource,
  ordered,
  type ResourceDef,
  type TimeRange,
  type UniqueRule,
} from './resource-store.ts';
import { createResource, deleteResources, setResourceStatus, updateResource } from './resource-writes.ts';

export { assertDaySpan };
export type { ResourceDef, TimeRange, UniqueRule } from './resource-store.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the helper serves every table; declarations stay typed. */
type AnyKysely = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;
type Row = Record<string, any>;
type Trx = Kysely<Database>;

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
    after?(input: InputOfBody<A['update']>, ctx: C, trx: Trx, existing: Row): Promise<void>;
  };
  remove?: { check?(ctx: C, row: Row, trx: Trx): Promise<void> };
  status?: { check?(ctx: C, row: Row, disabled: boolean, trx: Trx): Promise<void> };
  unique?: UniqueRule[];
  timestamps?: boolean;
  afterWrite?(ctx: AuthedContext): void;
  export?: { titleKey: string; columns: ExportColumn<z.output<A['def']['item']> & Row>[] };
}

/**
 * The store's declaration of a contract resource (resource-store.ts): the implementation with the contract's
 * name, area and filter names. Throws at start when the contract offers a write the implementation does not
 * provide (or the reverse), or a filter it has no condition for, so the two cannot drift apart.
 */
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
  const filters: Record<string, Where<unknown>> = {};
  for (const name of Object.keys(d.filters ?? {})) {
    const where = (impl.where as Record<string, Where<unknown>>)[name];
    if (!where) throw new Error(`${d.name}: no condition for the filter ${name}`);
    filters[name] = where;
  }
  return {
    ...(impl as unknown as Omit<ResourceDef<Row, z.ZodType, z.ZodType, C, boolean>, 'name'>),
    name: d.name,
    area: d.area,
    filters,
    sorts: impl.sorts as Record<string, string>,
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

/**
 * The routes of a resource the contract declares, implemented by `impl`: each operation the declaration
 * offers, registered as the contract states it (path, schemas, codes, area), with an audit entry for every
 * write and the list's export.
 */
export function implementResource<
  const A extends AnyResourceApi,
  C extends ServiceContext = A['def']['area'] extends true ? AreaContext : ServiceContext,
>(api: A, impl: ResourceImpl<A, C>): AnyRoute[] {
  const d = api.def;
  const def = resourceDefOf(api, impl);
  const then = <T>(ctx: AuthedContext, result: T): T => {
    impl.afterWrite?.(ctx);
    return result;
  };
  const routes = [
    on(
      api.list,
      async ({ query }, ctx) => {
        const page = await listResource(def, ctx, query);
        const retention = def.timeRange?.retention;
        if (!retention) return page;
        // The page of a record kind that retention may have cut says so (RetainedFrom): the setting is read
        // here, in the route, and the cutoff is the retention runs' own.
        const start = query.StartTime as number | undefined;
        return { ...page, ...retainedFrom(ctx.platform.settings, retention, ctx.clock.now(), start) };
      },
      // The list route carries its export; registering the route registers it (no import-time side effect).
      impl.export ? { exportable: exportOf(api, def, impl.export) } : {},
    ),
    on(api.get, ({ params }, ctx) => getResource(def, ctx, params.Id)),
  ];
  // Only the operations the declaration itself generated: a resource may add writes of its own under the
  // same keys (AppUser's create and update are custom operations), which its module implements with route().
  if (d.create)
    routes.push(on(api.create, async ({ body }, ctx) => then(ctx, await createResource(def, ctx, body))));
  if (d.update)
    routes.push(on(api.update, async ({ body }, ctx) => then(ctx, await updateResource(def, ctx, body))));
  if (d.remove)
    routes.push(
      on(api.remove, async ({ params }, ctx) => {
        await deleteResources(def, ctx, [params.Id]);
        return then(ctx, null);
      }),
      on(api.batchRemove, async ({ body }, ctx) => {
        await deleteResources(def, ctx, body.Ids as number[]);
        return then(ctx, null);
      }),
    );
  if (d.status)
    routes.push(
      on(api.setStatus, async ({ query }, ctx) => {
        await setResourceStatus(def, ctx, query.Id as number, query.Disabled as boolean);
        return then(ctx, null);
      }),
    );
  return routes;
}

/** What a resource operation's handler gets: the request as the contract's schemas parsed it. */
type Parsed = { query: Row; body: Row; params: { Id: number } };

/** The route of one of the contract's resource operations: its schemas, codes and area are the operation's. */
function on(
  op: OperationSpec | undefined,
  handler: (input: Parsed, ctx: AuthedContext) => Promise<unknown>,
  extras: { exportable?: Exportable } = {},
): AnyRoute {
  if (!op) throw new Error('a resource declaration offers an operation it has not declared');
  return route(op, handler as never, extras);
}

/** The list's export: the contract's filter query, and the list's filters and order, in rows up to a limit. */
function exportOf<A extends AnyResourceApi>(
  api: A,
  def: ResourceDef<Row, z.ZodType, z.ZodType, any, boolean>,
  exportDef: NonNullable<ResourceImpl<A, any>['export']>,
): Exportable {
  const filtered = (ctx: ServiceContext, q: Row) =>
    applyListQuery(def.query(ctx.db.kysely as AnyKysely, ctx), def, ctx, q);
  return {
    name: def.name,
    read: api.def.read,
    titleKey: exportDef.titleKey,
    columns: exportDef.columns as ExportColumn<Row>[],
    query: api.filterQuery,
    requiresRange: def.timeRange?.requiredForExport ? ['StartTime', 'EndTime'] : undefined,
    checkQuery: (q) => assertDaySpan(q, def),
    count: (ctx, q) => countRows(def, ctx, q),
    async rows(ctx, q, limit) {
      return itemsOf(def, ctx, await ordered(filtered(ctx, q), def, q).limit(limit).execute());
    },
  };
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
