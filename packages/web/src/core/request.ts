import { ERROR_TOAST_SECONDS, NETWORK_ERROR_TOAST_SECONDS, REQUEST_TIMEOUT_MS } from '@gatehouse/shared';

/** The response envelope of every API call (docs/api.md). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  token?: string;
}

/** A rejected call: `code` is the envelope's code, or 0 when the server was not reached or answered garbage. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** No message of any kind (the caller reports failures itself): session loading, logout. */
  silent?: boolean;
  /** No message for an envelope error code (the caller shows its own); 401/402 and network errors still show. */
  quiet?: boolean;
  timeoutMs?: number;
}

/** What the client needs from the app; injected so the rules can be tested without a browser. */
export interface ClientDeps {
  getToken(): string | undefined;
  setToken(token: string): void;
  getAreaId(): number | null;
  getLanguage(): string;
  translate(key: 'request.genericError' | 'request.requestError'): string;
  showError(text: string, seconds: number): void;
  /** Opens the "logout reminder" confirm; resolves when it closes, whichever button was used. */
  confirmLogout(): Promise<void>;
}

const SESSION_CODES = new Set([401, 402]);

function buildUrl(url: string, query: Query | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number'
  );
}

/**
 * The one HTTP client of the app (spec sections 7 and 8): same origin, 60 s timeout, bearer token,
 * current area and language on every call; success only when both the HTTP status and the body code
 * are 200; 401/402 open the logout reminder once however many calls fail together; other codes show the
 * server's message (or a generic one) for 3 s; network and HTTP failures show "Request error" for 5 s.
 */
export function createClient(deps: ClientDeps, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  let reminderOpen = false;

  function remindLogout() {
    if (reminderOpen) return;
    reminderOpen = true;
    void deps.confirmLogout().finally(() => {
      reminderOpen = false;
    });
  }

  async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': deps.getLanguage(),
    };
    const token = deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const areaId = deps.getAreaId();
    if (areaId !== null) headers['X-Area-Id'] = String(areaId);
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    let status: number;
    let payload: unknown;
    try {
      const response = await fetchImpl(buildUrl(url, options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      status = response.status;
      payload = await response.json().catch(() => undefined);
    } catch {
      payload = undefined;
      status = 0;
    } finally {
      clearTimeout(timer);
    }

    if (!isEnvelope(payload)) {
      const text = deps.translate('request.requestError');
      if (!options.silent) deps.showError(text, NETWORK_ERROR_TOAST_SECONDS);
      throw new RequestError(text, 0, null);
    }
    if (payload.token) deps.setToken(payload.token);
    if (status === 200 && payload.code === 200) return payload.data as T;

    const code = payload.code === 200 ? status : payload.code;
    if (SESSION_CODES.has(code)) {
      if (!options.silent) remindLogout();
    } else if (!options.silent && !options.quiet) {
      deps.showError(payload.msg || deps.translate('request.genericError'), ERROR_TOAST_SECONDS);
    }
    throw new RequestError(payload.msg || 'Error', code, payload.data);
  }

  return {
    request,
    get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options),
    post: <T>(url: string, body?: unknown, options?: RequestOptions) =>
      request<T>('POST', url, { ...options, body }),
    put: <T>(url: string, body?: unknown, options?: RequestOptions) =>
      request<T>('PUT', url, { ...options, body }),
    patch: <T>(url: string, body?: unknown, options?: RequestOptions) =>
      request<T>('PATCH', url, { ...options, body }),
    del: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
  };
}

export type Client = ReturnType<typeof createClient>;
