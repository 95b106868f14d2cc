import type { Params } from '@gatehouse/shared';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 500;

/**
 * A failure a service reports on purpose: an HTTP status (also the envelope code) and a catalogue key
 * that the HTTP layer translates into the caller's language.
 */
export class AppError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly key: string,
    readonly params?: Params,
    readonly data?: unknown,
  ) {
    super(key);
  }
}

export const unauthorized = () => new AppError(401, 'error.unauthorized');
export const forbidden = () => new AppError(403, 'error.forbidden');
export const notFound = () => new AppError(404, 'error.notFound');
export const conflict = (key = 'error.conflict', params?: Params) => new AppError(409, key, params);

/** A single-field validation failure raised by a service, shaped like a schema failure. */
export function fieldError(field: string, key: string, params?: Params): AppError {
  return new AppError(400, 'error.validation', undefined, {
    Errors: [{ Field: field, Key: key, Params: params }],
  });
}
