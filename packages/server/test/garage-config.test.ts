import { beforeAll, expect, it } from 'vitest';
import { auditRows, garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb } from './support/harness.ts';

type Errors = { Errors: { Field: string; Message: string }[] };
type PageOf<T> = { Items: T[]; Total: number };

interface Zone {
  Id: number;
  Name: string;
  ChargeRuleIds: number[];
  ChargeRules: { Id: number; Name: string }[];
  SocketsTotal: number;
  SocketsOccupied: number;
  HostCount: number;
}
interface Rule {
  Id: number;
  Name: string;
  ChargeType: number;
  PriceUnitKey: string | null;
  ParkAreaIds: number[];
}
interface Host {
  Id: number;
  Name: string;
  SerialNumber: string;
  HasPassword: boolean;
  SocketCount: number;
  ZoneName: string;
  [key: string]: unknown;
}
interface Socket {
  Id: number;
  PortNumber: number;
  State: number;
  StateColor: string;
  StateGroup: string;
  Disabled: boolean;
  HostName: string;
  ZoneName: string;
}
interface Pass {
  Id: number;
  StartAt: string;
  EndAt: string;
  AmountCents: number;
  Status: string;
  RenewedFromId: number | null;
  UserName: string;
}

const fields = (reply: { data: unknown }) => (reply.data as Errors).Errors.map((e) => e.Field).sort();

describeEachDb('garage configuration: zones, rules, hosts, sockets, vehicles, passes', (h) => {
  let admin = '';
  let user = '';
  const get = <T>(url: string, query?: Record<string, string | number | boolean>, token = admin) =>
    call<T>(h().app, 'GET', url, { token, area: 1, ...(query ? { query } : {}) });
  const post = <T>(url: string, body: unknown, token = admin) =>
    call<T>(h().app, 'POST', url, { token, area: 1, body });
  const put = <T>(url: string, body: unknown, token = admin) =>
    call<T>(h().app, 'PUT', url, { token, area: 1, body });

  beforeAll(async () => {
    ({ admin, user } = await garageTokens(h()));
  });

  it('has the demo: zones with occupancy, rules of every type, 20+ hosts of 10 sockets', async () => {
    const zones = await get<PageOf<Zone>>('/api/ParkArea');
    expect(zones.data.Total).toBe(4);
    for (const zone of zones.data.Items) {
      expect(zone.SocketsTotal).toBe(zone.HostCount * 10);
      expect(zone.ChargeRules.length).toBeGreaterThanOrEqual(5);
    }
    const rules = await get<PageOf<Rule>>('/api/ChargeRule', { PageSize: 100 });
    expect(new Set(rules.data.Items.map((r) => r.ChargeType))).toEqual(new Set([0, 1, 2, 3]));
    const hosts = [1, 2].map((area) =>
      call<PageOf<Host>>(h().app, 'GET', '/api/ChargeHost', { token: admin, area, query: { PageSize: 100 } }),
    );
    const [one, two] = await Promise.all(hosts);
    expect(one!.data.Total + two!.data.Total).toBeGreaterThanOrEqual(20);
    expect([...one!.data.Items, ...two!.data.Items].every((host) => host.SocketCount === 10)).toBe(true);
  });

  let zoneId = 0;
  let ruleId = 0;
  it('creates a zone with rules and refuses two enabled temporary rules of one type in a zone (409)', async () => {
    const charging = await post<Rule>('/api/ChargeRule', {
      Name: '测试充电按度',
      ChargeType: 3,
      TemporaryChargeType: 2,
      UnitPriceCents: 150,
      FreeMinutes: 3,
      CapCents: 1000,
    });
    expect(charging.status, charging.msg).toBe(200);
    expect(charging.data).toMatchObject({ PriceUnitKey: 'unit.kWh', ParkAreaIds: [] });
    ruleId = charging.data.Id;
    const zone = await post<Zone>('/api/ParkArea', {
      Name: '测试车棚',
      Capacity: 40,
      Location: '测试楼下',
      ChargeRuleIds: [ruleId],
    });
    expect(zone.status, zone.msg).toBe(200);
    expect(zone.data).toMatchObject({ ChargeRuleIds: [ruleId], SocketsTotal: 0 });
    zoneId = zone.data.Id;

    const second = await post<Rule>('/api/ChargeRule', {
      Name: '测试充电按次',
      ChargeType: 3,
      TemporaryChargeType: 3,
      UnitPriceCents: 100,
      ParkAreaIds: [zoneId],
    });
    expect(second.status).toBe(409);
    expect(second.msg).toBe(
      '区域「测试车棚」同时启用了多条临时充电规则：测试充电按度、测试充电按次。每个区域每种临时收费只能启用一条',
    );
    expect((await get<PageOf<Rule>>('/api/ChargeRule', { Name: '测试充电按次' })).data.Total).toBe(0);

    const rules = await get<Zone>(`/api/ParkArea/${zoneId}`);
    expect(rules.data.ChargeRuleIds).toEqual([ruleId]);
    const monthly = await post<Rule>('/api/ChargeRule', {
      Name: '测试月卡',
      ChargeType: 1,
      TimeUnit: 2,
      UnitPriceCents: 2500,
      ParkAreaIds: [zoneId],
    });
    expect(monthly.status).toBe(200);
    expect(monthly.data).toMatchObject({ PriceUnitKey: 'enum.timeUnit.2', ParkAreaIds: [zoneId] });
  });

  it('checks rule terms by charge type (400 per field) and translates the messages', async () => {
    const bad = await call(h().app, 'POST', '/api/ChargeRule', {
      token: admin,
      area: 1,
      lang: 'en',
      body: {
        Name: '错误月卡',
        ChargeType: 2,
        TemporaryChargeType: 1,
        FreeMinutes: 10,
        CapCents: 100,
        UnitPriceCents: 10,
      },
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['CapCents', 'FreeMinutes', 'TemporaryChargeType', 'TimeUnit']);
    expect((bad.data as Errors).Errors.find((e) => e.Field === 'TimeUnit')!.Message).toBe(
      'Choose the time unit of the monthly rule',
    );
    const parking = await post('/api/ChargeRule', {
      Name: '按度停车',
      ChargeType: 0,
      TemporaryChargeType: 2,
      UnitPriceCents: 1,
    });
    expect(parking.status).toBe(400);
    expect(parking.msg).toContain('临时停车只能计时或按次收费');
    const shape = await post('/api/ChargeRule', { Name: '', ChargeType: 9, UnitPriceCents: -1, CapCents: 0 });
    expect(fields(shape)).toEqual(['CapCents', 'ChargeType', 'Name', 'UnitPriceCents']);
  });

  it('locks the charge type of a rule with orders (409) but lets its price change; enabling re-checks conflicts', async () => {
    const used = await h()
      .db.kysely.selectFrom('ChargeOrder')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'ChargeOrder.ChargeRuleId')
      .selectAll('ChargeRule')
      .where('ChargeOrder.AreaId', '=', 1)
      .where('ChargeRule.ChargeType', '=', 3)
      // Not the demo's power-band rule: a parking type is refused its kept dimensions (400) before the lock.
      .where('ChargeRule.PowerBands', 'is', null)
      .executeTakeFirstOrThrow();
    const terms = {
      Id: used.Id,
      Name: used.Name,
      TemporaryChargeType: used.TemporaryChargeType,
      UnitPriceCents: used.UnitPriceCents + 10,
      FreeMinutes: used.FreeMinutes,
      CapCents: used.CapCents,
    };
    const locked = await put('/api/ChargeRule', { ...terms, ChargeType: 0, TemporaryChargeType: 1 });
    expect(locked.status).toBe(409);
    const repriced = await put<Rule>('/api/ChargeRule', { ...terms, ChargeType: 3 });
    expect(repriced.status, repriced.msg).toBe(200);

    // The demo's disabled night rule shares a zone with an enabled charging rule: enabling it conflicts.
    const night = await get<PageOf<Rule & { Disabled: boolean }>>('/api/ChargeRule', { Disabled: true });
    const rule = night.data.Items.find((r) => r.ChargeType === 3 && r.ParkAreaIds.length > 0)!;
    const enable = await call(h().app, 'POST', '/api/ChargeRule/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: rule.Id, Disabled: false },
    });
    expect(enable.status).toBe(409);
    expect((await get<{ Disabled: boolean }>(`/api/ChargeRule/${rule.Id}`)).data.Disabled).toBe(true);
  });

  let hostId = 0;
  it('creates a host with its sockets, checks the connection per system type and never returns the password', async () => {
    const missing = await post('/api/ChargeHost', {
      SerialNumber: 'TEST0001',
      Name: '测试主机',
      ParkAreaId: zoneId,
      PortCount: 4,
      ChargingSystemType: 1,
      Endpoint: 'not a url',
    });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['Account', 'Endpoint', 'Password']);
    const unused = await post('/api/ChargeHost', {
      SerialNumber: 'TEST0001',
      Name: '测试主机',
      ParkAreaId: zoneId,
      PortCount: 4,
      ChargingSystemType: 0,
      Account: 'someone',
    });
    expect(fields(unused)).toEqual(['Account']);

    const host = await post<Host>('/api/ChargeHost', {
      SerialNumber: 'TEST0001',
      Name: '测试主机',
      ParkAreaId: zoneId,
      PortCount: 4,
      ChargingSystemType: 2,
      Endpoint: 'https://api.example.cn/charge',
      Password: 'S3cret-key',
    });
    expect(host.status, host.msg).toBe(200);
    expect(host.data).toMatchObject({
      HasPassword: true,
      SocketCount: 4,
      ZoneName: '测试车棚',
      Online: false,
    });
    expect(JSON.stringify(host.data)).not.toContain('S3cret');
    hostId = host.data.Id;
    const audit = await auditRows(h(), 'ChargeHost', hostId);
    expect(audit[0]!.After).not.toContain('S3cret');

    // An update without the password keeps it; the serial is unique across areas.
    const update = await put<Host>('/api/ChargeHost', {
      Id: hostId,
      SerialNumber: 'TEST0001',
      Name: '测试主机',
      ParkAreaId: zoneId,
      PortCount: 6,
      ChargingSystemType: 2,
      Endpoint: 'https://api.example.cn/charge/v2',
    });
    expect(update.status, update.msg).toBe(200);
    expect(update.data.HasPassword).toBe(true);
    const stored = await h()
      .db.kysely.selectFrom('ChargeHost')
      .select('Password')
      .where('Id', '=', hostId)
      .executeTakeFirstOrThrow();
    expect(stored.Password).toBe('S3cret-key');
    const otherArea = await h()
      .db.kysely.selectFrom('ChargeHost')
      .select('SerialNumber')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const taken = await post('/api/ChargeHost', {
      SerialNumber: otherArea.SerialNumber,
      Name: '重复序列号',
      ParkAreaId: zoneId,
      PortCount: 1,
      ChargingSystemType: 0,
    });
    expect(taken.status).toBe(409);
    expect(taken.msg).toBe('该序列号的充电主机已登记');

    const zone = await get<Zone>(`/api/ParkArea/${zoneId}`);
    expect(zone.data).toMatchObject({ HostCount: 1, SocketsTotal: 4 });
  });

  it('keeps socket ports unique per host and within the port count', async () => {
    const sockets = await get<PageOf<Socket>>('/api/ChargeEquipment', {
      ChargeHostId: hostId,
      SortField: 'PortNumber',
    });
    expect(sockets.data.Items.map((s) => s.PortNumber)).toEqual([1, 2, 3, 4]);
    // The host is of the charging-API type and its charge point never connected: unknown / offline (255),
    // not the idle state stored at creation (docs/chargers.md, "Liveness").
    expect(sockets.data.Items[0]).toMatchObject({
      State: 255,
      StateColor: '#546E7A',
      StateGroup: 'offline',
      HostName: '测试主机',
    });
    const duplicate = await post('/api/ChargeEquipment', { ChargeHostId: hostId, PortNumber: 2 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.msg).toBe('该主机已有此端口号的插座');
    const beyond = await post('/api/ChargeEquipment', { ChargeHostId: hostId, PortNumber: 7 });
    expect(beyond.status).toBe(400);
    expect(beyond.msg).toContain('端口号不能大于主机端口数 6');
    const fifth = await post<Socket>('/api/ChargeEquipment', { ChargeHostId: hostId, PortNumber: 5 });
    expect(fifth.status).toBe(200);
    const shrink = await put('/api/ChargeHost', {
      Id: hostId,
      SerialNumber: 'TEST0001',
      Name: '测试主机',
      ParkAreaId: zoneId,
      PortCount: 4,
      ChargingSystemType: 2,
    });
    expect(shrink.status).toBe(409);
    expect(shrink.msg).toBe('端口数不能小于已有插座的最大端口号 5');
  });

  it('disables a socket into state 12 and back to idle; refuses while a session runs (409)', async () => {
    const socket = (await get<PageOf<Socket>>('/api/ChargeEquipment', { ChargeHostId: hostId })).data
      .Items[0]!;
    const off = await call(h().app, 'POST', '/api/ChargeEquipment/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: socket.Id, Disabled: true },
    });
    expect(off.status).toBe(200);
    expect((await get<Socket>(`/api/ChargeEquipment/${socket.Id}`)).data).toMatchObject({
      Disabled: true,
      State: 12,
      StateGroup: 'disabled',
      StateColor: '#616161',
    });
    const on = await call(h().app, 'POST', '/api/ChargeEquipment/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: socket.Id, Disabled: false },
    });
    expect(on.status).toBe(200);
    // Enabled again: idle is stored, but its charge point never connected, so the API says unknown (255).
    expect((await get<Socket>(`/api/ChargeEquipment/${socket.Id}`)).data).toMatchObject({
      Disabled: false,
      State: 255,
    });
    const stored = await h()
      .db.kysely.selectFrom('ChargeEquipment')
      .select('State')
      .where('Id', '=', socket.Id)
      .executeTakeFirstOrThrow();
    expect(stored.State).toBe(0);
    // Each change is followed by ChangeAvailability to the charge point, audited with its answer (here "not
    // sent": the host is not connected).
    expect((await auditRows(h(), 'ChargeEquipment', socket.Id)).map((a) => a.Action)).toEqual([
      'status',
      'changeAvailability',
      'status',
      'changeAvailability',
    ]);

    const running = await h()
      .db.kysely.selectFrom('ChargeRecord')
      .select('ChargeEquipmentId')
      .where('AreaId', '=', 1)
      .where('EndAt', 'is', null)
      .executeTakeFirstOrThrow();
    const busy = await call(h().app, 'POST', '/api/ChargeEquipment/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: running.ChargeEquipmentId, Disabled: true },
    });
    expect(busy.status).toBe(409);
    expect(busy.msg).toBe('插座正在充电，请先强制断电再禁用');
    expect((await get<Socket>(`/api/ChargeEquipment/${running.ChargeEquipmentId}`)).data.Disabled).toBe(
      false,
    );
  });

  it('deletes a host with its sockets, unless they have history (409); a zone with hosts stays (409)', async () => {
    const inUse = await call(h().app, 'DELETE', `/api/ParkArea/${zoneId}`, { token: admin, area: 1 });
    expect(inUse.status).toBe(409);
    expect(inUse.msg).toBe('仍有关联数据，无法删除：充电主机 1');
    const withHistory = await h()
      .db.kysely.selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .select('ChargeEquipment.ChargeHostId')
      .where('ChargeRecord.AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    const refused = await call(h().app, 'DELETE', `/api/ChargeHost/${withHistory.ChargeHostId}`, {
      token: admin,
      area: 1,
    });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/^仍有关联数据，无法删除：充电记录 \d+/);

    const removed = await call(h().app, 'DELETE', `/api/ChargeHost/${hostId}`, { token: admin, area: 1 });
    expect(removed.status).toBe(200);
    const left = await h()
      .db.kysely.selectFrom('ChargeEquipment')
      .select('Id')
      .where('ChargeHostId', '=', hostId)
      .execute();
    expect(left).toEqual([]);
    const zoneGone = await call(h().app, 'DELETE', `/api/ParkArea/${zoneId}`, { token: admin, area: 1 });
    expect(zoneGone.status).toBe(200);
    // The rule links went with the zone; the rule stays.
    expect((await get<Rule>(`/api/ChargeRule/${ruleId}`)).data.ParkAreaIds).toEqual([]);
  });

  let vehicleId = 0;
  it('registers vehicles by plate with the shared plate rule, unique per area', async () => {
    const bad = await post('/api/Vehicle', { Plate: ' 浙A12345', Phone: '123', CardNumber: '1' }, user);
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['CardNumber', 'Phone', 'Plate']);
    expect(bad.msg).toContain('车牌号格式错误');
    const car = await post<{ Id: number; Plate: string; ActivePass: null }>(
      '/api/Vehicle',
      {
        Plate: '浙AD12345',
        OwnerName: '测试车主',
        Phone: '13800138000',
        CardHolderName: '测试车主',
        CardNumber: '0012345678',
      },
      user,
    );
    expect(car.status, car.msg).toBe(200);
    expect(car.data.ActivePass).toBeNull();
    vehicleId = car.data.Id;
    const again = await post('/api/Vehicle', { Plate: '浙AD12345' }, user);
    expect(again.status).toBe(409);
  });

  it('sells a pass with end and price computed by the server, renews it, refuses overlaps', async () => {
    const monthly = (await get<PageOf<Rule>>('/api/ChargeRule', { ChargeType: 1, Name: '月租停车（月卡）' }))
      .data.Items[0]!;
    const start = '2026-01-31T02:00:00.000Z'; // 31 January 10:00 in Shanghai
    const pass = await post<Pass>(
      '/api/MonthlyPass',
      { VehicleId: vehicleId, ChargeRuleId: monthly.Id, StartAt: start, Units: 1 },
      user,
    );
    expect(pass.status, pass.msg).toBe(200);
    // One month from 31 January ends on the last day of February, same wall time.
    expect(pass.data).toMatchObject({
      StartAt: start,
      EndAt: '2026-02-28T02:00:00.000Z',
      AmountCents: 3000,
      Status: 'Expired',
      UserName: 'bikeuser',
    });

    const overlap = await post(
      '/api/MonthlyPass',
      { VehicleId: vehicleId, ChargeRuleId: monthly.Id, StartAt: '2026-02-15T00:00:00Z', Units: 1 },
      user,
    );
    expect(overlap.status).toBe(409);
    // Renewing an expired pass starts now.
    const renewed = await post<Pass>('/api/MonthlyPass/Renew', { Id: pass.data.Id, Units: 3 }, user);
    expect(renewed.status, renewed.msg).toBe(200);
    expect(renewed.data).toMatchObject({
      StartAt: new Date(h().clock.now()).toISOString(),
      AmountCents: 9000,
      Status: 'Active',
      RenewedFromId: pass.data.Id,
    });
    const twice = await post('/api/MonthlyPass/Renew', { Id: pass.data.Id, Units: 1 }, user);
    expect(twice.status).toBe(409);
    const chained = await post<Pass>('/api/MonthlyPass/Renew', { Id: renewed.data.Id, Units: 1 }, user);
    expect(chained.data).toMatchObject({ StartAt: renewed.data.EndAt, Status: 'Upcoming' });

    const vehicle = await get<{ ActivePass: { Id: number } | null }>(
      `/api/Vehicle/${vehicleId}`,
      undefined,
      user,
    );
    expect(vehicle.data.ActivePass?.Id).toBe(renewed.data.Id);

    const temporary = (await get<PageOf<Rule>>('/api/ChargeRule', { ChargeType: 3 })).data.Items[0]!;
    const wrongRule = await post(
      '/api/MonthlyPass',
      { VehicleId: vehicleId, ChargeRuleId: temporary.Id, StartAt: start, Units: 1 },
      user,
    );
    expect(wrongRule.status).toBe(400);
    expect(wrongRule.msg).toContain('月卡只能使用月租类收费规则');

    // Deleting a sold pass is a correction for the Admin code only; a vehicle with passes stays.
    expect(
      (await call(h().app, 'DELETE', `/api/MonthlyPass/${chained.data.Id}`, { token: user, area: 1 })).status,
    ).toBe(403);
    expect(
      (await call(h().app, 'DELETE', `/api/MonthlyPass/${chained.data.Id}`, { token: admin, area: 1 }))
        .status,
    ).toBe(200);
    const vehicleDelete = await call(h().app, 'DELETE', `/api/Vehicle/${vehicleId}`, {
      token: user,
      area: 1,
    });
    expect(vehicleDelete.status).toBe(409);
    expect(vehicleDelete.msg).toBe('仍有关联数据，无法删除：月卡 2');
  });

  it('refuses to delete an area that holds garage data (409 names the garage tables)', async () => {
    const superadmin = await call<{ token: string }>(h().app, 'POST', '/api/Auth/login', {
      body: { username: 'superadmin', password: 'Demo@2026' },
    });
    const reply = await call(h().app, 'DELETE', '/api/AreaInfo', {
      token: superadmin.data.token,
      query: { Id: 2 },
    });
    expect(reply.status).toBe(409);
    expect(reply.msg).toContain('停车区域');
    expect(reply.msg).toContain('充电订单');
  });
});
