import { expect, it } from 'vitest';
import { login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

/** The headers every reply carries: pages, JSON, errors and file downloads alike. */
function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("connect-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toContain('upgrade-insecure-requests');
  expect(csp, what).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('same-origin');
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

describeEachDb('security headers', (h) => {
  it('sends CSP, frame, sniffing and referrer headers on JSON, errors, docs and downloads', async () => {
    const { app } = h();
    for (const [method, url] of [
      ['GET', '/healthz'],
      ['GET', '/api/Settings/Public'],
      ['GET', '/api/NoSuchThing'],
      ['POST', '/api/Auth/login'],
    ] as const) {
      const reply = await app.inject({ method, url });
      expectSecurityHeaders(reply.headers, `${method} ${url}`);
    }
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    const download = await app.inject({
      method: 'GET',
      url: '/api/CardUser/ImportTemplate',
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expectSecurityHeaders(download.headers, 'download');
  });
});
