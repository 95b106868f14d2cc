import { beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * The holes the attack probe found in input handling, references and status codes (issue 14), each
 * pinned by a test that failed on the code before the fix.
 */

async function monthlySale(h: Harness) {
  const k = h.db.kysely;
  const vehicle = await k
    .selectFrom('Vehicle')
    .select('Id')
    .where('AreaId', '=', 1)
    .orderBy('Id')
    .executeTakeFirstOrThrow();
  // A monthly rule (charge type 1), so that only the field under test can be wrong.
  const rule = await k
    .selectFrom('ChargeRule')
    .select(['Id', 'ChargeType'])
    .where('AreaId', '=', 1)
    .where('Disabled', '=', 0)
    .where('ChargeType', '=', 1)
    .execute();
  return { vehicleId: vehicle.Id, rules: rule.map((r) => r.Id) };
}

describeEachDb('attack probe: input, references and leaks', (h) => {
  let admin = '';
  const count = (table: 'MonthlyPass' | 'CardUser' | 'Vehicle' | 'AppUser') =>
    h()
      .db.kysely.selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));

  beforeAll(async () => {
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
  });

  it('takes X-Area-Id only as canonical digits', async () => {
    for (const header of [' 1 ', '01', '1.0', '+1', '0x1']) {
      const reply = await call(h().app, 'GET', '/api/Vehicle', { token: admin, area: header });
      expect(reply.status, JSON.stringify(header)).toBe(400);
    }
    expect((await call(h().app, 'GET', '/api/Vehicle', { token: admin, area: '1' })).status).toBe(200);
  });

  it('takes integers as integers: canonical digits in query strings, JSON integers in bodies', async () => {
    for (const size of ['0x10', '1e3', '01', ' 5', '', 'true', '5.0']) {
      const reply = await call(h().app, 'GET', '/api/Vehicle', {
        token: admin,
        area: 1,
        query: { PageSize: size },
      });
      expect(reply.status, `PageSize=${JSON.stringify(size)}`).toBe(400);
    }
    const ok = await call<{ Items: unknown[] }>(h().app, 'GET', '/api/Vehicle', {
      token: admin,
      area: 1,
      query: { PageSize: '16' },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.Items.length).toBeLessThanOrEqual(16);

    const sale = await monthlySale(h());
    const before = await count('MonthlyPass');
    for (const VehicleId of [
      '0x10',
      '1e3',
      true,
      [5],
      null,
      '',
      [],
      `0${sale.vehicleId}`,
      sale.vehicleId + 0.5,
    ]) {
      const reply = await call(h().app, 'POST', '/api/MonthlyPass', {
        token: admin,
        area: 1,
        body: { VehicleId, ChargeRuleId: sale.rules[0], StartAt: '2095-01-01T00:00:00Z', Units: 1 },
      });
      expect(reply.status, `VehicleId=${JSON.stringify(VehicleId)}`).toBe(400);
    }
    expect(await count('MonthlyPass')).toBe(before);
    // Control: the same sale with a JSON integer goes through, so only VehicleId was refused above.
    const sold = await call(h().app, 'POST', '/api/MonthlyPass', {
      token: admin,
      area: 1,
      body: {
        VehicleId: sale.vehicleId,
        ChargeRuleId: sale.rules[0],
        StartAt: '2095-01-01T00:00:00Z',
        Units: 1,
      },
    });
    expect(sold.status, sold.msg).toBe(200);
  });

  it('takes instants as ISO 8601 with a zone (or epoch ms) between 2000 and 2100, else 400', async () => {
    const bad = [
      '2026-02-30T00:00:00Z',
      '11/01/2026',
      '2026-11-01 08:00',
      '2026-11-01T08:00:00',
      '+275760-09-13T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '2100-01-01T00:00:00Z',
    ];
    for (const StartTime of bad) {
      const reply = await call(h().app, 'GET', '/api/DoorOpeningRecord', {
        token: admin,
        area: 1,
        query: { StartTime },
      });
      expect(reply.status, StartTime).toBe(400);
      expect(reply.msg).not.toBe('');
    }
    // Beyond the JavaScript date range: a 400 with a translated message, not a RangeError's 500.
    const holders = await count('CardUser');
    const beyond = [8.64e15 + 1, 9e15, 253402300800001, -1];
    for (const ValidTo of beyond) {
      const created = await call(h().app, 'POST', '/api/CardUser', {
        token: admin,
        area: 1,
        lang: 'en',
        body: { Name: '张三', ValidFrom: Date.UTC(2026, 10, 1), ValidTo },
      });
      expect(created.status, `create ValidTo=${ValidTo}`).toBe(400);
      const extended = await call(h().app, 'POST', '/api/CardUser/Extend', {
        token: admin,
        area: 1,
        lang: 'en',
        body: { Ids: [1], ValidTo },
      });
      expect(extended.status, `extend ValidTo=${ValidTo}`).toBe(400);
    }
    expect(await count('CardUser')).toBe(holders);
    const sale = await monthlySale(h());
    const passes = await count('MonthlyPass');
    for (const StartAt of [8.64e15, 8.64e15 - 1, '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00Z']) {
      const reply = await call(h().app, 'POST', '/api/MonthlyPass', {
        token: admin,
        area: 1,
        lang: 'en',
        body: { VehicleId: sale.vehicleId, ChargeRuleId: sale.rules[0], StartAt, Units: 1 },
      });
      expect(reply.status, `StartAt=${StartAt}`).toBe(400);
    }
    expect(await count('MonthlyPass')).toBe(passes);
    const far = await call(h().app, 'POST', '/api/MonthlyPass', {
      token: admin,
      area: 1,
      lang: 'en',
      body: { VehicleId: sale.vehicleId, ChargeRuleId: sale.rules[0], StartAt: 8.64e15, Units: 1 },
    });
    expect(far.msg).toContain('2000');
  });

  it('refuses text holding NUL (PostgreSQL cannot store it: it was a 500 there)', async () => {
    const group = await call(h().app, 'POST', '/api/PeopleGroup', {
      token: admin,
      area: 1,
      body: { Name: 'a\u0000b' },
    });
    expect(group.status).toBe(400);
    const signIn = await call(h().app, 'POST', '/api/Auth/login', {
      body: { username: '\u0000', password: 'whatever1' },
      ip: '10.1.2.3',
    });
    expect(signIn.status).toBe(400);
  });

  it('applies the day-span rule to the export-job list: reversed and over 61 days are 400', async () => {
    const list = (StartTime: string, EndTime: string) =>
      call(h().app, 'GET', '/api/ExportJob', { token: admin, area: 1, query: { StartTime, EndTime } });
    expect((await list('2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z')).status).toBe(400);
    expect((await list('2026-06-01T00:00:00Z', '2026-05-01T00:00:00Z')).status).toBe(400);
    expect((await list('2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z')).status).toBe(200);
  });

  it('answers a duplicate user name with 409', async () => {
    const users = await count('AppUser');
    const reply = await call(h().app, 'POST', '/api/AppUser', {
      token: admin,
      area: 1,
      body: { UserName: 'acuser', Password: 'Dup#2026aa', Name: 'dup' },
    });
    expect(reply.status).toBe(409);
    expect(await count('AppUser')).toBe(users);
  });

  it('takes an avatar only as an http(s) address or a relative path', async () => {
    const me = await call<{ Id?: number; UserId?: number }>(h().app, 'GET', '/api/AppUser/Info', {
      token: admin,
    });
    const id = (me.data.Id ?? me.data.UserId)!;
    const update = (Avatar: string) =>
      call(h().app, 'PATCH', `/api/AppUser/UserUpdateInfo/${id}`, { token: admin, body: { Avatar } });
    for (const bad of [
      'javascript:alert(1)',
      'data:image/svg+xml,<svg/>',
      '//evil.example/a.png',
      'file:///etc/passwd',
    ])
      expect((await update(bad)).status, bad).toBe(400);
    for (const good of ['https://cdn.example/a.png', '/avatars/a.png', 'avatars/a.png'])
      expect((await update(good)).status, good).toBe(200);
  });

  it('refuses an empty plate and card holders or cards not of the area on POST/PUT /api/Vehicle', async () => {
    const k = h().db.kysely;
    const vehicles = await count('Vehicle');
    const foreignHolder = await k
      .selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const ownHolder = await k
      .selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    const foreignCard = await k
      .selectFrom('Card')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const bodies = [
      { Plate: '' },
      { Plate: '沪A12345', CardHolderId: foreignHolder.Id },
      { Plate: '沪A12345', CardId: foreignCard.Id },
      { Plate: '沪A12345', CardId: 2_000_000_000 },
    ];
    for (const body of bodies) {
      const reply = await call(h().app, 'POST', '/api/Vehicle', { token: admin, area: 1, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    const existing = await k
      .selectFrom('Vehicle')
      .selectAll()
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    for (const change of [
      { Plate: '' },
      { Plate: existing.Plate, CardHolderId: foreignHolder.Id },
      { Plate: existing.Plate, CardId: foreignCard.Id },
    ]) {
      const put = await call(h().app, 'PUT', '/api/Vehicle', {
        token: admin,
        area: 1,
        body: { Id: existing.Id, ...change },
      });
      expect(put.status, JSON.stringify(change)).toBe(400);
    }
    expect(await count('Vehicle')).toBe(vehicles);
    // Nothing of the refused edits reached the row.
    const unchanged = await k
      .selectFrom('Vehicle')
      .selectAll()
      .where('Id', '=', existing.Id)
      .executeTakeFirstOrThrow();
    expect(unchanged).toEqual(existing);
    const linked = await call(h().app, 'POST', '/api/Vehicle', {
      token: admin,
      area: 1,
      body: { Plate: '沪A12345', CardHolderId: ownHolder.Id },
    });
    expect(linked.status).toBe(200);
  });

  it("does not reveal another area's device serial numbers through DELETE's 409", async () => {
    const k = h().db.kysely;
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const token = await makeUser(h(), 'sa-area1', ['SuperAdmin'], [1]);
    const single = await call(h().app, 'DELETE', `/api/DeviceRegistration/${device.Id}`, { token });
    expect(single.status).toBe(404);
    expect(single.msg).not.toContain(device.SerialNumber);
    const batch = await call(h().app, 'POST', '/api/DeviceRegistration/BatchDelete', {
      token,
      body: { Ids: [device.Id] },
    });
    expect(batch.status).toBe(404);
    expect(batch.msg).not.toContain(device.SerialNumber);
    expect(
      await k.selectFrom('AccessControlDevice').select('Id').where('Id', '=', device.Id).execute(),
    ).toHaveLength(1);
  });

  it('keeps the API reference for signed-in callers by default (bearer token or the web app cookie)', async () => {
    for (const url of ['/api/docs', '/api/docs/json']) {
      expect((await h().app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      const bad = await h().app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
      expect(bad.statusCode).toBe(401);
      const bearer = await h().app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(bearer.statusCode, url).toBeLessThan(400);
      const cookie = await h().app.inject({
        method: 'GET',
        url,
        headers: { cookie: `a=b; REToken=${admin}` },
      });
      expect(cookie.statusCode, url).toBeLessThan(400);
    }
  });
});

describeEachDb(
  'attack probe: API_DOCS=public opens the reference',
  (h) => {
    it('serves the document without a token', async () => {
      expect((await h().app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    });
  },
  { API_DOCS: 'public' },
);

describeEachDb(
  'attack probe: API_DOCS=off removes the reference',
  (h) => {
    it('answers 404 for it, even to a signed-in administrator', async () => {
      const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
      for (const url of ['/api/docs', '/api/docs/json']) {
        const reply = await h().app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${admin}` },
        });
        expect(reply.statusCode, url).toBe(404);
      }
    });
  },
  { API_DOCS: 'off' },
);

it('reads API_DOCS: signed-in by default, public or off on request, anything else stops the server', () => {
  expect(loadConfig({}).apiDocs).toBe('signed-in');
  expect(loadConfig({ API_DOCS: 'public' }).apiDocs).toBe('public');
  expect(loadConfig({ API_DOCS: 'OFF' }).apiDocs).toBe('off');
  expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/API_DOCS/);
});
