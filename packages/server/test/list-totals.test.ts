import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

type PageOf = { Items: { Id: number; Name: string }[]; Total: number };

describeEachDb('list totals', (h) => {
  it('counts full pages, knows partial pages, and sees every API write at once', async () => {
    const { app, db, clock } = h();
    const token = await login(app, 'groupadmin', DEMO_PASSWORD);
    const total = async () =>
      (await call<PageOf>(app, 'GET', '/api/PeopleGroup', { token, area: 1, query: { PageSize: 5 } })).data
        .Total;
    const rows = async () =>
      (await db.kysely.selectFrom('PeopleGroup').select('Id').where('AreaId', '=', 1).execute()).length;
    for (let i = 0; i < 12; i++)
      await call(app, 'POST', '/api/PeopleGroup', { token, area: 1, body: { Name: `计数分组${i}` } });
    expect(await total()).toBe(await rows());

    // A partial last page gives the total without counting; a page past the end still counts.
    const n = await rows();
    const last = await call<PageOf>(app, 'GET', '/api/PeopleGroup', {
      token,
      area: 1,
      query: { PageSize: 5, PageIndex: Math.ceil(n / 5) },
    });
    expect(last.data.Total).toBe(n);
    const beyond = await call<PageOf>(app, 'GET', '/api/PeopleGroup', {
      token,
      area: 1,
      query: { PageSize: 5, PageIndex: 99 },
    });
    expect(beyond.data).toEqual({ Items: [], Total: n });

    // Any write through the API is seen by the very next list.
    await call(app, 'POST', '/api/PeopleGroup', { token, area: 1, body: { Name: '再来一个' } });
    expect(await total()).toBe(n + 1);
    const created = (
      await call<PageOf>(app, 'GET', '/api/PeopleGroup', { token, area: 1, query: { Name: '再来一个' } })
    ).data.Items[0]!;
    await call(app, 'DELETE', `/api/PeopleGroup/${created.Id}`, { token, area: 1 });
    expect(await total()).toBe(n);

    // A write that bypasses the API (another process) shows within the cache's few seconds.
    await db.kysely
      .insertInto('PeopleGroup')
      .values({
        AreaId: 1,
        Name: '旁路写入',
        Remark: null,
        Sort: 0,
        CreatedAt: clock.now(),
        UpdatedAt: clock.now(),
      })
      .execute();
    clock.advance(5_001);
    expect(await total()).toBe(n + 1);
  });
});
