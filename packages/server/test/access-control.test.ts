import { expect, it } from 'vitest';
import { markSending } from '../src/modules/access-control/index.ts';
import { systemActor } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

type Page<T> = { Items: T[]; Total: number };
interface Holder {
  Id: number;
  Name: string;
  CardNumbers: string[];
  Cards: { Id: number; CardNumber: string; CardValue: number }[];
  ValidTo: string;
  Disabled: boolean;
}
interface Auth {
  Id: number;
  CardUserId: number;
  ChannelId: number;
  IssueStatus: number;
  Revoked: boolean;
  ValidFrom: string;
  ValidTo: string;
  CustomValidity: boolean;
}

const DAY = 86_400_000;

/** Free cards, a WG two-way device and the third-party (protocol Other) device of area 1. */
async function fixtures(h: Harness) {
  const k = h.db.kysely;
  const cards = await k
    .selectFrom('Card')
    .select(['Id', 'CardNumber'])
    .where('AreaId', '=', 1)
    .where('CardUserId', 'is', null)
    .orderBy('Id')
    .limit(6)
    .execute();
  const channelOf = async (protocol: number) =>
    k
      .selectFrom('AccessControlChannel')
      .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
      .select(['AccessControlChannel.Id', 'AccessControlChannel.DeviceId'])
      .where('AccessControlChannel.AreaId', '=', 1)
      .where('AccessControlDevice.Protocol', '=', protocol)
      .orderBy('AccessControlChannel.Id')
      .executeTakeFirstOrThrow();
  return { cards, wg: await channelOf(0), other: await channelOf(1) };
}

async function authOf(h: Harness, holderId: number, channelId: number) {
  return h.db.kysely
    .selectFrom('CardUserLinkChannel')
    .select(['Id', 'IssueStatus', 'Revoked', 'ValidTo'])
    .where('CardUserId', '=', holderId)
    .where('ChannelId', '=', channelId)
    .executeTakeFirst();
}

async function changes(h: Harness, holderId: number) {
  return h.db.kysely
    .selectFrom('ChangeRecord')
    .select(['ChangeType', 'Detail', 'OperatorName', 'At', 'HolderName'])
    .where('CardUserId', '=', holderId)
    .orderBy('Id')
    .execute();
}

describeEachDb('access control: lifecycle and rules', (h) => {
  let token: string;
  let holder: Holder;
  let fx: Awaited<ReturnType<typeof fixtures>>;
  const form = () => ({
    Name: '测试持卡人',
    Phone: '13800138000',
    CitizenId: '11010519491231002X',
    Nation: 1,
    ValidFrom: new Date(h().clock.now() - DAY).toISOString(),
    ValidTo: new Date(h().clock.now() + 365 * DAY).toISOString(),
  });

  it('adds a holder with a card, recording an "add user" change', async () => {
    token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    fx = await fixtures(h());
    const created = await call<Holder>(h().app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      body: { ...form(), CardIds: [fx.cards[0]!.Id] },
    });
    expect(created.status, created.msg).toBe(200);
    holder = created.data;
    expect(holder.CardNumbers).toEqual([fx.cards[0]!.CardNumber]);
    const [add] = await changes(h(), holder.Id);
    expect(add).toMatchObject({ ChangeType: 0, OperatorName: '郑国强', HolderName: '测试持卡人' });
    expect(JSON.parse(add!.Detail!)).toContainEqual({ Field: 'Name', Before: null, After: '测试持卡人' });
  });

  it('refuses an invalid and then accepts a valid citizen id, with both shared messages', async () => {
    const bad = await call(h().app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      body: { ...form(), CitizenId: '110105194912310021' },
    });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('身份证号码校验不通过');
    const shape = await call(h().app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      lang: 'en',
      body: { ...form(), Name: 'Tom', CitizenId: '1101051949' },
    });
    expect(shape.status).toBe(400);
    expect((shape.data as { Errors: { Field: string }[] }).Errors.map((e) => e.Field).sort()).toEqual([
      'CitizenId',
      'Name',
    ]);
    const dup = await call(h().app, 'POST', '/api/CardUser', { token, area: 1, body: form() });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe('该身份证号已登记为本区域的持卡人');
  });

  it('grant → pending issue (1), or no issue needed (0) on a no-sync device', async () => {
    const granted = await call<{ Granted: number }>(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [fx.wg.Id, fx.other.Id] },
    });
    expect(granted.status, granted.msg).toBe(200);
    expect(granted.data).toEqual({ Granted: 2, Updated: 0, Unchanged: 0 });
    expect((await authOf(h(), holder.Id, fx.wg.Id))?.IssueStatus).toBe(1);
    expect((await authOf(h(), holder.Id, fx.other.Id))?.IssueStatus).toBe(0);
    const again = await call<{ Unchanged: number }>(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [fx.wg.Id] },
    });
    expect(again.data).toEqual({ Granted: 0, Updated: 0, Unchanged: 1 });
  });

  it('extend → "user extension" change and a renewal record with old and new end; live rows pending update (2)', async () => {
    const before = await h()
      .db.kysely.selectFrom('CardUser')
      .select('ValidTo')
      .where('Id', '=', holder.Id)
      .executeTakeFirstOrThrow();
    const newEnd = Number(before.ValidTo) + 180 * DAY;
    h().clock.advance(60_000);
    const extended = await call(h().app, 'POST', '/api/CardUser/Extend', {
      token,
      area: 1,
      body: { Ids: [holder.Id], ValidTo: new Date(newEnd).toISOString(), Remark: '续租半年' },
    });
    expect(extended.status, extended.msg).toBe(200);
    const renewal = await h()
      .db.kysely.selectFrom('RenewalRecord')
      .selectAll()
      .where('CardUserId', '=', holder.Id)
      .executeTakeFirstOrThrow();
    expect(renewal).toMatchObject({
      OldValidTo: Number(before.ValidTo),
      NewValidTo: newEnd,
      OperatorName: '郑国强',
      Remark: '续租半年',
      At: h().clock.now(),
    });
    expect((await changes(h(), holder.Id)).map((c) => c.ChangeType)).toEqual([0, 4]);
    expect((await authOf(h(), holder.Id, fx.wg.Id))?.IssueStatus).toBe(2);
    expect((await authOf(h(), holder.Id, fx.other.Id))?.IssueStatus).toBe(0);

    const list = await call<Page<{ HolderName: string; OldValidTo: string; NewValidTo: string }>>(
      h().app,
      'GET',
      '/api/RenewalRecord',
      { token, area: 1, query: { CardUserId: holder.Id } },
    );
    expect(list.data.Items).toEqual([
      expect.objectContaining({
        HolderName: '测试持卡人',
        OldValidTo: new Date(Number(before.ValidTo)).toISOString(),
        NewValidTo: new Date(newEnd).toISOString(),
      }),
    ]);
    const earlier = await call(h().app, 'POST', '/api/CardUser/Extend', {
      token,
      area: 1,
      body: { Ids: [holder.Id], ValidTo: new Date(newEnd - DAY).toISOString() },
    });
    expect(earlier.status).toBe(400);
    expect(earlier.msg).toContain('新有效期结束时间必须晚于原结束时间');
  });

  it('a change of card turns an issued authorisation into pending update (2); 3 comes only from the sync', async () => {
    // What the device sync of the later issue will do once the controller confirms.
    await h()
      .db.kysely.updateTable('CardUserLinkChannel')
      .set({ IssueStatus: 3, SentToDevice: 1 })
      .where('CardUserId', '=', holder.Id)
      .where('ChannelId', '=', fx.wg.Id)
      .execute();
    const current = await call<Holder>(h().app, 'GET', `/api/CardUser/${holder.Id}`, { token, area: 1 });
    const edited = await call<Holder>(h().app, 'PUT', '/api/CardUser', {
      token,
      area: 1,
      body: {
        ...form(),
        Id: holder.Id,
        ValidFrom: (current.data as unknown as { ValidFrom: string }).ValidFrom,
        ValidTo: current.data.ValidTo,
        CardIds: [fx.cards[0]!.Id, fx.cards[1]!.Id],
      },
    });
    expect(edited.status, edited.msg).toBe(200);
    expect(edited.data.CardNumbers).toEqual([fx.cards[0]!.CardNumber, fx.cards[1]!.CardNumber]);
    expect((await authOf(h(), holder.Id, fx.wg.Id))?.IssueStatus).toBe(2);
    expect((await authOf(h(), holder.Id, fx.other.Id))?.IssueStatus).toBe(0);
    const last = (await changes(h(), holder.Id)).at(-1)!;
    expect(last.ChangeType).toBe(1);
    expect(JSON.parse(last.Detail!)).toEqual([
      {
        Field: 'Cards',
        Before: fx.cards[0]!.CardNumber,
        After: `${fx.cards[0]!.CardNumber},${fx.cards[1]!.CardNumber}`,
      },
    ]);
    const noSuchField = await call(h().app, 'PUT', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      body: { Id: 1, ValidFrom: null, ValidTo: null, IssueStatus: 3 },
    });
    expect(noSuchField.status).toBe(400);
  });

  it('a validity change of one authorisation → 2, shown as the effective range', async () => {
    const auth = (await authOf(h(), holder.Id, fx.wg.Id))!;
    await h()
      .db.kysely.updateTable('CardUserLinkChannel')
      .set({ IssueStatus: 3, SentToDevice: 1 })
      .where('Id', '=', auth.Id)
      .execute();
    const end = h().clock.now() + 30 * DAY;
    const changed = await call(h().app, 'PUT', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      body: { Id: auth.Id, ValidFrom: null, ValidTo: new Date(end).toISOString() },
    });
    expect(changed.status, changed.msg).toBe(200);
    const list = await call<Page<Auth>>(h().app, 'GET', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      query: { CardUserId: holder.Id, ChannelId: fx.wg.Id },
    });
    expect(list.data.Items[0]).toMatchObject({
      IssueStatus: 2,
      CustomValidity: true,
      ValidTo: new Date(end).toISOString(),
    });
  });

  it('disable → pending deletion (-1) and a "disable user" change; enable → pending issue (1), "enable user"', async () => {
    const off = await call(h().app, 'POST', '/api/CardUser/SetStatus', {
      token,
      area: 1,
      query: { Id: holder.Id, Disabled: 'true' },
    });
    expect(off.status, off.msg).toBe(200);
    expect((await authOf(h(), holder.Id, fx.wg.Id))?.IssueStatus).toBe(-1);
    expect((await authOf(h(), holder.Id, fx.other.Id))?.IssueStatus).toBe(0);
    const refused = await call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [fx.wg.Id] },
    });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe('持卡人 测试持卡人 已禁用，不能授权');
    const on = await call(h().app, 'POST', '/api/CardUser/SetStatus', {
      token,
      area: 1,
      query: { Id: holder.Id, Disabled: 'false' },
    });
    expect(on.status).toBe(200);
    expect((await authOf(h(), holder.Id, fx.wg.Id))?.IssueStatus).toBe(1);
    const again = await call(h().app, 'POST', '/api/CardUser/SetStatus', {
      token,
      area: 1,
      query: { Id: holder.Id, Disabled: 'false' },
    });
    expect(again.status).toBe(200);
    expect((await changes(h(), holder.Id)).map((c) => c.ChangeType)).toEqual([0, 4, 1, 2, 3]);
  });

  it('revoke of an issued one → pending deletion (-1), kept revoked through disable and enable; a no-sync row is removed', async () => {
    const wg = (await authOf(h(), holder.Id, fx.wg.Id))!;
    const other = (await authOf(h(), holder.Id, fx.other.Id))!;
    const revoked = await call<{ Revoked: number; Removed: number }>(
      h().app,
      'POST',
      '/api/CardUserLinkChannel/Revoke',
      { token, area: 1, body: { Ids: [wg.Id, other.Id] } },
    );
    expect(revoked.data).toEqual({ Revoked: 1, Removed: 1 });
    expect(await authOf(h(), holder.Id, fx.wg.Id)).toMatchObject({ IssueStatus: -1, Revoked: 1 });
    expect(await authOf(h(), holder.Id, fx.other.Id)).toBeUndefined();
    // The sync confirms the deletion; a disable and an enable must not bring it back.
    await h()
      .db.kysely.updateTable('CardUserLinkChannel')
      .set({ IssueStatus: -2, SentToDevice: 0 })
      .where('Id', '=', wg.Id)
      .execute();
    for (const Disabled of ['true', 'false'])
      await call(h().app, 'POST', '/api/CardUser/SetStatus', {
        token,
        area: 1,
        query: { Id: holder.Id, Disabled },
      });
    expect(await authOf(h(), holder.Id, fx.wg.Id)).toMatchObject({ IssueStatus: -2, Revoked: 1 });
    const regrant = await call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [fx.wg.Id] },
    });
    expect(regrant.data).toEqual({ Granted: 1, Updated: 0, Unchanged: 0 });
    expect(await authOf(h(), holder.Id, fx.wg.Id)).toMatchObject({ IssueStatus: 1, Revoked: 0 });
  });

  it('a grant the controller never got needs no deletion there: revoke and disable give "deletion succeeded" at once', async () => {
    const created = await call<Holder>(h().app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      body: { ...form(), Name: '未下发', CitizenId: null, CardIds: [fx.cards[3]!.Id] },
    });
    expect(created.status, created.msg).toBe(200);
    const id = created.data.Id;
    const grant = () =>
      call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
        token,
        area: 1,
        body: { CardUserId: id, ChannelIds: [fx.wg.Id] },
      });
    const revoke = async () => {
      const auth = (await authOf(h(), id, fx.wg.Id))!;
      const answer = await call(h().app, 'POST', '/api/CardUserLinkChannel/Revoke', {
        token,
        area: 1,
        body: { Ids: [auth.Id] },
      });
      expect(answer.status, answer.msg).toBe(200);
    };
    expect((await grant()).status).toBe(200);
    expect(await authOf(h(), id, fx.wg.Id)).toMatchObject({ IssueStatus: 1 });
    await revoke();
    expect(await authOf(h(), id, fx.wg.Id)).toMatchObject({ IssueStatus: -2, Revoked: 1 });

    // Granted again and changed, still never sent: the holder's disable withdraws it without the device.
    expect((await grant()).status).toBe(200);
    const setStatus = (Disabled: string) =>
      call(h().app, 'POST', '/api/CardUser/SetStatus', { token, area: 1, query: { Id: id, Disabled } });
    expect((await setStatus('true')).status).toBe(200);
    expect(await authOf(h(), id, fx.wg.Id)).toMatchObject({ IssueStatus: -2, Revoked: 0 });
    expect((await setStatus('false')).status).toBe(200);
    expect(await authOf(h(), id, fx.wg.Id)).toMatchObject({ IssueStatus: 1 });

    // Once a sync pass has begun writing the device's pending rows, the controller may hold it: a revoke
    // waits for the controller to confirm the removal.
    await markSending(
      { db: h().db, clock: h().clock, lang: 'zh', actor: systemActor('test'), areaId: 1 },
      fx.wg.DeviceId,
    );
    await revoke();
    expect(await authOf(h(), id, fx.wg.Id)).toMatchObject({ IssueStatus: -1, Revoked: 1 });
  });

  it('counts authorisations per device and issue status', async () => {
    const counts = await call<{ DeviceId: number; Counts: Record<string, number>; Total: number }[]>(
      h().app,
      'GET',
      '/api/CardUserLinkChannel/DeviceStatusCounts',
      { token, area: 1 },
    );
    const rows = await h()
      .db.kysely.selectFrom('CardUserLinkChannel')
      .select(['DeviceId', 'IssueStatus'])
      .where('AreaId', '=', 1)
      .execute();
    const device = counts.data.find((d) => d.DeviceId === fx.wg.DeviceId)!;
    expect(Object.keys(device.Counts).sort()).toEqual(['-1', '-2', '0', '1', '2', '3']);
    for (const status of [-2, -1, 0, 1, 2, 3])
      expect(device.Counts[String(status)]).toBe(
        rows.filter((r) => r.DeviceId === fx.wg.DeviceId && r.IssueStatus === status).length,
      );
    // The demo shows every status in each area.
    const all = new Set(rows.map((r) => r.IssueStatus));
    expect([...all].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3]);
  });

  it('a card cannot be given to two holders', async () => {
    const taken = await call(h().app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      body: { ...form(), Name: '第二持卡人', CitizenId: null, CardIds: [fx.cards[0]!.Id] },
    });
    expect(taken.status).toBe(409);
    expect(taken.msg).toBe(`卡号 ${fx.cards[0]!.CardNumber} 已发放给其他持卡人`);
    expect(
      await h().db.kysely.selectFrom('CardUser').select('Id').where('Name', '=', '第二持卡人').execute(),
    ).toEqual([]);
    const card = await h()
      .db.kysely.selectFrom('Card')
      .select('CardUserId')
      .where('Id', '=', fx.cards[0]!.Id)
      .executeTakeFirstOrThrow();
    expect(card.CardUserId).toBe(holder.Id);
    // The SuperAdmin cannot return a held card to the pool either.
    const superadmin = await login(h().app, 'superadmin', DEMO_PASSWORD);
    const unassign = await call(h().app, 'POST', '/api/CardRegistration/Unassign', {
      token: superadmin,
      body: { Ids: [fx.cards[0]!.Id] },
    });
    expect(unassign.status).toBe(409);
  });

  it('a door number beyond the device type is refused; a door and direction belong to one channel', async () => {
    const single = await h()
      .db.kysely.selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('Type', '=', 1)
      .where('Protocol', '=', 0)
      .executeTakeFirstOrThrow();
    const beyond = await call(h().app, 'POST', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: { DeviceId: single.Id, DoorNumber: 2, Name: '不存在的门', Direction: 1 },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.msg).toContain('门号超出设备类型的门数（此设备最多 1 个门）');
    const taken = await call(h().app, 'POST', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: { DeviceId: single.Id, DoorNumber: 1, Name: '重复的进门', Direction: 1 },
    });
    expect(taken.status).toBe(409);
    const unspecified = await call(h().app, 'POST', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: { DeviceId: single.Id, DoorNumber: 0, Name: '备用读卡器', Direction: 0, ReaderType: 3 },
    });
    expect(unspecified.status, unspecified.msg).toBe(200);
  });

  it('registers WG devices by serial number: the first digit names the type, others are refused', async () => {
    const superadmin = await login(h().app, 'superadmin', DEMO_PASSWORD);
    const created = await call<
      { SerialNumber: string; Type: number; AreaId: number | null; ChannelCount: number }[]
    >(h().app, 'POST', '/api/DeviceRegistration', {
      token: superadmin,
      body: { SerialNumbers: '100000001,200000002,400000004', Protocol: 0, AreaId: 2 },
    });
    expect(created.status, created.msg).toBe(200);
    expect(created.data.map((d) => [d.SerialNumber, d.Type, d.AreaId, d.ChannelCount])).toEqual([
      ['100000001', 1, 2, 2],
      ['200000002', 2, 2, 4],
      ['400000004', 3, 2, 4],
    ]);
    const wrong = await call(h().app, 'POST', '/api/DeviceRegistration', {
      token: superadmin,
      body: { SerialNumbers: '100000005,300000003', Protocol: 0 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.msg).toContain('序列号 300000003 不是 WG 控制器');
    expect(
      await h()
        .db.kysely.selectFrom('AccessControlDevice')
        .select('Id')
        .where('SerialNumber', '=', '100000005')
        .execute(),
    ).toEqual([]);
    const spaces = await call(h().app, 'POST', '/api/DeviceRegistration', {
      token: superadmin,
      body: { SerialNumbers: '100000006, 100000007', Protocol: 0 },
    });
    expect(spaces.msg).toContain('必须全部为数字，多个序列号请用英文逗号分隔');
    const other = await call<{ Type: number }[]>(h().app, 'POST', '/api/DeviceRegistration', {
      token: superadmin,
      body: { SerialNumbers: '300000003', Protocol: 1, Type: 2 },
    });
    expect(other.data.map((d) => d.Type)).toEqual([2]);
    const again = await call(h().app, 'POST', '/api/DeviceRegistration', {
      token: superadmin,
      body: { SerialNumbers: '300000003', Protocol: 1 },
    });
    expect(again.status).toBe(409);
  });

  it('registers cards by number, list and range in their printed 10-digit form, all or none', async () => {
    const superadmin = await login(h().app, 'superadmin', DEMO_PASSWORD);
    const register = (body: Record<string, unknown>) =>
      call<{ Count: number }>(h().app, 'POST', '/api/CardRegistration', {
        token: superadmin,
        body: { CardType: 3, ...body },
      });
    expect((await register({ Mode: 'Single', CardNumber: '16777216' })).data.Count).toBe(1);
    expect((await register({ Mode: 'List', CardNumbers: '7000001,7000002' })).data.Count).toBe(2);
    expect((await register({ Mode: 'Range', StartNumber: '7100000', EndNumber: '7100009' })).data.Count).toBe(
      10,
    );
    const list = await call<Page<{ CardNumber: string; CardValue: number }>>(
      h().app,
      'GET',
      '/api/CardRegistration',
      {
        token: superadmin,
        query: { Keyword: '0016777216' },
      },
    );
    expect(list.data.Items).toEqual([expect.objectContaining({ CardNumber: '0016777216', CardValue: 1 })]);
    const overlap = await register({ Mode: 'Range', StartNumber: '7099999', EndNumber: '7100001' });
    expect(overlap.status).toBe(409);
    expect(overlap.msg).toBe('共 2 张卡已登记过：0007100000, 0007100001');
    expect(
      await h().db.kysely.selectFrom('Card').select('Id').where('CardNumber', '=', '0007099999').execute(),
    ).toEqual([]);
    const reversed = await register({ Mode: 'Range', StartNumber: '20', EndNumber: '10' });
    expect(reversed.msg).toContain('结束卡号不能小于起始卡号');
    const short = await register({ Mode: 'Single', CardNumber: '1' });
    expect(short.msg).toContain('卡号不正确');
    const huge = await register({ Mode: 'Single', CardNumber: '4294967296' });
    expect(huge.status).toBe(400);
  });

  it('refuses a 62-day swipe-record range and accepts 61 days', async () => {
    const end = h().clock.now();
    const ok = await call(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { StartTime: end - 61 * DAY, EndTime: end },
    });
    expect(ok.status, ok.msg).toBe(200);
    const tooLong = await call(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { StartTime: end - 62 * DAY, EndTime: end },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.msg).toBe('时间范围不能超过 61 天');
    for (const resource of ['DoorOpeningRecord', 'ChangeRecord']) {
      const noRange = await call(h().app, 'POST', '/api/ExportJob', {
        token,
        area: 1,
        body: { Resource: resource, Query: {} },
      });
      expect(noRange.msg).toBe('请先选择时间范围再导出');
      const long = await call(h().app, 'POST', '/api/ExportJob', {
        token,
        area: 1,
        body: { Resource: resource, Query: { StartTime: String(end - 62 * DAY), EndTime: String(end) } },
      });
      expect(long.msg).toBe('时间范围不能超过 61 天');
    }
  });

  it('fault reports move forward only, to the area staff, with notes', async () => {
    const device = fx.wg.DeviceId;
    const handlers = await call<{ Id: number; Name: string }[]>(
      h().app,
      'GET',
      '/api/FailureDeclarationRecord/Handlers',
      {
        token,
        area: 1,
      },
    );
    const staff = await h()
      .db.kysely.selectFrom('OperatorStaff')
      .select('Id')
      .where('AreaId', '=', 1)
      .execute();
    expect(handlers.data.map((s) => s.Id).sort()).toEqual(staff.map((s) => s.Id).sort());
    const created = await call<{ Id: number; Status: number }>(
      h().app,
      'POST',
      '/api/FailureDeclarationRecord',
      {
        token,
        area: 1,
        body: { DeviceId: device, ChannelId: fx.wg.Id, Description: '刷卡无反应' },
      },
    );
    expect(created.data.Status).toBe(0);
    const foreignStaff = await h()
      .db.kysely.selectFrom('OperatorStaff')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const badHandler = await call(h().app, 'POST', '/api/FailureDeclarationRecord/Progress', {
      token,
      area: 1,
      body: { Id: created.data.Id, Status: 1, HandlerId: foreignStaff.Id },
    });
    expect(badHandler.status).toBe(400);
    const progress = (body: Record<string, unknown>) =>
      call(h().app, 'POST', '/api/FailureDeclarationRecord/Progress', {
        token,
        area: 1,
        body: { Id: created.data.Id, ...body },
      });
    expect((await progress({ Status: 1, HandlerId: handlers.data[0]!.Id, Note: '已派人' })).status).toBe(200);
    expect((await progress({ Status: 0 })).msg).toBe('处理状态只能向前推进');
    expect((await progress({ Status: 2 })).msg).toContain('标记为已解决时请填写处理说明');
    expect((await progress({ Status: 2, Note: '更换读卡器' })).status).toBe(200);
    expect((await progress({ Status: 2, Note: '再改' })).status).toBe(409);
    const done = await call<{
      Status: number;
      HandlerName: string;
      History: { Status: number; Note: string }[];
      ResolvedAt: string;
    }>(h().app, 'GET', `/api/FailureDeclarationRecord/${created.data.Id}`, { token, area: 1 });
    expect(done.data).toMatchObject({ Status: 2, HandlerName: handlers.data[0]!.Name });
    expect(done.data.History.map((e) => [e.Status, e.Note])).toEqual([
      [0, '刷卡无反应'],
      [1, '已派人'],
      [2, '更换读卡器'],
    ]);
  });

  it('batch grant over a department includes its sub-departments unless told otherwise', async () => {
    const k = h().db.kysely;
    const parent = await k
      .selectFrom('Department')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('ParentId', 'is', null)
      .where('Name', '=', '物业服务中心')
      .executeTakeFirstOrThrow();
    const tree = await k
      .selectFrom('Department')
      .select('Id')
      .where('AreaId', '=', 1)
      .where((eb) => eb.or([eb('Id', '=', parent.Id), eb('ParentId', '=', parent.Id)]))
      .execute();
    const channel = await k
      .selectFrom('AccessControlChannel')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('Name', '=', '备用读卡器')
      .executeTakeFirstOrThrow();
    const own = await call<{ Holders: number }>(h().app, 'POST', '/api/CardUserLinkChannel/BatchGrant', {
      token,
      area: 1,
      body: { DepartmentId: parent.Id, IncludeSubDepartments: false, ChannelIds: [channel.Id] },
    });
    expect(own.status, own.msg).toBe(200);
    const all = await call<{
      Holders: number;
      Granted: number;
      SkippedDisabled: number;
      SkippedNoCard: number;
    }>(h().app, 'POST', '/api/CardUserLinkChannel/BatchGrant', {
      token,
      area: 1,
      body: { DepartmentId: parent.Id, ChannelIds: [channel.Id] },
    });
    expect(all.data.Holders).toBeGreaterThan(own.data.Holders);
    const members = await k
      .selectFrom('CardUser')
      .select(['Id', 'Disabled'])
      .where('AreaId', '=', 1)
      .where(
        'DepartmentId',
        'in',
        tree.map((d) => d.Id),
      )
      .execute();
    expect(all.data.Holders).toBeGreaterThanOrEqual(members.length);
    const rows = await k
      .selectFrom('CardUserLinkChannel')
      .select('CardUserId')
      .where('ChannelId', '=', channel.Id)
      .execute();
    expect(rows.length).toBe(all.data.Holders - all.data.SkippedDisabled - all.data.SkippedNoCard);
    const neither = await call(h().app, 'POST', '/api/CardUserLinkChannel/BatchGrant', {
      token,
      area: 1,
      body: { ChannelIds: [channel.Id] },
    });
    expect(neither.msg).toContain('请选择一个部门或一个人员分组（二选一）');
  });
});
