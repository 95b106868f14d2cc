import { expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { accessControlModule } from '../src/modules/access-control/index.ts';

const accessControlRoutes = accessControlModule.routes;
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

type Page = { Items: { Id: number }[]; Total: number };
type Who = 'super' | 'admin' | 'all' | 'anyone';

/**
 * The permission of every endpoint of the module (docs/access-control.md has the same table):
 * super = SuperAdmin (the pools), admin = AccessControl/Admin, all = AccessControl/Admin or /User, anyone = whoever
 * operates the area (signed in, area-scoped).
 */
const EXPECTED: Record<string, Who> = {
  'GET /api/DeviceRegistration': 'super',
  'GET /api/DeviceRegistration/:Id': 'super',
  'DELETE /api/DeviceRegistration/:Id': 'super',
  'POST /api/DeviceRegistration/BatchDelete': 'super',
  'POST /api/DeviceRegistration': 'super',
  'POST /api/DeviceRegistration/Assign': 'super',
  'POST /api/DeviceRegistration/Unassign': 'super',
  'GET /api/CardRegistration': 'super',
  'GET /api/CardRegistration/:Id': 'super',
  'DELETE /api/CardRegistration/:Id': 'super',
  'POST /api/CardRegistration/BatchDelete': 'super',
  'POST /api/CardRegistration': 'super',
  'POST /api/CardRegistration/Assign': 'super',
  'POST /api/CardRegistration/Unassign': 'super',
  'GET /api/AccessControlDevice': 'all',
  'GET /api/AccessControlDevice/:Id': 'all',
  'PUT /api/AccessControlDevice': 'admin',
  'POST /api/AccessControlDevice/SetStatus': 'admin',
  'POST /api/AccessControlDevice/SetTime': 'admin',
  'POST /api/AccessControlDevice/SyncNow': 'admin',
  'GET /api/AccessControlChannel': 'all',
  'GET /api/AccessControlChannel/:Id': 'all',
  'POST /api/AccessControlChannel': 'admin',
  'PUT /api/AccessControlChannel': 'admin',
  'DELETE /api/AccessControlChannel/:Id': 'admin',
  'POST /api/AccessControlChannel/BatchDelete': 'admin',
  'POST /api/AccessControlChannel/OpenDoor': 'admin',
  'POST /api/AccessControlChannel/SetDoorMode': 'admin',
  'GET /api/Card': 'all',
  'GET /api/Card/:Id': 'all',
  'GET /api/CardUser/ImportTemplate': 'admin',
  'GET /api/CardUser': 'all',
  'GET /api/CardUser/:Id': 'all',
  'POST /api/CardUser': 'all',
  'PUT /api/CardUser': 'all',
  'POST /api/CardUser/SetStatus': 'all',
  'DELETE /api/CardUser/:Id': 'all',
  'POST /api/CardUser/BatchDelete': 'all',
  'POST /api/CardUser/Extend': 'all',
  'POST /api/CardUser/Import': 'admin',
  'GET /api/CardUserLinkChannel/DeviceStatusCounts': 'all',
  'GET /api/CardUserLinkChannel': 'all',
  'GET /api/CardUserLinkChannel/:Id': 'all',
  'POST /api/CardUserLinkChannel/Grant': 'all',
  'POST /api/CardUserLinkChannel/BatchGrant': 'admin',
  'PUT /api/CardUserLinkChannel': 'all',
  'POST /api/CardUserLinkChannel/Revoke': 'all',
  'GET /api/DoorOpeningRecord': 'all',
  'GET /api/ChangeRecord': 'all',
  'GET /api/ChangeRecord/:Id': 'all',
  'GET /api/RenewalRecord': 'all',
  'GET /api/RenewalRecord/:Id': 'all',
  'GET /api/FailureDeclarationRecord/Handlers': 'all',
  'GET /api/FailureDeclarationRecord': 'all',
  'GET /api/FailureDeclarationRecord/:Id': 'all',
  'POST /api/FailureDeclarationRecord': 'all',
  'POST /api/FailureDeclarationRecord/Progress': 'all',
  'GET /api/Options/AccessControlDevices': 'all',
  'GET /api/Options/AccessControlChannels': 'all',
  'GET /api/Options/CardUsers': 'all',
  'GET /api/AccessControlDashboard': 'all',
  // Access rules (issue 22): profiles, holidays and schedules written by Admin; the monitor and alarms for both.
  'GET /api/TimeProfile': 'all',
  'GET /api/TimeProfile/:Id': 'all',
  'POST /api/TimeProfile': 'admin',
  'PUT /api/TimeProfile': 'admin',
  'DELETE /api/TimeProfile/:Id': 'admin',
  'POST /api/TimeProfile/BatchDelete': 'admin',
  'GET /api/Holiday': 'all',
  'GET /api/Holiday/:Id': 'all',
  'POST /api/Holiday': 'admin',
  'PUT /api/Holiday': 'admin',
  'DELETE /api/Holiday/:Id': 'admin',
  'POST /api/Holiday/BatchDelete': 'admin',
  'GET /api/DoorSchedule': 'all',
  'GET /api/DoorSchedule/:Id': 'all',
  'POST /api/DoorSchedule': 'admin',
  'PUT /api/DoorSchedule': 'admin',
  'DELETE /api/DoorSchedule/:Id': 'admin',
  'POST /api/DoorSchedule/BatchDelete': 'admin',
  'GET /api/TimeProfile/Choices': 'all',
  'GET /api/TimeProfile/SlotUse': 'all',
  'GET /api/DoorAlarm': 'all',
  'GET /api/DoorAlarm/:Id': 'all',
  'POST /api/DoorAlarm/Acknowledge': 'all',
  'GET /api/DoorMonitor': 'all',
  // Lockdown and evacuation (issue 31): started and released by Admin; its banner shows on every screen of the area.
  'POST /api/AreaInfo/Lockdown': 'admin',
  'POST /api/AreaInfo/LockdownRelease': 'admin',
  'GET /api/AreaInfo/Lockdown': 'anyone',
  // Visitor passes (issue 31): issued, revoked and read by both codes, like a grant to one holder.
  'GET /api/VisitorPass': 'all',
  'GET /api/VisitorPass/:Id': 'all',
  'POST /api/VisitorPass': 'all',
  'POST /api/VisitorPass/Revoke': 'all',
  'GET /api/VisitorPass/Qr': 'all',
  'GET /api/VisitorLog': 'all',
  'GET /api/VisitorLog/:Id': 'all',
  // Who is inside and roll calls (issue 31): both codes, as visitor passes; the reset hour is the Admin's.
  'GET /api/Occupancy': 'all',
  'GET /api/Occupancy/Summary': 'all',
  'PUT /api/Occupancy/Settings': 'admin',
  'GET /api/Muster': 'all',
  'GET /api/Muster/:Id': 'all',
  'POST /api/Muster/Start': 'all',
  'POST /api/Muster/MarkSafe': 'all',
  'POST /api/Muster/End': 'all',
  'GET /api/MusterPerson': 'all',
  'GET /api/MusterPerson/:Id': 'all',
  // The access check (issue 31): a read by both codes, the controller's side read live.
  'GET /api/AccessCheck': 'all',
  'GET /api/AccessCheck/Who': 'all',
};

const CODES: Record<Who, string[]> = {
  super: ['SuperAdmin'],
  admin: ['AccessControl/Admin'],
  all: ['AccessControl/Admin', 'AccessControl/User'],
  anyone: ['authenticated'],
};

/** Area-scoped lists and the table behind each. */
const AREA_LISTS: [string, keyof Database][] = [
  ['/api/AccessControlDevice', 'AccessControlDevice'],
  ['/api/AccessControlChannel', 'AccessControlChannel'],
  ['/api/Card', 'Card'],
  ['/api/CardUser', 'CardUser'],
  ['/api/CardUserLinkChannel', 'CardUserLinkChannel'],
  ['/api/DoorOpeningRecord', 'DoorOpeningRecord'],
  ['/api/ChangeRecord', 'ChangeRecord'],
  ['/api/RenewalRecord', 'RenewalRecord'],
  ['/api/FailureDeclarationRecord', 'FailureDeclarationRecord'],
];

async function firstOf(h: Harness, table: keyof Database, areaId: number): Promise<number> {
  const row = await h.db.kysely
    .selectFrom(table)
    .select('Id' as never)
    .where('AreaId' as never, '=', areaId as never)
    .orderBy('Id' as never)
    .executeTakeFirstOrThrow();
  return (row as { Id: number }).Id;
}

describeEachDb('access control: permissions and area isolation', (h) => {
  it('declares every endpoint with the codes of its screen and action', () => {
    const declared = Object.fromEntries(
      accessControlRoutes.map((r) => [
        `${r.method} ${r.url}`,
        typeof r.access === 'string' ? [r.access] : [...r.access].sort(),
      ]),
    );
    expect(Object.keys(declared).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [key, who] of Object.entries(EXPECTED))
      expect(declared[key], key).toEqual([...CODES[who]].sort());
    const areaScoped = accessControlRoutes.filter((r) => r.area).map((r) => `${r.method} ${r.url}`);
    expect(areaScoped.sort()).toEqual(
      Object.entries(EXPECTED)
        .filter(([, who]) => who !== 'super')
        .map(([key]) => key)
        .sort(),
    );
  });

  it('lets the read code do the everyday actions and keeps the admin actions from it', async () => {
    const tokens = {
      acuser: await login(h().app, 'acuser', DEMO_PASSWORD),
      acadmin: await login(h().app, 'acadmin', DEMO_PASSWORD),
      superadmin: await login(h().app, 'superadmin', DEMO_PASSWORD),
    };
    const allowed: Record<keyof typeof tokens, Who[]> = {
      acuser: ['all', 'anyone'],
      acadmin: ['all', 'admin', 'anyone'],
      superadmin: ['super', 'anyone'],
    };
    for (const [key, who] of Object.entries(EXPECTED)) {
      const [method, template] = key.split(' ') as ['GET', string];
      // A missing row or an empty body: whatever the call, only the permission decides 403.
      const url = template.replace(':Id', '999999');
      for (const user of Object.keys(tokens) as (keyof typeof tokens)[]) {
        // Raw inject: the template answers a file, not the envelope.
        const reply = await h().app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${tokens[user]}`, 'x-area-id': '1' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        if (allowed[user].includes(who)) expect(reply.statusCode, `${user} ${key}`).not.toBe(403);
        else expect(reply.statusCode, `${user} ${key}`).toBe(403);
      }
    }
  });

  it('lists of another area show none of its rows; the totals are the area’s own', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    for (const [url, table] of AREA_LISTS) {
      for (const area of [1, 2]) {
        const list = await call<Page>(h().app, 'GET', url, { token, area, query: { PageSize: 100 } });
        expect(list.status, `${url} ${list.msg}`).toBe(200);
        const own = await h()
          .db.kysely.selectFrom(table)
          .select('Id' as never)
          .where('AreaId' as never, '=', area as never)
          .execute();
        const ids = new Set((own as { Id: number }[]).map((r) => r.Id));
        expect(list.data.Total, url).toBe(ids.size);
        expect(list.data.Items.length, url).toBeGreaterThan(0);
        for (const item of list.data.Items) expect(ids.has(item.Id), `${url} #${item.Id}`).toBe(true);
      }
    }
  });

  it('a row of another area is not found by id, for reads and every write', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const ids = Object.fromEntries(
      await Promise.all(
        AREA_LISTS.filter(([url]) => url !== '/api/DoorOpeningRecord').map(
          async ([url, table]) => [url, await firstOf(h(), table, 1)] as const,
        ),
      ),
    );
    for (const [url, rowId] of Object.entries(ids)) {
      expect((await call(h().app, 'GET', `${url}/${rowId}`, { token, area: 1 })).status, url).toBe(200);
      expect((await call(h().app, 'GET', `${url}/${rowId}`, { token, area: 2 })).status, url).toBe(404);
    }
    const k = h().db.kysely;
    const holder = await k
      .selectFrom('CardUser')
      .selectAll()
      .where('Id', '=', ids['/api/CardUser']!)
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .selectAll()
      .where('Id', '=', ids['/api/AccessControlDevice']!)
      .executeTakeFirstOrThrow();
    const channel = await k
      .selectFrom('AccessControlChannel')
      .selectAll()
      .where('Id', '=', ids['/api/AccessControlChannel']!)
      .executeTakeFirstOrThrow();
    const auth = ids['/api/CardUserLinkChannel']!;
    const fault = ids['/api/FailureDeclarationRecord']!;
    const holderBody = {
      Name: '越界测试',
      ValidFrom: new Date(h().clock.now()).toISOString(),
      ValidTo: new Date(h().clock.now() + 86_400_000).toISOString(),
    };
    const area1Card = await k
      .selectFrom('Card')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('CardUserId', 'is', null)
      .executeTakeFirstOrThrow();
    const area1Department = await k
      .selectFrom('Department')
      .select('Id')
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    const area2Holder = await k
      .selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 2)
      .where('Disabled', '=', 0)
      .executeTakeFirstOrThrow();
    const area2Device = await firstOf(h(), 'AccessControlDevice', 2);

    const notFound: [string, string, { body?: unknown; query?: Record<string, string | number> }][] = [
      ['PUT', '/api/AccessControlDevice', { body: { Id: device.Id, Name: '越界' } }],
      ['POST', '/api/AccessControlDevice/SetStatus', { query: { Id: device.Id, Disabled: 'true' } }],
      [
        'PUT',
        '/api/AccessControlChannel',
        { body: { Id: channel.Id, DoorNumber: 0, Name: '越界', Direction: 0 } },
      ],
      ['DELETE', `/api/AccessControlChannel/${channel.Id}`, {}],
      ['POST', '/api/AccessControlChannel/BatchDelete', { body: { Ids: [channel.Id] } }],
      ['PUT', '/api/CardUser', { body: { ...holderBody, Id: holder.Id } }],
      ['POST', '/api/CardUser/SetStatus', { query: { Id: holder.Id, Disabled: 'true' } }],
      ['POST', '/api/CardUser/Extend', { body: { Ids: [holder.Id], ValidTo: '2099-01-01T00:00:00Z' } }],
      [
        'POST',
        '/api/CardUserLinkChannel/Grant',
        { body: { CardUserId: holder.Id, ChannelIds: [channel.Id] } },
      ],
      ['PUT', '/api/CardUserLinkChannel', { body: { Id: auth, ValidFrom: null, ValidTo: null } }],
      ['POST', '/api/CardUserLinkChannel/Revoke', { body: { Ids: [auth] } }],
      ['POST', '/api/FailureDeclarationRecord/Progress', { body: { Id: fault, Status: 2, Note: '越界' } }],
    ];
    for (const [method, url, options] of notFound) {
      const reply = await call(h().app, method as 'GET', url, { token, area: 2, ...options });
      expect(reply.status, `${method} ${url}: ${reply.msg}`).toBe(404);
    }
    const refused: [string, string, unknown][] = [
      [
        'POST',
        '/api/AccessControlChannel',
        { DeviceId: device.Id, DoorNumber: 0, Name: '越界', Direction: 0 },
      ],
      ['POST', '/api/CardUser', { ...holderBody, CardIds: [area1Card.Id] }],
      ['POST', '/api/CardUser', { ...holderBody, DepartmentId: area1Department.Id }],
      ['POST', '/api/CardUserLinkChannel/Grant', { CardUserId: area2Holder.Id, ChannelIds: [channel.Id] }],
      [
        'POST',
        '/api/CardUserLinkChannel/BatchGrant',
        { DepartmentId: area1Department.Id, ChannelIds: [channel.Id] },
      ],
      ['POST', '/api/FailureDeclarationRecord', { DeviceId: device.Id, Description: '越界' }],
      [
        'POST',
        '/api/FailureDeclarationRecord',
        { DeviceId: area2Device, ChannelId: channel.Id, Description: '越界' },
      ],
    ];
    for (const [method, url, body] of refused) {
      const reply = await call(h().app, method as 'POST', url, { token, area: 2, body });
      expect(reply.status, `${method} ${url}: ${reply.msg}`).toBe(400);
    }
    // Nothing of area 1 changed.
    expect(await k.selectFrom('CardUser').selectAll().where('Id', '=', holder.Id).executeTakeFirst()).toEqual(
      holder,
    );
    expect(
      await k.selectFrom('AccessControlDevice').selectAll().where('Id', '=', device.Id).executeTakeFirst(),
    ).toEqual(device);
    expect(
      await k.selectFrom('AccessControlChannel').selectAll().where('Id', '=', channel.Id).executeTakeFirst(),
    ).toEqual(channel);
    expect(await k.selectFrom('CardUser').select('Id').where('Name', '=', '越界测试').execute()).toEqual([]);
  });

  it('offers the area’s own devices, channels and holders as choices', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const k = h().db.kysely;
    const devices = await call<{ Id: number }[]>(h().app, 'GET', '/api/Options/AccessControlDevices', {
      token,
      area: 1,
    });
    const own = await k.selectFrom('AccessControlDevice').select('Id').where('AreaId', '=', 1).execute();
    expect(devices.data.map((d) => d.Id).sort((a, b) => a - b)).toEqual(
      own.map((d) => d.Id).sort((a, b) => a - b),
    );
    const channels = await call<{ DeviceId: number; Channels: { Id: number }[] }[]>(
      h().app,
      'GET',
      '/api/Options/AccessControlChannels',
      { token, area: 1 },
    );
    const ownChannels = await k
      .selectFrom('AccessControlChannel')
      .select('Id')
      .where('AreaId', '=', 1)
      .execute();
    expect(channels.data.flatMap((d) => d.Channels.map((c) => c.Id)).sort((a, b) => a - b)).toEqual(
      ownChannels.map((c) => c.Id).sort((a, b) => a - b),
    );
    const holder = await k
      .selectFrom('CardUser')
      .select(['Id', 'Name'])
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    const found = await call<{ Id: number }[]>(h().app, 'GET', '/api/Options/CardUsers', {
      token,
      area: 1,
      query: { Keyword: holder.Name },
    });
    expect(found.data.map((f) => f.Id)).toContain(holder.Id);
    const area2 = await k.selectFrom('CardUser').select('Id').where('AreaId', '=', 2).execute();
    const all = await call<{ Id: number }[]>(h().app, 'GET', '/api/Options/CardUsers', { token, area: 1 });
    expect(all.data.length).toBe(50);
    expect(all.data.some((f) => area2.some((a) => a.Id === f.Id))).toBe(false);
  });

  it('an everyday operator of area 1 cannot reach area 2 at all', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    for (const [url] of AREA_LISTS) {
      const reply = await call(h().app, 'GET', url, { token, area: 2 });
      expect(reply.status, url).toBe(403);
    }
  });

  it("the pools show a SuperAdmin only unassigned rows and their own areas', and assign only into those", async () => {
    const token = await makeUser(h(), 'super-area1', ['SuperAdmin'], [1]);
    const k = h().db.kysely;
    for (const [url, table] of [
      ['/api/DeviceRegistration', 'AccessControlDevice'],
      ['/api/CardRegistration', 'Card'],
    ] as const) {
      const list = await call<{ Items: { AreaId: number | null }[] }>(h().app, 'GET', url, {
        token,
        query: { PageSize: 100, Assigned: 'true' },
      });
      expect(list.status).toBe(200);
      expect(new Set(list.data.Items.map((i) => i.AreaId))).toEqual(new Set([1]));
      const foreign = await firstOf(h(), table, 2);
      expect((await call(h().app, 'GET', `${url}/${foreign}`, { token })).status).toBe(404);
      expect(
        (await call(h().app, 'POST', `${url}/Unassign`, { token, body: { Ids: [foreign] } })).status,
      ).toBe(404);
      const pooled = await k
        .selectFrom(table)
        .select('Id')
        .where('AreaId', 'is', null)
        .executeTakeFirstOrThrow();
      const assign = await call(h().app, 'POST', `${url}/Assign`, {
        token,
        body: { Ids: [pooled.Id], AreaId: 2 },
      });
      expect(assign.status).toBe(403);
      expect(assign.msg).toBe('无权操作该区域');
      const row = await k
        .selectFrom(table)
        .select('AreaId')
        .where('Id', '=', pooled.Id)
        .executeTakeFirstOrThrow();
      expect(row.AreaId).toBeNull();
    }
    const register = await call(h().app, 'POST', '/api/DeviceRegistration', {
      token,
      body: { SerialNumbers: '199999999', Protocol: 0, AreaId: 2 },
    });
    expect(register.status).toBe(403);
  });

  it('keeps areas, departments, people groups and types with access-control data from being deleted', async () => {
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const area = await call(h().app, 'DELETE', '/api/AreaInfo', { token: admin, query: { Id: 1 } });
    expect(area.status).toBe(409);
    for (const label of ['门禁设备', '卡片', '持卡人', '刷卡记录', '故障申报'])
      expect(area.msg, label).toMatch(new RegExp(`${label} \\d+`));
    const k = h().db.kysely;
    const holder = await k
      .selectFrom('CardUser')
      .select(['DepartmentId', 'PeopleGroupId', 'PeopleTypeId'])
      .where('AreaId', '=', 1)
      .where('DepartmentId', 'is not', null)
      .where('PeopleGroupId', 'is not', null)
      .where('PeopleTypeId', 'is not', null)
      .executeTakeFirstOrThrow();
    const dept = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    const department = await call(h().app, 'DELETE', `/api/Department/${holder.DepartmentId}`, {
      token: dept,
      area: 1,
    });
    expect(department.status).toBe(409);
    expect(department.msg).toMatch(/持卡人 \d+/);
    const groups = await login(h().app, 'groupadmin', DEMO_PASSWORD);
    for (const [url, rowId] of [
      ['/api/PeopleGroup', holder.PeopleGroupId],
      ['/api/PeopleType', holder.PeopleTypeId],
    ] as const) {
      const reply = await call(h().app, 'DELETE', `${url}/${rowId}`, { token: groups, area: 1 });
      expect(reply.status, url).toBe(409);
      expect(reply.msg).toMatch(/持卡人 \d+/);
    }
    const tree = await call<{ Name: string; TotalMemberCount: number }[]>(
      h().app,
      'GET',
      '/api/Department/Tree',
      {
        token: dept,
        area: 1,
      },
    );
    const holders = await k
      .selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('DepartmentId', 'is not', null)
      .execute();
    const users = await k
      .selectFrom('AppUser')
      .innerJoin('Department', 'Department.Id', 'AppUser.DepartmentId')
      .select('AppUser.Id')
      .where('Department.AreaId', '=', 1)
      .execute();
    expect(tree.data.reduce((sum, n) => sum + n.TotalMemberCount, 0)).toBe(holders.length + users.length);
  });

  it('exports follow the list permissions', async () => {
    const reader = await login(h().app, 'acuser', DEMO_PASSWORD);
    const other = await login(h().app, 'bikeadmin', DEMO_PASSWORD);
    for (const resource of ['CardUser', 'CardUserLinkChannel', 'AccessControlChannel']) {
      expect(
        (
          await call(h().app, 'POST', '/api/ExportJob', {
            token: reader,
            area: 1,
            body: { Resource: resource },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call(h().app, 'POST', '/api/ExportJob', {
            token: other,
            area: 1,
            body: { Resource: resource },
          })
        ).status,
      ).toBe(403);
    }
    await h().platform.exports.idle();
  });
});
