import { z } from 'zod';
import { endAfterStart, idList, idParams, idText, instantText, pageOf, paging, queryBool } from './wire.ts';

/**
 * One operation of the API, declared once: the server registers its route from it (platform/route.ts), the
 * web calls it through the typed client (core/api.ts), and the OpenAPI document describes it. Nothing else
 * names a URL, a body or a reply.
 */

/** Who may call: nobody signed in, anybody signed in, or holders of any one of these codes. */
export type Access = 'public' | 'authenticated' | readonly string[];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationSpec {
  method: Method;
  /** `/api/…`, with path parameters written `:Name`. */
  path: string;
  summary: string;
  /** The OpenAPI tag (the module or resource it belongs to). */
  tag: string;
  access: Access;
  /** Area-scoped: the X-Area-Id header must name one of the caller's areas. */
  area?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The envelope's `data`; absent: null. */
  reply?: z.ZodType;
  /** The reply is a file download (an .xlsx), not the JSON envelope. */
  file?: boolean;
  /** Largest request body in bytes, when it is not the server's default. */
  bodyLimit?: number;
  /**
   * `false`: for people only. An API key is refused (403) whatever codes it holds: a key never manages keys,
   * users, roles or webhooks, nor anything that only a person signed in can mean (their own account, the
   * areas people operate). See `peopleOnly`.
   */
  keys?: false;
}

/** Declares an operation, keeping its literal types for the server's handler and the web's calls. */
export function operation<const S extends OperationSpec>(spec: S): S {
  return spec;
}

type Slot<K extends string, S, Key extends keyof OperationSpec> = S extends {
  [P in Key]: infer T extends z.ZodType;
}
  ? // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "every field optional"
    {} extends z.input<T>
    ? { [P in K]?: z.input<T> }
    : { [P in K]: z.input<T> }
  : { [P in K]?: undefined };

/** What a caller sends: path parameters, query and body, each typed from the operation's schemas. */
export type InputOf<S extends OperationSpec> = Slot<'params', S, 'params'> &
  Slot<'query', S, 'query'> &
  Slot<'body', S, 'body'>;

type Parsed<S, Key extends keyof OperationSpec> = S extends { [P in Key]: infer T extends z.ZodType }
  ? z.output<T>
  : undefined;

/** What the server's handler receives once the request is parsed. */
export interface ParsedInput<S extends OperationSpec> {
  params: Parsed<S, 'params'>;
  query: Parsed<S, 'query'>;
  body: Parsed<S, 'body'>;
}

/** The envelope's `data` of an operation's reply. */
export type ReplyOf<S extends OperationSpec> = S extends { reply: infer R extends z.ZodType }
  ? z.output<R>
  : null;

/** The operation's path with its parameters filled in (each encoded). */
export function pathOf(op: Pick<OperationSpec, 'path'>, params?: Record<string, unknown>): string {
  return op.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${op.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

// ---- resources: the standard list / detail / create / update / delete / status set ----------------------

export interface ResourceApiDef {
  /** URL segment and audit entity: /api/{name}. */
  name: string;
  /** OpenAPI tag (default: the name). */
  tag?: string;
  /** Area-scoped: calls need X-Area-Id; rows of another area are not found. */
  area: boolean;
  /** Codes that may list, read and export; codes that may create, update, delete and enable/disable. */
  read: readonly string[];
  write: readonly string[];
  /** What the list and detail return. */
  item: z.ZodType;
  /** Query parameters filtering the list (schemas from `filterSchema`). */
  filters?: Record<string, z.ZodType>;
  /** Sort keys; the first is the default. */
  sorts: readonly [string, ...string[]];
  /** The list takes StartTime/EndTime (record lists). */
  timeRange?: boolean;
  create?: z.ZodType;
  /** Must contain Id. */
  update?: z.ZodType;
  /** DELETE /{Id} and POST BatchDelete. */
  remove?: boolean;
  /** POST SetStatus?Id=&Disabled= for a Disabled column. */
  status?: boolean;
}

type FilterIn<D extends ResourceApiDef> = D extends { filters: infer F extends Record<string, z.ZodType> }
  ? { [K in keyof F]?: z.input<F[K]> }
  : unknown;
type FilterOut<D extends ResourceApiDef> = D extends { filters: infer F extends Record<string, z.ZodType> }
  ? { [K in keyof F]?: z.output<F[K]> }
  : unknown;
type RangeIn<D extends ResourceApiDef> = D extends { timeRange: true }
  ? { StartTime?: string | number; EndTime?: string | number }
  : unknown;
type RangeOut<D extends ResourceApiDef> = D extends { timeRange: true }
  ? { StartTime?: number; EndTime?: number }
  : unknown;
type SortIn<D extends ResourceApiDef> = { SortField?: D['sorts'][number]; SortOrder?: 'asc' | 'desc' };

/** A list's query without paging (what an export takes). */
export type ListFilterIn<D extends ResourceApiDef> = SortIn<D> & FilterIn<D> & RangeIn<D>;
export type ListFilterOut<D extends ResourceApiDef> = SortIn<D> & FilterOut<D> & RangeOut<D>;
export type ListQueryIn<D extends ResourceApiDef> = ListFilterIn<D> & {
  PageIndex?: number | string;
  PageSize?: number | string;
};
export type ListQueryOut<D extends ResourceApiDef> = ListFilterOut<D> & {
  PageIndex: number;
  PageSize: number;
};

type ItemOf<D extends ResourceApiDef> = z.output<D['item']>;
type PageSchema<D extends ResourceApiDef> = z.ZodType<{
  Items: ItemOf<D>[];
  Total: number;
  TotalCapped?: boolean;
  RetainedFrom?: string;
}>;

interface Base {
  summary: string;
  tag: string;
  access: readonly string[];
  area: boolean;
}
type IdParams = typeof idParams;

export type ResourceOperations<D extends ResourceApiDef> = {
  name: D['name'];
  def: D;
  /** The list's query without paging (exports). */
  filterQuery: z.ZodType<ListFilterOut<D>, ListFilterIn<D>>;
  list: Base & {
    method: 'GET';
    path: string;
    query: z.ZodType<ListQueryOut<D>, ListQueryIn<D>>;
    reply: PageSchema<D>;
  };
  get: Base & { method: 'GET'; path: string; params: IdParams; reply: D['item'] };
} & (D extends { create: infer C extends z.ZodType }
  ? { create: Base & { method: 'POST'; path: string; body: C; reply: D['item'] } }
  : unknown) &
  (D extends { update: infer U extends z.ZodType }
    ? { update: Base & { method: 'PUT'; path: string; body: U; reply: D['item'] } }
    : unknown) &
  (D extends { remove: true }
    ? {
        remove: Base & { method: 'DELETE'; path: string; params: IdParams };
        batchRemove: Base & { method: 'POST'; path: string; body: z.ZodType<{ Ids: number[] }> };
      }
    : unknown) &
  (D extends { status: true }
    ? {
        setStatus: Base & {
          method: 'POST';
          path: string;
          query: z.ZodType<
            { Id: number; Disabled: boolean },
            { Id: number | string; Disabled: boolean | string }
          >;
        };
      }
    : unknown);

/**
 * What a list screen needs of a resource: its name (cache keys, exports) and its list; the standard writes
 * when it has them (a resource may declare its own operations under these keys).
 */
export interface ListApi {
  name: string;
  list: OperationSpec & { reply: z.ZodType };
  create?: OperationSpec & { body: z.ZodType };
  update?: OperationSpec & { body: z.ZodType };
  remove?: OperationSpec;
  batchRemove?: OperationSpec & { body: z.ZodType };
  setStatus?: OperationSpec & { query: z.ZodType };
}

/** Any resource's operations, as generic code (list pages, the server's resource helper) sees them. */
export interface AnyResourceApi extends ListApi {
  name: string;
  def: ResourceApiDef;
  filterQuery: z.ZodType;
  list: OperationSpec & { query: z.ZodType; reply: z.ZodType };
  get: OperationSpec & { params: IdParams; reply: z.ZodType };
  create?: OperationSpec & { body: z.ZodType };
  update?: OperationSpec & { body: z.ZodType };
  remove?: OperationSpec & { params: IdParams };
  batchRemove?: OperationSpec & { body: z.ZodType };
  setStatus?: OperationSpec & { query: z.ZodType };
}

const sortOrder = z.enum(['asc', 'desc']);

function listSchema(def: ResourceApiDef, withPaging: boolean) {
  const shape: Record<string, z.ZodType> = {
    ...(withPaging ? paging : {}),
    SortField: z.enum(def.sorts as [string, ...string[]]).optional(),
    SortOrder: sortOrder.optional(),
  };
  for (const [name, schema] of Object.entries(def.filters ?? {})) shape[name] = schema.optional();
  if (def.timeRange) {
    shape.StartTime = instantText.optional();
    shape.EndTime = instantText.optional();
  }
  return z.object(shape).superRefine(endAfterStart('StartTime', 'EndTime'));
}

/**
 * Declares a resource's standard operations (each only when the declaration offers it): list (paged,
 * filtered, sorted), detail, create, update (Id in the body), delete and batch delete, enable/disable.
 */
export function resourceApi<const D extends ResourceApiDef>(def: D): ResourceOperations<D> {
  const base = `/api/${def.name}`;
  const common = { tag: def.tag ?? def.name, area: def.area };
  const read = { ...common, access: def.read };
  const write = { ...common, access: def.write };
  const api: Record<string, unknown> = {
    name: def.name,
    def,
    filterQuery: listSchema(def, false),
    list: {
      ...read,
      method: 'GET',
      path: base,
      summary: `List ${def.name} (paged, filtered, sorted)`,
      query: listSchema(def, true),
      reply: pageOf(def.item),
    },
    get: {
      ...read,
      method: 'GET',
      path: `${base}/:Id`,
      summary: `One ${def.name}`,
      params: idParams,
      reply: def.item,
    },
  };
  if (def.create)
    api.create = {
      ...write,
      method: 'POST',
      path: base,
      summary: `Create ${def.name}`,
      body: def.create,
      reply: def.item,
    };
  if (def.update)
    api.update = {
      ...write,
      method: 'PUT',
      path: base,
      summary: `Update ${def.name} (Id in the body)`,
      body: def.update,
      reply: def.item,
    };
  if (def.remove) {
    api.remove = {
      ...write,
      method: 'DELETE',
      path: `${base}/:Id`,
      summary: `Delete ${def.name}`,
      params: idParams,
    };
    api.batchRemove = {
      ...write,
      method: 'POST',
      path: `${base}/BatchDelete`,
      summary: `Delete several ${def.name} at once (all or none)`,
      body: z.strictObject({ Ids: idList() }),
    };
  }
  if (def.status)
    api.setStatus = {
      ...write,
      method: 'POST',
      path: `${base}/SetStatus`,
      summary: `Enable or disable ${def.name}`,
      query: z.object({ Id: idText, Disabled: queryBool }),
    };
  return api as ResourceOperations<D>;
}

type PeopleOnly<T> = {
  [K in keyof T]: T[K] extends OperationSpec ? T[K] & { keys: false } : T[K];
};

/**
 * The same operations, for people only (OperationSpec.keys): an API key calling any of them is refused with 403
 * whatever codes it holds, except the operations named in `except`. A key never manages keys, users, roles or
 * webhooks; the platform checks this flag on every request (platform/route.ts), so a new operation of such
 * a group is refused to keys without anyone remembering to.
 */
export function peopleOnly<const T extends object>(api: T, except: readonly (keyof T)[] = []): PeopleOnly<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(api)) {
    const isOperation =
      value !== null &&
      typeof value === 'object' &&
      'method' in value &&
      'path' in value &&
      'access' in value;
    out[key] = isOperation && !except.includes(key as keyof T) ? { ...value, keys: false } : value;
  }
  return out as PeopleOnly<T>;
}

/** Every operation of a resource declaration, in registration order (for route tables and the document). */
export function operationsOf(api: AnyResourceApi): OperationSpec[] {
  return [api.list, api.get, api.create, api.update, api.remove, api.batchRemove, api.setStatus].filter(
    (op): op is NonNullable<typeof op> => op !== undefined,
  );
}
