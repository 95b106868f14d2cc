import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyRoute } from '../src/platform/route.ts';
import { login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

/**
 * Bad-input fuzz generated from the routes' zod schemas: every write operation (a method other than GET
 * that takes a body or a query) gets FUZZ_RUNS (default 100) inputs built from its declared fields and
 * the probe's favourite malformations. Whatever the schemas refuse must be a 4xx with a message and
 * change nothing (the audit log, which every write appends to, keeps its length); nothing may be a 5xx.
 * `FUZZ_RUNS=5000 npx vitest run --project server test/attack-fuzz.test.ts` is the bench run.
 */
// 100 per operation in the suite (a fixed seed: the same inputs every run), for a suite under 25 minutes: 200 took
// 110 s of a loaded run on PostgreSQL. The bench run above goes far wider; run it when a schema changes.
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 100));
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
};

/** Values the probe found servers mishandle: numbers in disguise, empties, huge, dates that are not. */
const NASTY: unknown[] = [
  '0x10',
  '1e3',
  '01',
  ' 1 ',
  true,
  false,
  [5],
  [],
  {},
  null,
  '',
  ' ',
  -1,
  0,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  'NaN',
  'x'.repeat(5000),
  '2026-02-30',
  '2026-02-30T00:00:00Z',
  '11/01/2026',
  '2026-11-01 08:00',
  '2026-11-01T08:00:00',
  '+275760-09-13T00:00:00.000Z',
  8.64e15 + 1,
  -8.64e15 - 1,
  "' or 1=1 --",
  '__proto__',
  { __proto__: { polluted: 1 } },
  '<script>alert(1)</script>',
  '\u0000',
];

/** Text forms of the same, as a query string carries them. */
const NASTY_TEXT = NASTY.filter(
  (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
).map(String);

function types(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  if (schema.anyOf) return schema.anyOf.flatMap(types);
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** A value of roughly the declared type (so that one bad field among good ones is also tried), or a nasty one. */
function valueOf(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const plausible: fc.Arbitrary<unknown>[] = [];
  for (const type of types(schema)) {
    if (type === 'integer') plausible.push(fc.integer({ min: 1, max: 6 }));
    if (type === 'number') plausible.push(fc.double({ noNaN: true, min: -10, max: 1e6 }));
    if (type === 'string') plausible.push(fc.string({ maxLength: 12 }));
    if (type === 'boolean') plausible.push(fc.boolean());
    if (type === 'array')
      plausible.push(fc.array(valueOf(schema!.items ?? schema!.anyOf?.[0]?.items), { maxLength: 3 }));
  }
  if (schema?.enum) plausible.push(fc.constantFrom(...schema.enum));
  return fc.oneof(fc.constantFrom(...NASTY), ...plausible);
}

/** Objects over the declared fields: some missing, some wrong, sometimes an unknown key; or no object at all. */
function objectOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const fields = Object.entries(schema.properties ?? {});
  const record = fc.record(Object.fromEntries(fields.map(([name, field]) => [name, valueOf(field)])), {
    requiredKeys: [],
  });
  return fc.oneof(
    { weight: 8, arbitrary: record },
    { weight: 1, arbitrary: record.map((r) => ({ ...(r as object), Unknown: 1 })) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], 'text', 5, [{}]) },
  );
}

/** Query strings: every declared parameter as text, nasty or plausible. */
function queryOf(schema: JsonSchema): fc.Arbitrary<Record<string, string>> {
  const fields = Object.entries(schema.properties ?? {});
  return fc.record(
    Object.fromEntries(
      fields.map(([name, field]) => [
        name,
        fc.oneof(
          fc.constantFrom(...NASTY_TEXT),
          valueOf(field).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
        ),
      ]),
    ),
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, string>>;
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

interface Input {
  query?: Record<string, string>;
  body?: unknown;
  area: string;
}

/** What the route's own schemas say of an input (params are a fixed, valid Id). */
function refusedBySchema(route: AnyRoute, input: Input): boolean {
  if (route.query && !(route.query as z.ZodType).safeParse(input.query ?? {}).success) return true;
  if (route.body && !(route.body as z.ZodType).safeParse(input.body ?? {}).success) return true;
  return route.area === true && input.area !== '1';
}

async function auditLength(h: Harness): Promise<number> {
  const row = await h.db.kysely
    .selectFrom('AuditLog')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function send(app: FastifyInstance, route: AnyRoute, token: string, input: Input) {
  const response = await app.inject({
    method: route.method,
    url: route.url.replace(':Id', '1'),
    // A stranger's address for the public login, so its attempts throttle nobody else.
    remoteAddress: route.access === 'public' ? '10.20.30.40' : '127.0.0.1',
    headers: {
      authorization: `Bearer ${token}`,
      'x-area-id': input.area,
      ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(input.query ? { query: input.query } : {}),
    ...(input.body !== undefined ? { payload: JSON.stringify(input.body) } : {}),
  });
  let msg: string;
  try {
    msg = String((response.json() as { msg?: unknown }).msg ?? '');
  } catch {
    msg = ''; // not JSON: a download, or a bare error page
  }
  return { status: response.statusCode, msg };
}

describeEachDb('bad-input fuzz from the zod schemas', (h) => {
  it(`answers ${RUNS} malformed inputs per write operation with a 4xx and no change, never a 5xx`, async () => {
    const app = h().app;
    let token = await login(app, 'admin', ADMIN_PASSWORD);
    const routes = h().routes.filter((r) => r.method !== 'GET' && (r.body || r.query));
    expect(routes.length).toBeGreaterThan(30);
    const totals = { operations: routes.length, inputs: 0, refused: 0, accepted: 0, fewest: Infinity };
    const failures: string[] = [];

    for (const [index, route] of routes.entries()) {
      const input: fc.Arbitrary<Input> = fc.record({
        ...(route.query ? { query: queryOf(jsonSchema(route.query as z.ZodType)) } : {}),
        ...(route.body ? { body: objectOf(jsonSchema(route.body as z.ZodType)) } : {}),
        // Mostly the right area; sometimes the spellings the guard must refuse.
        area: fc.constantFrom('1', '1', '1', '1', ' 1 ', '01', '1e0'),
      }) as fc.Arbitrary<Input>;
      // At least RUNS inputs the schemas refuse (plus the accepted ones met on the way), within a bound.
      let refusedHere = 0;
      for (let round = 0; refusedHere < RUNS && round < 5; round++) {
        for (const sample of fc.sample(input, { numRuns: RUNS, seed: SEED + index * 10 + round })) {
          const refused = refusedBySchema(route, sample);
          const before = refused ? await auditLength(h()) : 0;
          let reply = await send(app, route, token, sample);
          if (reply.status === 401 && route.access !== 'public') {
            // An accepted input may end the admin's session (logout-like effects): sign in again, retry.
            token = await login(app, 'admin', ADMIN_PASSWORD);
            reply = await send(app, route, token, sample);
          }
          totals.inputs++;
          const where = `${route.method} ${route.url} ${JSON.stringify(sample).slice(0, 300)}`;
          if (reply.status >= 500) failures.push(`${reply.status} ${reply.msg}: ${where}`);
          if (refused) {
            totals.refused++;
            refusedHere++;
            if (reply.status < 400 || reply.status >= 500 || !reply.msg)
              failures.push(`refused by the schema but ${reply.status} "${reply.msg}": ${where}`);
            else if ((await auditLength(h())) !== before) failures.push(`refused but changed data: ${where}`);
          } else if (reply.status < 400) totals.accepted++;
          if (failures.length > 20) break;
          if (refusedHere >= RUNS) break;
        }
      }
      totals.fewest = Math.min(totals.fewest, refusedHere);
      if (failures.length > 20) break;
    }
    console.log(
      `[${h().dialect}] bad-input fuzz: ${totals.operations} write operations, ${totals.inputs} inputs, ` +
        `${totals.refused} refused by the schemas (at least ${totals.fewest} per operation), ${totals.accepted} accepted`,
    );
    expect(failures).toEqual([]);
    expect(totals.fewest).toBeGreaterThanOrEqual(RUNS);
  }, 300_000);
});
