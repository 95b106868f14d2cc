import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from './principal.ts';

/**
 * The request id and the actor on the log (issue 29, docs/deployment.md "Logs"). Fastify binds `reqId` to the
 * request's logger, so every line written through `request.log` carries it; once the route layer knows the
 * caller (platform/route.ts), the request's logger is replaced by a child naming the actor, so every later line
 * (the error handler's, the failed-request line) names who called as well.
 */

/** The header that names a request: taken from the proxy when well formed, always sent back. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What is accepted from outside: 1–128 letters, digits and `._:-` (the characters of INSTANCE_ID), which a UUID
 * and HAProxy's unique ids fit. Anything else (a repeated header, which Node joins with ", ", an overlong or
 * strange value) is replaced, so a caller cannot flood the log or smuggle text through its request id.
 */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the proxy's id when it sent a well-formed one (so its log and ours can be joined), else
 * a random UUID. Not Fastify's default counter (`req-1`, `req-2`…), which every instance and every restart
 * starts again, so ids would repeat across a cluster's logs.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}

/** Sends the request id back on every reply (errors and 404s too), so a client can quote it. */
export function echoRequestId(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and waits for nothing.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/** How the log names a caller: its kind, id and name; never a token, a key's secret nor a hash of either. */
export type LogActor = { kind: 'user' | 'key'; id: number; name: string };

export function logActor(user: Principal): LogActor {
  // A key's name is its label, the name and the prefix (`billing (ghk_bEXKcs6W…)`), as the operation log shows it.
  return user.apiKey
    ? { kind: 'key', id: user.apiKey.id, name: user.apiKey.name }
    : { kind: 'user', id: user.userId, name: user.userName };
}

/**
 * Names the caller on every line the request writes from here on. Both loggers are replaced: the reply's is a
 * separate reference to the same child, and Fastify writes some lines through it.
 */
export function bindActor(request: FastifyRequest, reply: FastifyReply, user: Principal): void {
  const log = request.log.child({ actor: logActor(user) });
  request.log = log;
  reply.log = log;
}
