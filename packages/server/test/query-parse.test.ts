import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operation } from '@gatehouse/shared';
import type { Platform } from '../src/platform/platform.ts';
import { registerRoute, route } from '../src/platform/route.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/** A public route whose query schema counts its parses and whose handler reports what it was given. */
async function countingRoute() {
  let parses = 0;
  const seen: { frozen: boolean; mutated: boolean }[] = [];
  const app = Fastify();
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerRoute(
    app,
    {} as Platform,
    route(
      operation({
        method: 'GET',
        path: '/probe',
        summary: 'probe',
        tag: 'test',
        access: 'public',
        query: z.object({
          Name: z.string().transform((v) => {
            parses++;
            return v.toUpperCase();
          }),
          Ids: z.array(z.string()).optional(),
        }),
        reply: z.object({ Name: z.string(), Ids: z.array(z.string()).optional() }),
      }),
      async ({ query }) => {
        let mutated = true;
        try {
          (query as { Name: string }).Name = 'changed';
        } catch {
          mutated = false;
        }
        seen.push({ frozen: Object.isFrozen(query) && Object.isFrozen(query.Ids ?? []), mutated });
        return query;
      },
    ),
  );
  await app.ready();
  const get = async (url: string) => {
    const reply = await app.inject({ method: 'GET', url });
    return { status: reply.statusCode, data: (reply.json() as { data: unknown }).data };
  };
  return { app, get, parses: () => parses, seen };
}

describe('a route keeps the queries it parsed, per query string', () => {
  it('parses a query string once, gives every request the same frozen result, and parses another text anew', async () => {
    const probe = await countingRoute();
    expect(await probe.get('/probe?Name=gate&Ids=1&Ids=2')).toEqual({
      status: 200,
      data: { Name: 'GATE', Ids: ['1', '2'] },
    });
    expect(await probe.get('/probe?Name=gate&Ids=1&Ids=2')).toEqual({
      status: 200,
      data: { Name: 'GATE', Ids: ['1', '2'] },
    });
    expect(probe.parses()).toBe(1);
    // The handler could not change what the next request is given: the kept result is frozen, arrays too.
    expect(probe.seen).toEqual([
      { frozen: true, mutated: false },
      { frozen: true, mutated: false },
    ]);
    // The same values written in another order are another text: parsed on their own, to the same result.
    expect(await probe.get('/probe?Ids=1&Ids=2&Name=gate')).toEqual({
      status: 200,
      data: { Name: 'GATE', Ids: ['1', '2'] },
    });
    expect(await probe.get('/probe?Name=house')).toEqual({ status: 200, data: { Name: 'HOUSE' } });
    expect(probe.parses()).toBe(3);
    await probe.app.close();
  });

  it('does not keep a refused query: it is refused again on every request', async () => {
    const probe = await countingRoute();
    for (let i = 0; i < 3; i++) expect((await probe.get('/probe?Other=1')).status).toBe(400);
    expect(probe.seen).toEqual([]);
    expect(await probe.get('/probe?Name=x')).toEqual({ status: 200, data: { Name: 'X' } });
    await probe.app.close();
  });

  it('keeps a bounded number of texts of bounded length: the oldest is parsed again once 200 others came after it', async () => {
    const probe = await countingRoute();
    for (let i = 0; i <= 200; i++) await probe.get(`/probe?Name=n${i}`);
    expect(probe.parses()).toBe(201);
    await probe.get('/probe?Name=n200');
    expect(probe.parses()).toBe(201);
    await probe.get('/probe?Name=n0');
    expect(probe.parses()).toBe(202);
    // A text over 512 characters is parsed on every request and never kept.
    const long = `/probe?Name=${'x'.repeat(600)}`;
    await probe.get(long);
    await probe.get(long);
    expect(probe.parses()).toBe(204);
    expect(probe.seen.at(-1)).toEqual({ frozen: false, mutated: true });
    await probe.app.close();
  });
});

describeEachDb('kept queries on the real lists', (h) => {
  it('answers the same query text per caller and area, and refuses a bad one in each caller’s language', async () => {
    const { app } = h();
    const admin = await login(app, 'admin', ADMIN_PASSWORD);
    const url = '/api/OperatorStaff?PageIndex=1&PageSize=5';
    const one = await call<{ Items: { Id: number }[] }>(app, 'GET', url, { token: admin, area: 1 });
    const two = await call<{ Items: { Id: number }[] }>(app, 'GET', url, { token: admin, area: 2 });
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    // The text is the same and parsed once; the rows are each area's own.
    const ids = (reply: typeof one) => reply.data.Items.map((i) => i.Id);
    expect(ids(one).some((id) => ids(two).includes(id))).toBe(false);
    expect(ids(await call(app, 'GET', url, { token: admin, area: 1 }))).toEqual(ids(one));
    const bad = '/api/OperatorStaff?PageIndex=1&PageSize=0';
    const en = await call(app, 'GET', bad, { token: admin, area: 1, lang: 'en' });
    const zh = await call(app, 'GET', bad, { token: admin, area: 1, lang: 'zh-CN' });
    expect(en.status).toBe(400);
    expect(zh.status).toBe(400);
    expect(en.data).toMatchObject({ Errors: [{ Field: 'PageSize' }] });
    expect(zh.data).toMatchObject({ Errors: [{ Field: 'PageSize' }] });
    expect(JSON.stringify(en.data)).not.toEqual(JSON.stringify(zh.data));
  });
});
