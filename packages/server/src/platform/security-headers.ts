import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Security headers on every reply (pages, API, downloads, errors), through @fastify/helmet.
 *
 * - CSP: scripts only from this origin; styles also inline, because antd's CSS-in-JS writes <style>
 *   elements and React writes style attributes; images also from https/http and data: (avatars and the
 *   image base URL setting may point elsewhere); connections to this origin only (the hub's WebSocket
 *   is same-origin); no plugins; nobody may frame the app (clickjacking), which X-Frame-Options repeats
 *   for old browsers.
 * - No `upgrade-insecure-requests` and no HSTS: Gatehouse is often reached over plain HTTP on a LAN
 *   address, where either would break every request; the TLS proxy in front of it sets HSTS.
 * - nosniff, a strict referrer policy and same-origin opener/resource policies: helmet's defaults.
 */
const HELMET_OPTIONS = {
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  },
  strictTransportSecurity: false,
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'same-origin' as const },
};

/** Headers of a reply that are the reply's own, not helmet's. */
const NOT_HELMET = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * The headers @fastify/helmet sets with HELMET_OPTIONS, read once from a reply of a throwaway instance. They
 * depend on nothing in the request (no CSP nonces), and helmet registered on the app rebuilt them on every
 * request (its middleware chain, the CSP parsed again, two async hooks: about 4% of a list request's CPU,
 * docs/performance.md "API load"); helmet stays the one that decides what they are.
 */
async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', () => '');
  const reply = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers))
    if (!NOT_HELMET.has(name) && value !== undefined) headers[name] = String(value);
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  // Set when the request arrives, as helmet does, so replies of every kind (errors, 404, files) carry them.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** Query parameters that carry a credential: never written to a log as they are. */
const SECRET_PARAMS = /([?&](?:access_token|token|ticket|password)=)[^&#]*/gi;

/** A request URL fit for the log: credential-bearing query values replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}
