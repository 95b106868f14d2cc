import {
  matchLanguage,
  DEFAULT_LANG,
  type Lang,
  type OperationSpec,
  type ParsedInput,
  type ReplyOf,
} from '@gatehouse/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertAreaAccess, parseAreaHeader } from './area-guard.ts';
import { isApiKey } from './auth/api-keys.ts';
import { bearerToken } from './auth/tokens.ts';
import { userActor, type ServiceContext } from './context.ts';
import { AppError, fieldError } from './errors.ts';
import { registerExportable, type Exportable } from './exports/registry.ts';
import { hasAnyCode, type Principal } from './principal.ts';
import type { Platform } from './platform.ts';
import { bindActor } from './request-log.ts';
import { fieldErrors } from './validation.ts';

export type Access = 'public' | 'authenticated' | readonly string[];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
  /** Scheme and host the client used, for absolute addresses (hub URL). */
  origin: string;
}

/** A public route's context: nobody has signed in, so there is no actor to audit. */
export interface PublicContext extends Omit<ServiceContext, 'actor'> {
  user: Principal | undefined;
  platform: Platform;
  meta: RequestMeta;
}

/**
 * A signed-in route's context: the service context (its actor is the user) plus what only the route layer
 * holds, the user's permissions, the platform and the HTTP request's details. Services take the service part.
 */
export interface AuthedContext extends ServiceContext {
  user: Principal;
  platform: Platform;
  meta: RequestMeta;
}

/** An area-scoped route's context: the guard has admitted the area, so it is a number. */
export type AreaRouteContext = AuthedContext & { areaId: number };

type HandlerContext<A extends Access, Ar extends boolean> = A extends 'public'
  ? PublicContext
  : Ar extends true
    ? AreaRouteContext
    : AuthedContext;

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<
  A extends Access = Access,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Ar extends boolean = boolean,
> {
  method: Method;
  url: string;
  summary: string;
  tag: string;
  /** Who may call: nobody logged in, anybody logged in, or holders of any one of these codes. */
  access: A;
  /** Area-scoped: the X-Area-Id header must name one of the caller's areas; handlers get a trusted areaId. */
  area?: Ar;
  query?: Q;
  body?: B;
  /** Largest request body in bytes; public routes default to PUBLIC_BODY_LIMIT, others to the app's limit. */
  bodyLimit?: number;
  params?: P;
  response?: z.ZodType;
  /** The list this route serves can be exported (export jobs find it by name once the route is registered). */
  exportable?: Exportable;
  /** The contract's operation this route implements (absent only for routes not yet declared there). */
  op?: OperationSpec;
  handler(
    input: { query: Infer<Q>; body: Infer<B>; params: Infer<P> },
    ctx: HandlerContext<A, Ar>,
  ): Promise<unknown>;
}

/** A declared route of any input shape: what registries and the route table hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous routes in one list
export type AnyRoute = RouteSpec<any, any, any, any, any>;

/**
 * Awaits a change to who may do what (users, roles, areas), then drops the cached principals. Sessions belong
 * to the route layer, so services leave this to the routes that call them.
 */
export async function changesGrants<T>(ctx: AuthedContext, change: Promise<T>): Promise<T> {
  const result = await change;
  ctx.platform.sessions.invalidate();
  return result;
}

/** A handler's result that also hands the client a token (the envelope's optional `token`). */
export class WithToken<T> {
  constructor(
    readonly data: T,
    readonly token: string,
  ) {}
}

/** A handler's result sent as a file download instead of the JSON envelope. */
export class FileReply {
  constructor(
    readonly body: Buffer,
    readonly fileName: string,
    readonly contentType: string,
  ) {}
}

/** The handler's context an operation gets: public, signed in, or signed in with an admitted area. */
export type OperationContext<S extends OperationSpec> = S['access'] extends 'public'
  ? PublicContext
  : S extends { area: true }
    ? AreaRouteContext
    : AuthedContext;

/** What a handler may return: the operation's reply, a file for a download, or the reply with a new token. */
export type HandlerResult<S extends OperationSpec> = S extends { file: true }
  ? FileReply
  : ReplyOf<S> | WithToken<ReplyOf<S>> | (ReplyOf<S> extends null ? void : never);

/**
 * Implements an operation of the contract (`packages/shared/src/contract`): the operation says method, path,
 * schemas, codes and area; this adds the handler (and, for a list, its export). The registered route is the
 * operation's, so the server, the web's typed client and the OpenAPI document cannot drift apart.
 */
export function route<const S extends OperationSpec>(
  op: S,
  handler: (input: ParsedInput<S>, ctx: OperationContext<S>) => Promise<HandlerResult<S>>,
  extras: { exportable?: Exportable } = {},
): AnyRoute {
  return {
    method: op.method,
    url: op.path,
    summary: op.summary,
    tag: op.tag,
    access: op.access,
    area: op.area ?? false,
    query: op.query,
    body: op.body,
    params: op.params,
    response: op.reply,
    ...(op.bodyLimit !== undefined ? { bodyLimit: op.bodyLimit } : {}),
    ...(extras.exportable ? { exportable: extras.exportable } : {}),
    op,
    handler: handler as AnyRoute['handler'],
  };
}

/** What an anonymous caller may send at most: nothing public takes more than a login form. */
export const PUBLIC_BODY_LIMIT = 16 * 1024;

export function requestLang(request: FastifyRequest): Lang {
  const header = request.headers['accept-language'];
  if (!header) return DEFAULT_LANG;
  // A browser sends the same header on every request: parsed once per distinct value.
  let lang = langs.get(header);
  if (lang === undefined) {
    lang = matchLanguage(header, DEFAULT_LANG);
    if (langs.size >= 200) langs.clear();
    langs.set(header, lang);
  }
  return lang;
}

const langs = new Map<string, Lang>();

function toJsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
    // zod leaves out the default of a field whose schema is preprocessed (the strict whole numbers of
    // the contract's wire.ts: PageIndex, PageSize, ids in paths and queries); clients read it from the document.
    override(ctx) {
      const def = ctx.zodSchema._zod.def;
      if (def.type === 'default' && ctx.jsonSchema.default === undefined)
        ctx.jsonSchema.default = JSON.parse(JSON.stringify((def as { defaultValue: unknown }).defaultValue));
    },
  });
}

/**
 * The named schemas (`.meta({ id })`, the recursive trees) that the routes' schemas refer to, for the
 * document's `components.schemas`. zod writes them into each route schema's `definitions`, which
 * @fastify/swagger drops while it points the `$ref`s at `#/components/schemas/<id>`: without this the
 * document would refer to schemas it does not contain.
 */
export function openApiComponents(routes: readonly AnyRoute[]): Record<string, object> {
  const components: Record<string, object> = {};
  for (const route of routes) {
    const parts = [route.query, route.body, route.params, envelopeSchema(route.response)];
    for (const part of parts as (z.ZodType | undefined)[]) {
      if (!part) continue;
      for (const [id, schema] of Object.entries(toJsonSchema(part).definitions ?? {})) {
        // Unnamed cycles get zod's per-conversion names (__schema0), which would collide.
        if (id.startsWith('__schema'))
          throw new Error(`${route.url}: name the recursive schema with .meta({ id })`);
        components[id] = schema;
      }
    }
  }
  return components;
}

/**
 * The path of the first text holding a NUL character, or undefined. PostgreSQL cannot store NUL in text
 * (the insert fails with a 500) and no field has a use for it, so every input is refused with it.
 */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 20 || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.${key.replaceAll('\u0000', '')}` : 'key';
    const found = nulPath(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Parses one part of a request. Query strings and paths are always objects (empty when nothing was sent);
 * a body is what the client sent: a missing or null body is not an empty change but no body at all, refused
 * unless the operation's body may be absent.
 */
function parsePart(
  schema: z.ZodType | undefined,
  input: unknown,
  lang: Lang,
  part: 'params' | 'query' | 'body',
) {
  if (!schema) return undefined;
  const nul = nulPath(input, '');
  if (nul !== undefined)
    throw new AppError(400, 'error.validation', undefined, {
      Errors: [{ Field: (nul || 'body').slice(0, 64), Key: 'validation.invalid' }],
    });
  if (part === 'body' && (input === undefined || input === null) && !schema.safeParse(undefined).success)
    throw fieldError('body', 'validation.required');
  const result = schema.safeParse(part === 'body' ? input : (input ?? {}));
  if (!result.success) {
    throw new AppError(400, 'error.validation', undefined, {
      Errors: fieldErrors(result.error, input, lang),
    });
  }
  return result.data;
}

/** How many distinct query strings a route keeps parsed, and the longest it keeps (a list's is under 300). */
const QUERY_TEXTS = 200;
const QUERY_TEXT_MAX = 512;

/**
 * The query parser of a route: `parsePart` on the request's query, kept per query string. Parsing is a pure
 * function of that text (the query schemas read no clock, caller or setting), and browsers ask the same lists
 * with the same query strings again and again (refreshes, polling, paging back); zod's parse with the NUL check
 * was about 12 µs of a list request (docs/performance.md, "API load"). Only what parsed is kept, frozen, so a
 * handler cannot change what the next request gets; a refused query is parsed every time (its messages depend
 * on the language), and so is a long one. Bounded per route by count and length (200 × 512 characters): what a
 * caller can make it hold is small, and only signed-in callers reach the parse of a route that is not public.
 */
function queryParser(schema: z.ZodType | undefined) {
  if (!schema) return () => undefined;
  const kept = new Map<string, unknown>();
  return (request: FastifyRequest, lang: Lang): unknown => {
    const at = request.url.indexOf('?');
    const text = at < 0 ? '' : request.url.slice(at + 1);
    const hit = kept.get(text);
    if (hit !== undefined) return hit;
    const parsed = parsePart(schema, request.query, lang, 'query');
    if (text.length > QUERY_TEXT_MAX) return parsed;
    deepFreeze(parsed);
    if (kept.size >= QUERY_TEXTS) kept.delete(kept.keys().next().value as string);
    kept.set(text, parsed);
    return parsed;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export function envelopeSchema(data: z.ZodType | undefined) {
  return z.object({
    code: z.number().int(),
    msg: z.string(),
    data: data ?? z.unknown(),
    token: z.string().optional(),
  });
}

/**
 * Registers a declared route: OpenAPI from its zod schemas, then per request
 * authenticate (401) → permission codes (403) → area guard (400/403) → parse input (400) → handler → envelope.
 */
export function registerRoute(app: FastifyInstance, platform: Platform, spec: AnyRoute) {
  if (spec.exportable) registerExportable(spec.exportable, spec.url);
  const isPublic = spec.access === 'public';
  const parseQuery = queryParser(spec.query);
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit || isPublic ? { bodyLimit: spec.bodyLimit ?? PUBLIC_BODY_LIMIT } : {}),
    schema: openApiOf(spec),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const lang = requestLang(request);
      const user = isPublic ? undefined : await signedIn(platform, request, reply, spec);
      const areaId = spec.area
        ? assertAreaAccess(user!, parseAreaHeader(request.headers['x-area-id']))
        : undefined;
      const input = {
        params: parsePart(spec.params, request.params, lang, 'params'),
        query: parseQuery(request, lang),
        body: parsePart(spec.body, request.body, lang, 'body'),
      };
      const ctx = {
        db: platform.db,
        clock: platform.clock,
        lang,
        user,
        // Who the services record as acting: the signed-in user or the API key, from this address.
        actor: user ? userActor(user, request.ip) : undefined,
        areaId,
        seams: platform.seams,
        platform,
        meta: {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          // Read only by the few calls that build absolute addresses (the hub's), so computed on demand.
          get origin() {
            return `${request.protocol}://${request.host}`;
          },
        },
      };
      return sendResult(reply, await spec.handler(input, ctx as never));
    },
  });
}

/** A route's OpenAPI schema: summary, tag, security, the area header, its parts and its enveloped reply. */
function openApiOf(spec: AnyRoute) {
  // Who may call, in words an integrator reads in the reference: the codes, and whether an API key may.
  const notes = [
    ...(Array.isArray(spec.access)
      ? [`Permission codes: ${(spec.access as string[]).join(', ')} (or admin).`]
      : []),
    ...(spec.op?.keys === false ? ['For people only: an API key is refused (403).'] : []),
  ];
  return {
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    ...(spec.area
      ? {
          headers: {
            type: 'object',
            properties: { 'x-area-id': { type: 'integer', minimum: 1 } },
            required: ['x-area-id'],
          },
        }
      : {}),
    ...(spec.query ? { querystring: toJsonSchema(spec.query) } : {}),
    ...(spec.body ? { body: toJsonSchema(spec.body) } : {}),
    ...(spec.params ? { params: toJsonSchema(spec.params) } : {}),
    response: { 200: toJsonSchema(envelopeSchema(spec.response)) },
    ...(notes.length ? { description: notes.join(' ') } : {}),
  };
}

/**
 * The signed-in caller (401 without a live session or a valid API key) holding one of the route's codes (403
 * otherwise). An API key (`ghk_…`) is a principal like a user's, so every check after this one is the same;
 * an operation for people only refuses it first, whatever codes it holds (OperationSpec.keys). Once known, the
 * caller is named on the request's log lines (request-log.ts), a refusal's included.
 */
async function signedIn(
  platform: Platform,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: AnyRoute,
): Promise<Principal> {
  const token = bearerToken(request.headers.authorization);
  const user = !token
    ? undefined
    : isApiKey(token)
      ? await platform.apiKeys.resolve(token, request.ip)
      : ((await platform.sessions.resolve(token)) ?? undefined);
  if (!user) throw new AppError(401, 'error.unauthorized');
  bindActor(request, reply, user);
  if (user.apiKey && spec.op?.keys === false) throw new AppError(403, 'error.apiKeyNotAllowed');
  if (Array.isArray(spec.access) && !hasAnyCode(user, spec.access))
    throw new AppError(403, 'error.forbidden');
  return user;
}

/** A handler's result as the reply: a file as an attachment, else the envelope (with a new token if any). */
function sendResult(reply: FastifyReply, result: unknown) {
  if (result instanceof FileReply) {
    return reply
      .header('Content-Type', result.contentType)
      .header(
        'Content-Disposition',
        `attachment; filename="${encodeURIComponent(result.fileName)}"; filename*=UTF-8''${encodeURIComponent(result.fileName)}`,
      )
      .header('Cache-Control', 'no-store')
      .serializer((payload: unknown) => payload as string)
      .send(result.body);
  }
  if (result instanceof WithToken) {
    return reply.send({ code: 200, msg: '', data: result.data ?? null, token: result.token });
  }
  return reply.send({ code: 200, msg: '', data: result ?? null });
}
