import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

type PageOf<T> = { Items: T[]; Total: number };
type Errors = { Errors: { Field: string; Message: string }[] };
interface Role {
  Id: number;
  Code: string;
  Name: string;
  BuiltIn: boolean;
  UserCount: number;
  ResourceIds: number[];
}
interface User {
  Id: number;
  UserName: string;
  Name: string;
  DepartmentId: number | null;
  DepartmentName: string | null;
  Disabled: boolean;
  Roles: { Id: number; Code: string }[];
  Areas: { Id: number; Name: string }[];
}
interface DepartmentNode {
  Id: number;
  Name: string;
  MemberCount: number;
  TotalMemberCount: number;
  Children: DepartmentNode[];
}

const resourceId = async (h: Harness, code: string) =>
  (await h.db.kysely.selectFrom('Resource').select('Id').where('Code', '=', code).executeTakeFirstOrThrow())
    .Id;
const roleId = async (h: Harness, code: string) =>
  (await h.db.kysely.selectFrom('Role').select('Id').where('Code', '=', code).executeTakeFirstOrThrow()).Id;
const userId = async (h: Harness, name: string) =>
  (
    await h.db.kysely
      .selectFrom('AppUser')
      .select('Id')
      .where('UserName', '=', name)
      .executeTakeFirstOrThrow()
  ).Id;

describeEachDb('roles and resources', (h) => {
  it('creates a role with resources, whose holders gain the codes at once', async () => {
    const token = await login(h().app, 'roleadmin', DEMO_PASSWORD);
    const exportId = await resourceId(h(), 'Export');
    const created = await call<Role>(h().app, 'POST', '/api/Role', {
      token,
      body: { Code: 'Export/Clerk', Name: '导出专员', ResourceIds: [exportId] },
    });
    expect(created.status, created.msg).toBe(200);
    expect(created.data).toMatchObject({
      Code: 'Export/Clerk',
      BuiltIn: false,
      UserCount: 0,
      ResourceIds: [exportId],
    });

    const holder = await makeUser(h(), 'clerk', [], [1]);
    await h()
      .db.kysely.insertInto('UserRole')
      .values({ UserId: await userId(h(), 'clerk'), RoleId: created.data.Id })
      .execute();
    h().platform.sessions.invalidate();
    expect(
      (await call<{ roles: string[] }>(h().app, 'GET', '/api/AppUser/Info', { token: holder })).data.roles,
    ).toContain('Export');

    const groupAdmin = await resourceId(h(), 'PeopleGroup/Admin');
    expect(
      (
        await call(h().app, 'PUT', '/api/Role/SetResources', {
          token,
          body: { Id: created.data.Id, ResourceIds: [groupAdmin] },
        })
      ).status,
    ).toBe(200);
    const roles = (await call<{ roles: string[] }>(h().app, 'GET', '/api/AppUser/Info', { token: holder }))
      .data.roles;
    expect(roles).toContain('PeopleGroup/Admin');
    expect(roles).not.toContain('Export');

    // In use: refused with a message naming the users, and nothing changes.
    const refused = await call(h().app, 'DELETE', `/api/Role/${created.data.Id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe('仍有关联数据，无法删除：系统用户 1');
    expect(
      await h()
        .db.kysely.selectFrom('Role')
        .select('Id')
        .where('Id', '=', created.data.Id)
        .executeTakeFirst(),
    ).toBeDefined();
    const audit = await h()
      .db.kysely.selectFrom('AuditLog')
      .select('Action')
      .where('Entity', '=', 'Role')
      .where('EntityId', '=', String(created.data.Id))
      .execute();
    expect(audit.map((a) => a.Action).sort()).toEqual(['create', 'setResources']);
  });

  it('protects the built-in admin role and the SuperAdmin code', async () => {
    const token = await login(h().app, 'roleadmin', DEMO_PASSWORD);
    const adminRole = await roleId(h(), 'admin');
    expect(
      (await call(h().app, 'PUT', '/api/Role', { token, body: { Id: adminRole, Name: '改名' } })).status,
    ).toBe(409);
    expect((await call(h().app, 'DELETE', `/api/Role/${adminRole}`, { token })).status).toBe(409);
    expect(
      (
        await call(h().app, 'PUT', '/api/Role/SetResources', {
          token,
          body: { Id: adminRole, ResourceIds: [] },
        })
      ).status,
    ).toBe(409);
    const superAdmin = await resourceId(h(), 'SuperAdmin');
    const escalate = await call(h().app, 'POST', '/api/Role', {
      token,
      body: { Code: 'Sneaky', Name: '越权', ResourceIds: [superAdmin] },
    });
    expect(escalate.status).toBe(403);
    expect(
      await h().db.kysely.selectFrom('Role').select('Id').where('Code', '=', 'Sneaky').executeTakeFirst(),
    ).toBeUndefined();
    const bad = await call<Errors>(h().app, 'POST', '/api/Role', {
      token,
      body: { Code: 'admin', Name: '' },
    });
    expect(bad.data.Errors.map((e) => e.Field).sort()).toEqual(['Code', 'Name']);
    expect(
      (await call(h().app, 'POST', '/api/Role', { token, body: { Code: 'Export', Name: '重复' } })).status,
    ).toBe(409);
  });

  it('keeps built-in resources and resources in use; custom menus nest permissions', async () => {
    const token = await login(h().app, 'resource', DEMO_PASSWORD);
    const tree = await call<{ Code: string; Children: { Code: string }[] }[]>(
      h().app,
      'GET',
      '/api/Resource/Tree',
      { token },
    );
    expect(tree.data.find((n) => n.Code === 'menu:accesscontrol')!.Children.map((c) => c.Code)).toEqual([
      'AccessControl/Admin',
      'AccessControl/User',
    ]);
    expect(
      (await call(h().app, 'DELETE', `/api/Resource/${await resourceId(h(), 'Export')}`, { token })).status,
    ).toBe(409);

    const menu = await call<{ Id: number }>(h().app, 'POST', '/api/Resource', {
      token,
      body: { Code: 'menu:reports', Name: '报表', Type: 'menu' },
    });
    const perm = await call<{ Id: number }>(h().app, 'POST', '/api/Resource', {
      token,
      body: { Code: 'Report/View', Name: '查看报表', Type: 'permission', ParentId: menu.data.Id },
    });
    expect(perm.status, perm.msg).toBe(200);
    const underPermission = await call(h().app, 'POST', '/api/Resource', {
      token,
      body: { Code: 'Report/Deep', Name: '深层', Type: 'permission', ParentId: perm.data.Id },
    });
    expect(underPermission.status).toBe(400);
    expect((await call(h().app, 'DELETE', `/api/Resource/${menu.data.Id}`, { token })).status).toBe(409);
    expect((await call(h().app, 'DELETE', `/api/Resource/${perm.data.Id}`, { token })).status).toBe(200);
    expect((await call(h().app, 'DELETE', `/api/Resource/${menu.data.Id}`, { token })).status).toBe(200);
    // Role managers read the tree to assign it, but cannot change it.
    const roleAdmin = await login(h().app, 'roleadmin', DEMO_PASSWORD);
    expect((await call(h().app, 'GET', '/api/Resource/Tree', { token: roleAdmin })).status).toBe(200);
    expect(
      (
        await call(h().app, 'POST', '/api/Resource', {
          token: roleAdmin,
          body: { Code: 'X/Y', Name: 'x', Type: 'menu' },
        })
      ).status,
    ).toBe(403);
  });
});

describeEachDb('system users', (h) => {
  it('creates a user with roles and areas, who can then sign in and is listed by role', async () => {
    const token = await login(h().app, 'useradmin', DEMO_PASSWORD);
    const bikeUser = await roleId(h(), 'Bicycle/User');
    const created = await call<User>(h().app, 'POST', '/api/AppUser', {
      token,
      area: 1,
      body: {
        UserName: 'zhao.lei',
        Name: '赵磊',
        Password: 'Secret#2026',
        Phone: '13812345678',
        RoleIds: [bikeUser],
        AreaIds: [2],
      },
    });
    expect(created.status, created.msg).toBe(200);
    expect(created.data.Roles.map((r) => r.Code)).toEqual(['Bicycle/User']);
    expect(created.data.Areas.map((a) => a.Id)).toEqual([1, 2]);
    const own = await login(h().app, 'zhao.lei', 'Secret#2026');
    expect(
      (await call<{ roles: string[] }>(h().app, 'GET', '/api/AppUser/Info', { token: own })).data.roles,
    ).toEqual(['Bicycle/User']);

    const byRole = await call<PageOf<User>>(h().app, 'GET', '/api/AppUser', {
      token,
      area: 1,
      query: { RoleId: bikeUser, PageSize: 100 },
    });
    expect(byRole.data.Items.map((u) => u.UserName)).toContain('zhao.lei');
    expect(byRole.data.Items.every((u) => u.Roles.some((r) => r.Id === bikeUser))).toBe(true);

    const dup = await call<Errors>(h().app, 'POST', '/api/AppUser', {
      token,
      area: 1,
      body: { UserName: 'zhao.lei', Name: '重名', Password: 'Secret#2026' },
    });
    // A conflict with an existing user (docs/api.md): 409, still naming the field for the form.
    expect(dup.status).toBe(409);
    expect(dup.data.Errors).toEqual([{ Field: 'UserName', Message: '用户名已存在' }]);
  });

  it('refuses to grant the admin role or areas the caller does not operate, writing nothing', async () => {
    const token = await makeUser(h(), 'ua-one-area', ['AppUser/Admin'], [1]);
    const before = (await h().db.kysely.selectFrom('AppUser').select('Id').execute()).length;
    const admin = await call(h().app, 'POST', '/api/AppUser', {
      token,
      area: 1,
      body: {
        UserName: 'evil',
        Name: '越权',
        Password: 'Secret#2026',
        RoleIds: [await roleId(h(), 'admin')],
      },
    });
    expect(admin.status).toBe(403);
    const foreign = await call(h().app, 'POST', '/api/AppUser', {
      token,
      area: 1,
      body: { UserName: 'evil2', Name: '越权', Password: 'Secret#2026', AreaIds: [2] },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.msg).toBe('无权操作该区域');
    expect((await h().db.kysely.selectFrom('AppUser').select('Id').execute()).length).toBe(before);
  });

  it('protects admins, the built-in admin and the caller themself', async () => {
    const { app } = h();
    const rootToken = await login(app, 'admin', ADMIN_PASSWORD);
    // A second holder of the admin role, operating area 1.
    const second = await call<User>(app, 'POST', '/api/AppUser', {
      token: rootToken,
      area: 1,
      body: {
        UserName: 'admin2',
        Name: '副管理员',
        Password: 'Secret#2026',
        RoleIds: [await roleId(h(), 'admin')],
      },
    });
    expect(second.status, second.msg).toBe(200);
    const token = await login(app, 'useradmin', DEMO_PASSWORD);
    expect(
      (
        await call(app, 'POST', '/api/AppUser/SetStatus', {
          token,
          area: 1,
          query: { Id: second.data.Id, Disabled: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(app, 'POST', '/api/AppUser/ResetPassword', {
          token,
          area: 1,
          body: { Id: second.data.Id, NewPassword: 'Hijack#2026' },
        })
      ).status,
    ).toBe(403);
    const me = await userId(h(), 'useradmin');
    const self = await call(app, 'POST', '/api/AppUser/SetStatus', {
      token,
      area: 1,
      query: { Id: me, Disabled: true },
    });
    expect(self.status).toBe(409);
    expect(self.msg).toBe('不能禁用或删除自己的账号');
    expect((await call(app, 'DELETE', `/api/AppUser/${me}`, { token, area: 1 })).status).toBe(409);
  });

  it('resets a password (ending sessions), binds a department of the area, and deletes', async () => {
    const { app } = h();
    const token = await login(app, 'useradmin', DEMO_PASSWORD);
    const victimToken = await login(app, 'kefu01', DEMO_PASSWORD);
    const id = await userId(h(), 'kefu01');
    expect(
      (
        await call(app, 'POST', '/api/AppUser/ResetPassword', {
          token,
          area: 1,
          body: { Id: id, NewPassword: 'Fresh#2026' },
        })
      ).status,
    ).toBe(200);
    expect((await call(app, 'GET', '/api/AppUser/Info', { token: victimToken })).status).toBe(401);
    await login(app, 'kefu01', 'Fresh#2026');

    const foreignDept = await h()
      .db.kysely.selectFrom('Department')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const bad = await call<Errors>(app, 'PUT', '/api/AppUser/BindDepartment', {
      token,
      area: 1,
      body: { Id: id, DepartmentId: foreignDept.Id },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.Errors[0]!.Field).toBe('DepartmentId');
    const ownDept = await h()
      .db.kysely.selectFrom('Department')
      .select(['Id', 'Name'])
      .where('AreaId', '=', 1)
      .where('Name', '=', '环境保洁部')
      .executeTakeFirstOrThrow();
    expect(
      (
        await call(app, 'PUT', '/api/AppUser/BindDepartment', {
          token,
          area: 1,
          body: { Id: id, DepartmentId: ownDept.Id },
        })
      ).status,
    ).toBe(200);
    expect((await call<User>(app, 'GET', `/api/AppUser/${id}`, { token, area: 1 })).data).toMatchObject({
      DepartmentId: ownDept.Id,
      DepartmentName: '环境保洁部',
    });

    // A user of area 1 only is not found from area 2.
    expect((await call(app, 'GET', `/api/AppUser/${id}`, { token, area: 2 })).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/AppUser/${id}`, { token, area: 2 })).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/AppUser/${id}`, { token, area: 1 })).status).toBe(200);
    const actions = await h()
      .db.kysely.selectFrom('AuditLog')
      .select('Action')
      .where('Entity', '=', 'AppUser')
      .where('EntityId', '=', String(id))
      .orderBy('Id')
      .execute();
    // The user's own sign-ins (before and after the reset) are in the log too.
    expect(actions.map((a) => a.Action)).toEqual([
      'login',
      'resetPassword',
      'login',
      'bindDepartment',
      'delete',
    ]);
    const entry = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Before', 'After'])
      .where('Action', '=', 'delete')
      .where('EntityId', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(entry.Before).not.toContain('PasswordHash');
  });
});

describeEachDb('departments', (h) => {
  it('counts members up the tree, refuses to delete a department with members or children, and moves safely', async () => {
    const { app } = h();
    const token = await login(app, 'deptadmin', DEMO_PASSWORD);
    const tree = (await call<DepartmentNode[]>(app, 'GET', '/api/Department/Tree', { token, area: 1 })).data;
    const center = tree.find((n) => n.Name === '物业服务中心')!;
    const service = center.Children.find((n) => n.Name === '客户服务部')!;
    // kefu01 of the demo data, plus any card holders the access-control demo puts there.
    expect(service.MemberCount).toBeGreaterThanOrEqual(1);
    expect(center.TotalMemberCount).toBeGreaterThanOrEqual(3);
    expect(center.TotalMemberCount).toBe(
      center.MemberCount + center.Children.reduce((s, c) => s + c.TotalMemberCount, 0),
    );

    const withMember = await call(app, 'DELETE', `/api/Department/${service.Id}`, { token, area: 1 });
    expect(withMember.status).toBe(409);
    expect(withMember.msg).toMatch(/^仍有关联数据，无法删除：.*系统用户 1/);
    const withChildren = await call(app, 'DELETE', `/api/Department/${center.Id}`, {
      token,
      area: 1,
      lang: 'en',
    });
    expect(withChildren.status).toBe(409);
    expect(withChildren.msg).toMatch(/sub-departments 4/);

    const engineering = center.Children.find((n) => n.Name === '工程维修部')!;
    const cycle = await call<Errors>(app, 'PUT', '/api/Department', {
      token,
      area: 1,
      body: { Id: center.Id, Name: center.Name, ParentId: engineering.Children[0]!.Id },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.data.Errors[0]!.Field).toBe('ParentId');
    const move = await call(app, 'PUT', '/api/Department', {
      token,
      area: 1,
      body: { Id: engineering.Children[0]!.Id, Name: '强电班', ParentId: service.Id },
    });
    expect(move.status, move.msg).toBe(200);
    const siblings = await call(app, 'POST', '/api/Department', {
      token,
      area: 1,
      body: { Name: '弱电班', ParentId: engineering.Id },
    });
    expect(siblings.status).toBe(409);
    const rootDup = await call(app, 'POST', '/api/Department', {
      token,
      area: 1,
      body: { Name: '业主委员会' },
    });
    expect(rootDup.status).toBe(409);
  });
});

describeEachDb('settings, areas and the operation log', (h) => {
  it('applies a settings change at once, without a restart, and validates it', async () => {
    const { app } = h();
    const token = await login(app, 'superadmin', DEMO_PASSWORD);
    const bad = await call<Errors>(app, 'PUT', '/api/Settings', {
      token,
      body: { SessionTtlSeconds: 10, ImageBaseUrl: 'ftp:/x' },
    });
    expect(bad.data.Errors.map((e) => e.Field).sort()).toEqual(['ImageBaseUrl', 'SessionTtlSeconds']);
    const ok = await call(app, 'PUT', '/api/Settings', {
      token,
      body: { LoginMaxFailures: 3, SiteTitle: '智慧社区管理平台', ImageBaseUrl: 'https://img.example.com/' },
    });
    expect(ok.status, ok.msg).toBe(200);
    expect((await call<{ SiteTitle: string }>(app, 'GET', '/api/Settings/Public')).data.SiteTitle).toBe(
      '智慧社区管理平台',
    );
    for (let i = 0; i < 3; i++)
      await call(app, 'POST', '/api/Auth/login', { body: { username: 'exporter', password: 'wrong-pass' } });
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: 'exporter', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(429);
    expect(
      (await call<{ ImageBaseUrl: string }>(app, 'GET', '/api/AppUser/Info', { token })).data.ImageBaseUrl,
    ).toBe('https://img.example.com/');
    expect(
      (await call(app, 'GET', '/api/Settings', { token: await login(app, 'areaadmin', DEMO_PASSWORD) }))
        .status,
    ).toBe(403);
  });

  it('refuses to delete an area that still holds data, naming it; an empty area goes', async () => {
    const { app } = h();
    const token = await login(app, 'admin', ADMIN_PASSWORD);
    const refused = await call(app, 'DELETE', '/api/AreaInfo', { token, query: { Id: 2 } });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/^仍有关联数据，无法删除：.*部门 \d+/);
    expect(
      await h().db.kysely.selectFrom('AreaInfo').select('Id').where('Id', '=', 2).executeTakeFirst(),
    ).toBeDefined();
    const empty = await call<{ Id: number }>(app, 'POST', '/api/AreaInfo', {
      token,
      body: { Name: '空区域' },
    });
    expect((await call(app, 'DELETE', '/api/AreaInfo', { token, query: { Id: empty.data.Id } })).status).toBe(
      200,
    );
  });

  it('lists the operation log by user, action and time range (at most 61 days)', async () => {
    const { app, clock } = h();
    const token = await login(app, 'superadmin', DEMO_PASSWORD);
    const groupAdmin = await login(app, 'groupadmin', DEMO_PASSWORD);
    const start = clock.now();
    await call(app, 'POST', '/api/PeopleGroup', { token: groupAdmin, area: 1, body: { Name: '日志测试组' } });
    const log = await call<PageOf<{ UserName: string; Action: string; Entity: string; AreaName: string }>>(
      app,
      'GET',
      '/api/AuditLog',
      {
        token,
        query: {
          UserName: 'groupadmin',
          Action: 'create',
          StartTime: new Date(start - 1000).toISOString(),
          EndTime: new Date(start + 1000).toISOString(),
        },
      },
    );
    expect(log.data.Items).toEqual([
      expect.objectContaining({
        UserName: 'groupadmin',
        Action: 'create',
        Entity: 'PeopleGroup',
        AreaName: '滨江花园社区',
      }),
    ]);
    const tooLong = await call(app, 'GET', '/api/AuditLog', {
      token,
      query: { StartTime: '2026-01-01T00:00:00Z', EndTime: '2026-03-04T00:00:00Z' },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.msg).toBe('时间范围不能超过 61 天');
    expect((await call(app, 'GET', '/api/AuditLog', { token: groupAdmin })).status).toBe(403);
  });
});
