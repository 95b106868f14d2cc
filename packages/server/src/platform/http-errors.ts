import { translate, type Params } from '@gatehouse/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';
import { requestLang } from './route.ts';

interface RawFieldError {
  Field: string;
  Message?: string;
  Key?: string;
  Params?: Params;
}

/** Unique and foreign-key violations of SQLite (better-sqlite3 codes) and PostgreSQL (SQLSTATE). */
function constraintKey(error: unknown): string | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23505') return 'error.duplicate';
  if (code === '23503') return 'error.referenced';
  // SQLite reports a RESTRICT foreign key as SQLITE_CONSTRAINT_TRIGGER: the message tells the kind.
  if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT') && typeof message === 'string') {
    if (message.includes('FOREIGN KEY')) return 'error.referenced';
    if (message.includes('UNIQUE')) return 'error.duplicate';
  }
  return undefined;
}

/**
 * Every failure leaves as the envelope with HTTP status = body code and a message in the caller's
 * language. Unexpected errors are logged with their stack and answered with a generic 500.
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof AppError) {
      let data = error.data ?? null;
      const errors = (data as { Errors?: RawFieldError[] } | null)?.Errors;
      if (errors) {
        data = {
          Errors: errors.map((e) => ({
            Field: e.Field,
            Message: e.Message ?? translate(lang, e.Key ?? 'validation.invalid', e.Params),
          })),
        };
      }
      // A service's own field error (fieldError: a catalogue key, "the current password is wrong") is a
      // sentence in the operator's words: the message is that sentence, without the API's field name.
      const spoken = errors?.length && errors.every((e) => e.Key && !e.Message);
      const msg = spoken
        ? (data as { Errors: { Message: string }[] }).Errors.map((e) => e.Message).join('; ')
        : errors?.length && error.key === 'error.validation'
          ? `${translate(lang, error.key)}: ${(data as { Errors: { Field: string; Message: string }[] }).Errors.map((e) => `${e.Field} ${e.Message}`).join('; ')}`
          : translate(lang, error.key, error.params);
      return reply.status(error.status).send({ code: error.status, msg, data });
    }
    const constraint = constraintKey(error);
    if (constraint) {
      // A race past the service's own checks: the database's constraint is the last word.
      request.log.info({ err: error }, 'constraint violation');
      return reply.status(409).send({ code: 409, msg: translate(lang, constraint), data: null });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 413) {
      // Larger than the route's body limit (a login takes a few KB): refused before it is parsed.
      request.log.info({ err: error }, 'body too large');
      return reply.status(413).send({ code: 413, msg: translate(lang, 'error.payloadTooLarge'), data: null });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, oversized body: the client's fault, told plainly.
      request.log.info({ err: error }, 'bad request');
      return reply.status(400).send({ code: 400, msg: translate(lang, 'error.badRequest'), data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 500, msg: translate(lang, 'error.internal'), data: null });
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = requestLang(request);
    return reply.status(404).send({ code: 404, msg: translate(lang, 'error.routeNotFound'), data: null });
  });
}
