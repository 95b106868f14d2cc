import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
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
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });
}

/** Query parameters that carry a credential: never written to a log as they are. */
const SECRET_PARAMS = /([?&](?:access_token|token|ticket|password)=)[^&#]*/gi;

/** A request URL fit for the log: credential-bearing query values replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}
