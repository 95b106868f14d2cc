import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  token?: string;
}

export interface CallOptions {
  token?: string | undefined;
  area?: number | string | undefined;
  lang?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The client address the server sees (fastify.inject's remoteAddress); 127.0.0.1 when absent. */
  ip?: string;
}

export interface Reply<T = unknown> extends Envelope<T> {
  status: number;
}

/** One call through fastify.inject, returning HTTP status and envelope; asserts status equals code. */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: CallOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.area !== undefined) headers['x-area-id'] = String(options.area);
  if (options.lang) headers['accept-language'] = options.lang;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    ...(options.query
      ? { query: Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) }
      : {}),
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  const body = response.json() as Envelope<T>;
  expect(body.code, `${method} ${url}: envelope code equals HTTP status`).toBe(response.statusCode);
  return { status: response.statusCode, ...body };
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const reply = await call<{ token: string }>(app, 'POST', '/api/Auth/login', {
    body: { username, password },
  });
  expect(reply.status, reply.msg).toBe(200);
  return reply.data.token;
}
