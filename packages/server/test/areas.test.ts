import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

type Errors = { Errors: { Field: string; Message: string }[] };
interface AreaItem {
  Id: number;
  Name: string;
  Custom: string | null;
  Disabled: boolean;
  UserCount: number;
}

describeEachDb('areas', (h) => {
  it('returns the detail of an own area as { Id, Name, Custom }', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const reply = await call(h().app, 'GET', '/api/AreaInfo/1', { token });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.data as object).sort()).toEqual(['Custom', 'Id', 'Name']);
    expect(reply.data).toMatchObject({ Id: 1, Name: '滨江花园社区' });
    expect(JSON.parse((reply.data as { Custom: string }).Custom)).toHaveProperty('address');
    expect((await call(h().app, 'GET', '/api/AreaInfo/2', { token })).status).toBe(403);
  });

  it('creates, renames, disables, re-enables and deletes an area', async () => {
    const { app } = h();
    const token = await login(app, 'areaadmin', DEMO_PASSWORD);
    const created = await call<{ Id: number }>(app, 'POST', '/api/AreaInfo', {
      token,
      body: { Name: ' 西湖产业园 ', Custom: '{"address":"杭州"}' },
    });
    expect(created.status).toBe(200);
    const id = created.data.Id;
    expect(created.data).toEqual({ Id: id, Name: '西湖产业园', Custom: '{"address":"杭州"}' });

    // The creator (not admin) is linked to the new area, so it appears in their info at once.
    const info = await call<{ AreaInfos: { Id: number }[] }>(app, 'GET', '/api/AppUser/Info', { token });
    expect(info.data.AreaInfos.map((a) => a.Id)).toContain(id);

    const dup = await call(app, 'POST', '/api/AreaInfo', { token, body: { Name: '西湖产业园' } });
    expect(dup.status).toBe(409);

    const renamed = await call(app, 'POST', '/api/AreaInfo/UpdateAreaInfo', {
      token,
      body: { Id: id, Name: '西湖科创园' },
    });
    expect(renamed.data).toMatchObject({ Id: id, Name: '西湖科创园', Custom: '{"address":"杭州"}' });

    expect(
      (await call(app, 'POST', '/api/AreaInfo/DisableAreaInfo', { token, query: { Id: id } })).status,
    ).toBe(200);
    const afterDisable = await call<{ AreaInfos: { Id: number }[] }>(app, 'GET', '/api/AppUser/Info', {
      token,
    });
    expect(afterDisable.data.AreaInfos.map((a) => a.Id)).not.toContain(id);
    expect((await call(app, 'GET', `/api/AreaInfo/${id}`, { token })).status).toBe(403);
    const listed = await call<{ Items: AreaItem[] }>(app, 'GET', '/api/AreaInfo', {
      token,
      query: { Disabled: true },
    });
    expect(listed.data.Items.map((a) => a.Id)).toEqual([id]);

    await call(app, 'POST', '/api/AreaInfo/DisableAreaInfo', { token, query: { Id: id, Disabled: false } });
    expect((await call(app, 'GET', `/api/AreaInfo/${id}`, { token })).status).toBe(200);

    expect((await call(app, 'DELETE', '/api/AreaInfo', { token, query: { Id: id } })).status).toBe(200);
    expect(
      await h().db.kysely.selectFrom('AreaInfo').select('Id').where('Id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await h().db.kysely.selectFrom('UserArea').select('UserId').where('AreaId', '=', id).execute(),
    ).toEqual([]);
  });

  it('rejects invalid area input with per-field messages and writes nothing', async () => {
    const { app } = h();
    const token = await login(app, 'admin', ADMIN_PASSWORD);
    const count = async () => (await h().db.kysely.selectFrom('AreaInfo').select('Id').execute()).length;
    const before = await count();
    const bad = await call<Errors>(app, 'POST', '/api/AreaInfo', {
      token,
      body: { Name: '', Custom: '{not json', Extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(Object.fromEntries(bad.data.Errors.map((e) => [e.Field, e.Message]))).toEqual({
      Name: '不能为空',
      Custom: expect.stringContaining('JSON'),
      Extra: expect.any(String),
    });
    const en = await call<Errors>(app, 'POST', '/api/AreaInfo', {
      token,
      body: { Name: 'x'.repeat(51) },
      lang: 'en',
    });
    expect(en.data.Errors[0]).toMatchObject({ Field: 'Name', Message: expect.stringMatching(/50/) });
    const array = await call<Errors>(app, 'POST', '/api/AreaInfo/SetCustom', {
      token,
      query: { Id: 1, Custom: '[1,2]' },
    });
    expect(array.status).toBe(400);
    expect(array.data.Errors[0]!.Field).toBe('Custom');
    const badIds = await call<Errors>(app, 'POST', '/api/AreaInfo/SetAuth', {
      token,
      query: { Id: 1, UserIds: '1,a' },
    });
    expect(badIds.status).toBe(400);
    expect(badIds.data.Errors[0]!.Field).toBe('UserIds');
    expect(await count()).toBe(before);
    const area1 = await h()
      .db.kysely.selectFrom('AreaInfo')
      .select('Custom')
      .where('Id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(area1.Custom).toContain('address');
  });

  it('sets the authorised users and the custom data of an area', async () => {
    const { app } = h();
    const token = await login(app, 'admin', ADMIN_PASSWORD);
    const deptuser = await h()
      .db.kysely.selectFrom('AppUser')
      .select('Id')
      .where('UserName', '=', 'deptuser')
      .executeTakeFirstOrThrow();
    const created = await call<{ Id: number }>(app, 'POST', '/api/AreaInfo', {
      token,
      body: { Name: '临时区域' },
    });
    const id = created.data.Id;
    expect(
      (
        await call(app, 'POST', '/api/AreaInfo/SetAuth', {
          token,
          query: { Id: id, UserIds: `${deptuser.Id}` },
        })
      ).status,
    ).toBe(200);
    const deptToken = await login(app, 'deptuser', DEMO_PASSWORD);
    const info = await call<{ AreaInfos: { Id: number }[] }>(app, 'GET', '/api/AppUser/Info', {
      token: deptToken,
    });
    expect(info.data.AreaInfos.map((a) => a.Id)).toEqual([1, 2, id]);

    expect(
      (await call(app, 'POST', '/api/AreaInfo/SetCustom', { token, query: { Id: id, Custom: '{"gate":3}' } }))
        .status,
    ).toBe(200);
    expect((await call(app, 'GET', `/api/AreaInfo/${id}`, { token: deptToken })).data).toEqual({
      Id: id,
      Name: '临时区域',
      Custom: '{"gate":3}',
    });

    await call(app, 'POST', '/api/AreaInfo/SetAuth', { token, query: { Id: id, UserIds: '' } });
    expect((await call(app, 'GET', `/api/AreaInfo/${id}`, { token: deptToken })).status).toBe(403);
    const missingUser = await call(app, 'POST', '/api/AreaInfo/SetAuth', {
      token,
      query: { Id: id, UserIds: '99999' },
    });
    expect(missingUser.status).toBe(404);
  });

  it('lists areas with paging for admins (all) and user counts', async () => {
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const page = await call<{ Items: AreaItem[]; Total: number }>(h().app, 'GET', '/api/AreaInfo', {
      token,
      query: { PageIndex: 1, PageSize: 1 },
    });
    expect(page.data.Items).toHaveLength(1);
    expect(page.data.Total).toBeGreaterThanOrEqual(2);
    expect(page.data.Items[0]).toMatchObject({ Id: 1, Disabled: false });
    expect(page.data.Items[0]!.UserCount).toBeGreaterThan(10);
    const tooBig = await call(h().app, 'GET', '/api/AreaInfo', { token, query: { PageSize: 101 } });
    expect(tooBig.status).toBe(400);
  });

  it('gives the hub address of an own area', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const reply = await call<string>(h().app, 'GET', '/api/AreaInfo/GetHubUrl', { token, query: { Id: 1 } });
    expect(reply.data).toMatch(/^\/api\/hub\?AreaId=1&ticket=[\w-]+$/);
  });
});
