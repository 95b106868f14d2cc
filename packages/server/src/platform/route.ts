import { matchLanguage, DEFAULT_LANG, type Lang } from '@gatehouse/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertAreaAccess, parseAreaHeader } from './area-guard.ts';
import { bearerToken } from './auth/tokens.ts';
import type { ServiceContext } from './context.ts';
import { AppError } from './errors.ts';
import { hasAnyCode, type Principal } from './principal.ts';
import type { Platform } from './platform.ts';
import { fieldErrors } from './validation.ts';

export type Access = 'public' | 'authenticated' | readonly string[];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
  /** Scheme and host the client used, for absolute addresses (hub URL). */
  origin: string;
}

export interface PublicContext extends Omit<ServiceContext, 'user'> {
  user: Principal | undefined;
  platform: Platform;
  meta: RequestMeta;
}

export interface AuthedContext extends ServiceContext {
  platform: Platform;
  meta: RequestMeta;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<
  A extends Access = Access,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: Method;
  url: string;
  summary: string;
  tag: string;
  /** Who may call: nobody logged in, anybody logged in, or holders of any one of these codes. */
  access: A;
  /** Area-scoped: the X-Area-Id header must name one of the caller's areas; handlers get a trusted areaId. */
  area?: boolean;
  query?: Q;
  body?: B;
  params?: P;
  response?: z.ZodType;
  handler(
    input: { query: Infer<Q>; body: Infer<B>; params: Infer<P> },
    ctx: A extends 'public' ? PublicContext : AuthedContext,
  ): Promise<unknown>;
}

/** A declared route of any input shape: what registries and the route table hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous routes in one list
export type AnyRoute = RouteSpec<any, any, any, any>;

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

export function defineRoute<
  A extends Access,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<A, Q, B, P>): RouteSpec<A, Q, B, P> {
  return spec;
}

export function requestLang(request: FastifyRequest): Lang {
  return matchLanguage(request.headers['accept-language'], DEFAULT_LANG);
}

function toJsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' });
}

function parsePart(schema: z.ZodType | undefined, input: unknown, lang: Lang, part: string) {
  if (!schema) return undefined;
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    throw new AppError(400, 'error.validation', undefined, {
      Errors: fieldErrors(result.error, input, lang, part === 'body' ? '' : ''),
    });
  }
  return result.data;
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
  platform.routes.push(spec);
  const isPublic = spec.access === 'public';
  app.route({
    method: spec.method,
    url: spec.url,
    schema: {
      summary: spec.summary,
      tags: [spec.tag],
      ...(isPublic ? {} : { security: [{ bearer: [] }] }),
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
      ...(Array.isArray(spec.access)
        ? { description: `Permission codes: ${(spec.access as string[]).join(', ')} (or admin).` }
        : {}),
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const lang = requestLang(request);
      let user: Principal | undefined;
      if (!isPublic) {
        const token = bearerToken(request.headers.authorization);
        user = token ? ((await platform.sessions.resolve(token)) ?? undefined) : undefined;
        if (!user) throw new AppError(401, 'error.unauthorized');
        if (Array.isArray(spec.access) && !hasAnyCode(user, spec.access))
          throw new AppError(403, 'error.forbidden');
      }
      const areaId = spec.area
        ? assertAreaAccess(user!, parseAreaHeader(request.headers['x-area-id']))
        : undefined;
      const input = {
        params: parsePart(spec.params, request.params, lang, 'params'),
        query: parsePart(spec.query, request.query, lang, 'query'),
        body: parsePart(spec.body, request.body, lang, 'body'),
      };
      const ctx = {
        db: platform.db,
        clock: platform.clock,
        lang,
        user,
        areaId,
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
      const result = await spec.handler(input, ctx as never);
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
    },
  });
}
