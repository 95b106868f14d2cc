import { pathOf, type InputOf, type OperationSpec, type ReplyOf } from '@gatehouse/shared';
import { http } from './http.ts';
import { downloadFile, fetchFile } from './download.ts';
import type { Query, RequestOptions } from './request.ts';

/** How a call reports its failures (see RequestOptions); the rest comes from the operation. */
export type CallOptions = Pick<RequestOptions, 'silent' | 'quiet' | 'timeoutMs'>;

type Args<S extends OperationSpec> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "nothing required"
  {} extends InputOf<S>
    ? [input?: InputOf<S>, options?: CallOptions]
    : [input: InputOf<S>, options?: CallOptions];

/**
 * The web app's only way to the API: an operation of the contract (packages/shared/src/contract) and its
 * typed input; the URL, the method and the reply's type come from the operation, so no page names a URL or
 * picks a reply type by hand.
 */
export function call<S extends OperationSpec>(op: S, ...[input, options]: Args<S>): Promise<ReplyOf<S>> {
  const parts = (input ?? {}) as { params?: Record<string, unknown>; query?: unknown; body?: unknown };
  return http.request<ReplyOf<S>>(op.method, pathOf(op, parts.params), {
    ...options,
    ...(parts.query !== undefined ? { query: parts.query as Query } : {}),
    ...(parts.body !== undefined ? { body: parts.body } : {}),
  });
}

/** Downloads an operation's file reply (an .xlsx) with the session's headers, named as the server says. */
export function download<S extends OperationSpec & { file: true }>(
  op: S,
  input: InputOf<S>,
  fallbackName: string,
): Promise<void> {
  const parts = input as { params?: Record<string, unknown> };
  return downloadFile(pathOf(op, parts.params), fallbackName);
}

/**
 * An operation's file reply as a Blob (an image to show or print: a visitor pass's QR code), with the session's
 * headers and the operation's query.
 */
export async function fileBlob<S extends OperationSpec & { file: true }>(
  op: S,
  input: InputOf<S>,
): Promise<Blob> {
  const parts = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  const query = new URLSearchParams(
    Object.entries(parts.query ?? {}).map(([key, value]) => [key, String(value)]),
  ).toString();
  const url = pathOf(op, parts.params) + (query ? `?${query}` : '');
  return (await fetchFile(url)).blob();
}
