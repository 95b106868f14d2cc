import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

interface Info {
  Id: number;
  Name: string;
  Avatar: string | null;
  ImageBaseUrl: string;
  roles: string[];
  AreaInfos: { Id: number; Name: string; Custom: string | null }[];
}
type Errors = { Errors: { Field: string; Message: string }[] };

describeEachDb('users', (h) => {
  it('returns info with codes as roles and the areas the user operates', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const info = await call<Info>(h().app, 'GET', '/api/AppUser/Info', { token });
    expect(info.data).toMatchObject({
      Name: '王丽娟',
      Avatar: null,
      ImageBaseUrl: '',
      roles: ['AccessControl/User'],
    });
    expect(info.data.AreaInfos).toEqual([{ Id: 1, Name: '滨江花园社区', Custom: expect.any(String) }]);
    const admin = await call<Info>(h().app, 'GET', '/api/AppUser/Info', {
      token: await login(h().app, 'admin', ADMIN_PASSWORD),
    });
    expect(admin.data.roles).toContain('admin');
    expect(admin.data.AreaInfos.map((a) => a.Id)).toEqual([1, 2]);
    const none = await call<Info>(h().app, 'GET', '/api/AppUser/Info', {
      token: await login(h().app, 'noarea', DEMO_PASSWORD),
    });
    expect(none.data.AreaInfos).toEqual([]);
  });

  it('updates own info only, validating each field', async () => {
    const { app } = h();
    const token = await login(app, 'bikeuser', DEMO_PASSWORD);
    const me = (await call<Info>(app, 'GET', '/api/AppUser/Info', { token })).data;
    const ok = await call(app, 'PATCH', `/api/AppUser/UserUpdateInfo/${me.Id}`, {
      token,
      body: { Name: '陈静怡', Avatar: '/avatars/1.png', Phone: '13912345678' },
    });
    expect(ok.status).toBe(200);
    expect((await call<Info>(app, 'GET', '/api/AppUser/Info', { token })).data).toMatchObject({
      Name: '陈静怡',
      Avatar: '/avatars/1.png',
    });

    const bad = await call<Errors>(app, 'PATCH', `/api/AppUser/UserUpdateInfo/${me.Id}`, {
      token,
      body: { Name: '', Phone: '12345' },
    });
    expect(bad.status).toBe(400);
    expect(Object.fromEntries(bad.data.Errors.map((e) => [e.Field, e.Message]))).toEqual({
      Name: '不能为空',
      Phone: expect.stringContaining('手机号'),
    });
    expect((await call<Info>(app, 'GET', '/api/AppUser/Info', { token })).data.Name).toBe('陈静怡');

    const other = await call(app, 'PATCH', `/api/AppUser/UserUpdateInfo/${me.Id - 1}`, {
      token,
      body: { Name: 'x' },
    });
    expect(other.status).toBe(403);
  });

  it('changes the own password with the old one, ending the other sessions', async () => {
    const { app } = h();
    const token = await login(app, 'resource', DEMO_PASSWORD);
    const otherSession = await login(app, 'resource', DEMO_PASSWORD);
    const me = (await call<Info>(app, 'GET', '/api/AppUser/Info', { token })).data;
    const wrongOld = await call<Errors>(app, 'PATCH', `/api/AppUser/ModifyPassword/${me.Id}`, {
      token,
      body: { OldPassword: 'not-it', NewPassword: 'NewSecret#1' },
    });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.data.Errors).toEqual([{ Field: 'OldPassword', Message: '原密码错误' }]);
    const short = await call<Errors>(app, 'PATCH', `/api/AppUser/ModifyPassword/${me.Id}`, {
      token,
      body: { OldPassword: DEMO_PASSWORD, NewPassword: 'short' },
    });
    expect(short.data.Errors[0]!.Field).toBe('NewPassword');

    const changed = await call(app, 'PATCH', `/api/AppUser/ModifyPassword/${me.Id}`, {
      token,
      body: { OldPassword: DEMO_PASSWORD, NewPassword: 'NewSecret#1' },
    });
    expect(changed.status).toBe(200);
    expect((await call(app, 'GET', '/api/AppUser/Info', { token })).status).toBe(200);
    expect((await call(app, 'GET', '/api/AppUser/Info', { token: otherSession })).status).toBe(401);
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: 'resource', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(400);
    await login(app, 'resource', 'NewSecret#1');

    const foreign = await call(app, 'PATCH', `/api/AppUser/ModifyPassword/1`, {
      token,
      body: { NewPassword: 'Whatever#123' },
    });
    expect(foreign.status).toBe(403);
    const admin = await login(app, 'admin', ADMIN_PASSWORD);
    const reset = await call(app, 'PATCH', `/api/AppUser/ModifyPassword/${me.Id}`, {
      token: admin,
      body: { NewPassword: DEMO_PASSWORD },
    });
    expect(reset.status).toBe(200);
    await login(app, 'resource', DEMO_PASSWORD);
  });

  it('lists the users of the current area with paging and a keyword', async () => {
    const { app } = h();
    const token = await login(app, 'useradmin', DEMO_PASSWORD);
    const area1 = await call<{ Items: { UserName: string }[]; Total: number }>(app, 'GET', '/api/AppUser', {
      token,
      area: 1,
      query: { PageSize: 5 },
    });
    expect(area1.data.Items).toHaveLength(5);
    const area2 = await call<{ Items: { UserName: string }[]; Total: number }>(app, 'GET', '/api/AppUser', {
      token,
      area: 2,
      query: { PageSize: 100 },
    });
    const linked = async (areaId: number) =>
      (await h().db.kysely.selectFrom('UserArea').select('UserId').where('AreaId', '=', areaId).execute())
        .length;
    expect(area1.data.Total).toBe(await linked(1));
    expect(area2.data.Total).toBe(await linked(2));
    expect(area1.data.Total).not.toBe(area2.data.Total);
    expect(area2.data.Items.map((u) => u.UserName)).not.toContain('acuser');
    const found = await call<{ Items: { UserName: string }[]; Total: number }>(app, 'GET', '/api/AppUser', {
      token,
      area: 2,
      query: { Keyword: '周明' },
    });
    expect(found.data.Items.map((u) => u.UserName)).toEqual(['superadmin']);
    const page2 = await call<{ Items: { UserName: string }[] }>(app, 'GET', '/api/AppUser', {
      token,
      area: 1,
      query: { PageSize: 5, PageIndex: 2 },
    });
    expect(page2.data.Items[0]!.UserName).not.toBe(area1.data.Items[0]!.UserName);
    const bad = await call<Errors>(app, 'GET', '/api/AppUser', { token, area: 1, query: { PageIndex: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.data.Errors[0]!.Field).toBe('PageIndex');
  });

  it('lists permitted resources: own codes for a user, everything for admin', async () => {
    const token = await login(h().app, 'exporter', DEMO_PASSWORD);
    const mine = await call<{ Code: string }[]>(h().app, 'GET', '/api/Auth/Resource', { token });
    expect(mine.data.map((r) => r.Code)).toEqual(['Export']);
    const all = await call<{ Code: string }[]>(h().app, 'GET', '/api/Auth/Resource', {
      token: await login(h().app, 'admin', ADMIN_PASSWORD),
    });
    expect(all.data.length).toBeGreaterThanOrEqual(19);
  });
});
