import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, it } from 'vitest';
import { login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

/** Every `$ref` string anywhere in the document. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

/** The document, read as a signed-in caller (API_DOCS defaults to signed-in). */
async function readDocument(h: () => Harness) {
  const token = await login(h().app, 'acuser', DEMO_PASSWORD);
  return h().app.inject({
    method: 'GET',
    url: '/api/docs/json',
    headers: { authorization: `Bearer ${token}` },
  });
}

describeEachDb('OpenAPI document', (h) => {
  // Client generators read /api/docs/json: it must be a valid OpenAPI 3 document, checked by a
  // maintained validator rather than by hand, so an unresolvable reference cannot slip in again.
  it('passes the OpenAPI validator', async () => {
    const response = await readDocument(h);
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { components?: { schemas?: Record<string, unknown> } };

    // The validator dereferences in place: hand it a copy.
    await expect(
      SwaggerParser.validate(structuredClone(doc) as Parameters<typeof SwaggerParser.validate>[0]),
    ).resolves.toBeDefined();

    const schemas = Object.keys(doc.components?.schemas ?? {});
    const dangling = refsIn(doc).filter((ref) => !schemas.includes(ref.replace('#/components/schemas/', '')));
    expect([...new Set(dangling)]).toEqual([]);
  });

  it('names the recursive trees as components that refer to themselves', async () => {
    const doc = (await readDocument(h)).json() as {
      components: { schemas: Record<string, { properties: { Children: { items: unknown } } }> };
    };
    for (const name of ['ResourceNode', 'DepartmentNode', 'DepartmentOption']) {
      expect(doc.components.schemas[name]?.properties.Children.items, name).toEqual({
        $ref: `#/components/schemas/${name}`,
      });
    }
  });
});

describeEachDb('OpenAPI operations', (h) => {
  // The contract moved into packages/shared (issue 18): every operation the document had before must still be
  // there with its method and path; the list is the document's own, taken before the move.
  it('keeps every operation the document had', async () => {
    const doc = (await readDocument(h)).json() as { paths: Record<string, Record<string, unknown>> };
    const now = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const before = fs
      .readFileSync(path.join(import.meta.dirname, 'openapi-operations.txt'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(before.length).toBeGreaterThanOrEqual(206);
    expect(before.filter((op) => !now.has(op))).toEqual([]);
  });
});
