import { beforeAll, expect, it } from 'vitest';
import { auditRows, insertParkOrder } from './garage-fixtures.ts';
import { call, login, type Reply } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * Races the probe ran on PostgreSQL (SQLite serialises writers and hid them): parallel creates of one
 * unique value, parallel deletes of one row, overlapping batch deletes, parallel payment transitions and
 * pass sales. Each has exactly one winner and no 5xx. Runs on PostgreSQL with TEST_DATABASE_URL.
 */

function statuses(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describeEachDb('races: exactly one winner', (h) => {
  let admin = '';
  const parallel = <T>(n: number, make: (i: number) => Promise<Reply<T>>) =>
    Promise.all(Array.from({ length: n }, (_, i) => make(i)));
  function noServerErrors(replies: Reply[]) {
    expect(replies.filter((r) => r.status >= 500).map((r) => r.msg)).toEqual([]);
  }

  beforeAll(async () => {
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
  });

  it('sells one of 10 identical monthly passes in parallel, and refuses overlapping ones', async () => {
    const vehicle = await call<{ Id: number }>(h().app, 'POST', '/api/Vehicle', {
      token: admin,
      area: 1,
      body: { Plate: '沪R77777' },
    });
    expect(vehicle.status).toBe(200);
    // A monthly rule of the area (charge type 1, as the demo's 月租停车).
    const monthly = (
      await h()
        .db.kysely.selectFrom('ChargeRule')
        .select('Id')
        .where('AreaId', '=', 1)
        .where('Disabled', '=', 0)
        .where('ChargeType', '=', 1)
        .orderBy('Id')
        .executeTakeFirstOrThrow()
    ).Id;
    const sell = (StartAt: string) =>
      call(h().app, 'POST', '/api/MonthlyPass', {
        token: admin,
        area: 1,
        body: { VehicleId: vehicle.data.Id, ChargeRuleId: monthly, StartAt, Units: 1 },
      });
    const identical = await parallel(10, () => sell('2026-12-01T00:00:00Z'));
    noServerErrors(identical);
    expect(statuses(identical)).toEqual({ 200: 1, 409: 9 });
    // Overlapping starts (a day apart) in parallel: still one.
    const overlapping = await parallel(10, (i) =>
      sell(`2027-03-${String(i + 1).padStart(2, '0')}T00:00:00Z`),
    );
    noServerErrors(overlapping);
    expect(statuses(overlapping)).toEqual({ 200: 1, 409: 9 });
    const passes = await h()
      .db.kysely.selectFrom('MonthlyPass')
      .select(['StartAt', 'EndAt'])
      .where('VehicleId', '=', vehicle.data.Id)
      .orderBy('StartAt')
      .execute();
    expect(passes).toHaveLength(2);
    for (let i = 1; i < passes.length; i++)
      expect(Number(passes[i]!.StartAt)).toBeGreaterThanOrEqual(Number(passes[i - 1]!.EndAt));
  });

  it('creates one of 50 parallel channels with one name on one device', async () => {
    const device = await h()
      .db.kysely.selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const replies = await parallel(50, () =>
      call(h().app, 'POST', '/api/AccessControlChannel', {
        token: admin,
        area: 1,
        body: { DeviceId: device.Id, Name: '并发通道', DoorNumber: 0, Direction: 0 },
      }),
    );
    noServerErrors(replies);
    expect(statuses(replies)).toEqual({ 200: 1, 409: 49 });
    const rows = await h()
      .db.kysely.selectFrom('AccessControlChannel')
      .select('Id')
      .where('DeviceId', '=', device.Id)
      .where('Name', '=', '并发通道')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('deletes a people group, a vehicle or a pass once of 10 parallel deletes: one 200, nine 404, one audit entry', async () => {
    const group = await call<{ Id: number }>(h().app, 'POST', '/api/PeopleGroup', {
      token: admin,
      area: 1,
      body: { Name: '并发删除组' },
    });
    const vehicle = await call<{ Id: number }>(h().app, 'POST', '/api/Vehicle', {
      token: admin,
      area: 1,
      body: { Plate: '沪R88888' },
    });
    // And a pass sold by the first race (deleted by its own service, not the resource helper).
    const pass = await h()
      .db.kysely.selectFrom('MonthlyPass')
      .select('MonthlyPass.Id')
      .innerJoin('Vehicle', 'Vehicle.Id', 'MonthlyPass.VehicleId')
      .where('Vehicle.Plate', '=', '沪R77777')
      .executeTakeFirstOrThrow();
    for (const [entity, id] of [
      ['PeopleGroup', group.data.Id],
      ['Vehicle', vehicle.data.Id],
      ['MonthlyPass', pass.Id],
    ] as const) {
      const replies = await parallel(10, () =>
        call(h().app, 'DELETE', `/api/${entity}/${id}`, { token: admin, area: 1 }),
      );
      noServerErrors(replies);
      expect(statuses(replies), entity).toEqual({ 200: 1, 404: 9 });
      expect((await auditRows(h(), entity, id)).filter((a) => a.Action === 'delete')).toHaveLength(1);
    }
  });

  it('lets one of two overlapping batch deletes win; the loser deletes nothing', async () => {
    const ids: number[] = [];
    for (const Name of ['批量甲', '批量乙', '批量丙']) {
      const created = await call<{ Id: number }>(h().app, 'POST', '/api/PeopleGroup', {
        token: admin,
        area: 1,
        body: { Name },
      });
      ids.push(created.data.Id);
    }
    const [a, b, c] = ids as [number, number, number];
    const replies = await Promise.all(
      [
        [a, b],
        [b, c],
      ].map((Ids) =>
        call(h().app, 'POST', '/api/PeopleGroup/BatchDelete', { token: admin, area: 1, body: { Ids } }),
      ),
    );
    noServerErrors(replies);
    expect(statuses(replies)).toEqual({ 200: 1, 404: 1 });
    const left = await h().db.kysely.selectFrom('PeopleGroup').select('Id').where('Id', 'in', ids).execute();
    // The winner's two rows went; the loser's other row stayed (all or none).
    expect(left.map((r) => r.Id)).toEqual(replies[0]!.status === 200 ? [c] : [a]);
  });

  it('lets one of 10 parallel refunds of one order through', async () => {
    const id = await insertParkOrder(h(), { areaId: 1, state: 2 });
    const replies = await parallel(10, (i) =>
      call(h().app, 'POST', '/api/ParkOrder/Refund', {
        token: admin,
        area: 1,
        body: { Id: id, Reason: `第${i + 1}次` },
      }),
    );
    noServerErrors(replies);
    expect(statuses(replies)).toEqual({ 200: 1, 409: 9 });
    expect(await auditRows(h(), 'ParkOrder', id)).toHaveLength(1);
  });
});
