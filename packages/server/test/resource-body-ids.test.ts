import { expect, it } from 'vitest';
import { routeTable } from '../src/routes.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * The resource layer parses every request with the contract's schemas (packages/shared/src/contract/wire.ts),
 * where an id in a JSON body is a JSON integer. The platform's former copy of the wire primitives
 * (platform/schemas.ts) read an id as digits wherever it was used, body or query: `{ "Ids": ["123"] }` would
 * have been taken as 123. Every batch delete of a declared resource refuses the text and names the field.
 */

const batchDeletes = routeTable.filter((r) => r.method === 'POST' && r.url.endsWith('/BatchDelete'));

describeEachDb('resource bodies: ids are JSON integers', (h) => {
  it('refuses Ids ["123"] on every batch delete with 400 naming the field, and reads 123 as an id', async () => {
    expect(batchDeletes.length).toBeGreaterThan(10);
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    for (const r of batchDeletes) {
      const area = r.area ? { area: 1 } : {};
      const textual = await call<{ Errors: { Field: string }[] }>(h().app, 'POST', r.url, {
        token,
        ...area,
        body: { Ids: ['123'] },
      });
      expect(textual.status, `${r.url} with Ids ["123"]`).toBe(400);
      expect(
        textual.data.Errors.map((e) => e.Field),
        r.url,
      ).toEqual(['Ids.0']);
      // The same id as a JSON integer is read, and simply not found (nothing is deleted).
      const asNumber = await call(h().app, 'POST', r.url, { token, ...area, body: { Ids: [123_456_789] } });
      expect(asNumber.status, `${r.url} with Ids [123456789]`).toBe(404);
    }
  });
});
