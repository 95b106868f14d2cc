import { displayToCard } from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { recordInput } from '../src/gateways/wg/index.ts';
import {
  accessControlModule,
  recordSwipe,
  recordSwipes,
  storeControllerRecords,
  wgControllers,
} from '../src/modules/access-control/index.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, systemContext, type Harness } from './support/harness.ts';

const DAY = 86_400_000;

interface Swipe {
  Id: number;
  At: string;
  CardNumber: string;
  CardValue: number;
  CardUserId: number | null;
  HolderName: string | null;
  DeviceId: number;
  ChannelName: string | null;
  Direction: number;
  Result: boolean;
  Reason: number;
}
type Page = { Items: Swipe[]; Total: number };

/** The same list computed the obvious way: every matching row, newest first. */
async function bruteForce(h: Harness, areaId: number, q: Record<string, number | boolean | string>) {
  let query = h.db.kysely.selectFrom('DoorOpeningRecord').select(['Id', 'At']).where('AreaId', '=', areaId);
  if (q.StartTime !== undefined) query = query.where('At', '>=', Number(q.StartTime));
  if (q.EndTime !== undefined) query = query.where('At', '<=', Number(q.EndTime));
  if (q.DeviceId !== undefined) query = query.where('DeviceId', '=', Number(q.DeviceId));
  if (q.Result !== undefined) query = query.where('Result', '=', q.Result === 'true' ? 1 : 0);
  if (q.CardUserId !== undefined) query = query.where('CardUserId', '=', Number(q.CardUserId));
  return (await query.orderBy('At', 'desc').orderBy('Id', 'desc').execute()).map((r) => r.Id);
}

describeEachDb('access control: swipe records', (h) => {
  it('has no HTTP endpoint that writes swipe records', () => {
    const writes = accessControlModule.routes.filter(
      (r) => r.url.startsWith('/api/DoorOpeningRecord') && r.method !== 'GET',
    );
    expect(writes).toEqual([]);
  });

  it('recordSwipe resolves area, channel and holder from what the controller reports, and keeps the day counts', async () => {
    const k = h().db.kysely;
    const holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'CardUser.Name', 'Card.CardNumber'])
      .where('CardUser.AreaId', '=', 1)
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name'])
      .where('AreaId', '=', 1)
      .where('Type', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const at = h().clock.now() - 60_000;
    const day = Math.floor(at / DAY);
    const countBefore = await k
      .selectFrom('DoorOpeningRecordDay')
      .select('Count')
      .where('AreaId', '=', 1)
      .where('Day', '=', day)
      .where('DeviceId', '=', device.Id)
      .where('Result', '=', 1)
      .executeTakeFirst();
    const id = await recordSwipe(k, {
      SerialNumber: device.SerialNumber,
      DoorNumber: 2,
      Direction: 2,
      CardValue: displayToCard(holder.CardNumber),
      At: at,
      Result: true,
      Reason: 1,
    });
    const row = await k
      .selectFrom('DoorOpeningRecord')
      .selectAll()
      .where('Id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      AreaId: 1,
      CardNumber: holder.CardNumber,
      CardUserId: holder.Id,
      HolderName: holder.Name,
      DeviceId: device.Id,
      DeviceName: device.Name,
      ChannelName: '2号门出门',
      DoorNumber: 2,
      Direction: 2,
      Result: 1,
      Reason: 1,
    });
    const countAfter = await k
      .selectFrom('DoorOpeningRecordDay')
      .select('Count')
      .where('AreaId', '=', 1)
      .where('Day', '=', day)
      .where('DeviceId', '=', device.Id)
      .where('Result', '=', 1)
      .executeTakeFirstOrThrow();
    expect(countAfter.Count).toBe((countBefore?.Count ?? 0) + 1);

    const unknown = await recordSwipe(k, {
      DeviceId: device.Id,
      DoorNumber: 1,
      Direction: 1,
      CardNumber: '123',
      At: at + 1,
      Result: false,
      Reason: 2,
    });
    expect(
      await k.selectFrom('DoorOpeningRecord').selectAll().where('Id', '=', unknown).executeTakeFirst(),
    ).toMatchObject({
      CardNumber: '0000000123',
      CardUserId: null,
      HolderName: null,
      ChannelName: '1号门进门',
    });

    const total = async () =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await total();
    const pool = await k
      .selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', 'is', null)
      .executeTakeFirstOrThrow();
    const good = {
      DeviceId: device.Id,
      DoorNumber: 1,
      Direction: 1,
      CardNumber: '1',
      At: at,
      Result: false,
      Reason: 2,
    };
    await expect(recordSwipes(k, [good, { ...good, DoorNumber: 9 }])).rejects.toMatchObject({ status: 400 });
    await expect(recordSwipes(k, [good, { ...good, DeviceId: pool.Id }])).rejects.toMatchObject({
      status: 409,
    });
    expect(await total()).toBe(before);
  });

  it('answers exact totals and the same pages as a full scan, at any depth and with any filter', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const k = h().db.kysely;
    const now = h().clock.now();
    const device = await k
      .selectFrom('DoorOpeningRecord')
      .select('DeviceId')
      .where('AreaId', '=', 1)
      .groupBy('DeviceId')
      .orderBy(sql`count(*)`, 'desc')
      .executeTakeFirstOrThrow();
    const holder = await k
      .selectFrom('DoorOpeningRecord')
      .select('CardUserId')
      .where('AreaId', '=', 1)
      .where('CardUserId', 'is not', null)
      .executeTakeFirstOrThrow();
    const queries: Record<string, number | string>[] = [
      {},
      { Result: 'false' },
      { DeviceId: device.DeviceId },
      { DeviceId: device.DeviceId, Result: 'true' },
      // Ranges that start and end inside a day, so the edge days are counted from the records.
      { StartTime: now - 40 * DAY + 12_345_678, EndTime: now - 3 * DAY - 7_654_321 },
      { StartTime: now - 61 * DAY + 1, EndTime: now, Result: 'true' },
      { StartTime: now - 5 * DAY + 999, EndTime: now - 5 * DAY + 20 * 3_600_000, DeviceId: device.DeviceId },
      { EndTime: now - 30 * DAY },
      { StartTime: now - 30 * DAY },
      { CardUserId: holder.CardUserId! },
    ];
    // 7 a page, and 100 (a page spanning several days: its statements are bounded by the days it reaches).
    for (const [q, pageSize] of queries.flatMap((q) => [[q, 7] as const, [q, 100] as const])) {
      const expected = await bruteForce(h(), 1, q);
      const last = Math.max(1, Math.ceil(expected.length / pageSize));
      for (const pageIndex of [1, 2, Math.ceil(last / 2), last, last + 1]) {
        const page = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
          token,
          area: 1,
          query: { ...q, PageIndex: pageIndex, PageSize: pageSize },
        });
        expect(page.status, page.msg).toBe(200);
        expect(page.data.Total, JSON.stringify(q)).toBe(expected.length);
        expect(
          page.data.Items.map((i) => i.Id),
          `${JSON.stringify(q)} page ${pageIndex}`,
        ).toEqual(expected.slice((pageIndex - 1) * pageSize, pageIndex * pageSize));
      }
    }
  });

  it('pages through a broad holder match (more than the simple-sort limit) exactly as a full scan', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const k = h().db.kysely;
    const now = h().clock.now();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .executeTakeFirstOrThrow();
    const holders: { id: number; card: string }[] = [];
    for (const [i, name] of ['窗测甲', '窗测乙', '窗测丙'].entries()) {
      const holder = await k
        .insertInto('CardUser')
        .values({
          AreaId: 1,
          Name: name,
          Phone: null,
          CitizenId: null,
          Nation: 0,
          DepartmentId: null,
          PeopleGroupId: null,
          PeopleTypeId: null,
          ValidFrom: now - 400 * DAY,
          ValidTo: now + 400 * DAY,
          Remark: null,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const card = String(77_000_000 + i).padStart(10, '0');
      await k
        .insertInto('Card')
        .values({
          AreaId: 1,
          CardNumber: card,
          CardType: 3,
          CardUserId: holder.Id,
          Remark: null,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .execute();
      holders.push({ id: holder.Id, card });
    }
    // Unevenly spread in time (most in the last days), so the window estimate has to widen.
    let seed = 42;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const swipes = Array.from({ length: 2600 }, (_, i) => {
      const opened = rand() > 0.1;
      return {
        DeviceId: device.Id,
        DoorNumber: 1,
        Direction: 1,
        CardNumber: holders[i % 3]!.card,
        At: now - Math.floor((rand() < 0.8 ? 5 : 80) * DAY * rand()),
        Result: opened,
        Reason: opened ? 1 : 4,
      };
    });
    // One batch over many days: the per-day counts grow by exactly what it brought, day by day and by result.
    const dayCounts = async () =>
      new Map(
        (
          await k
            .selectFrom('DoorOpeningRecordDay')
            .select(['Day', 'Result', 'Count'])
            .where('AreaId', '=', 1)
            .where('DeviceId', '=', device.Id)
            .execute()
        ).map((r) => [`${r.Day}:${r.Result}`, Number(r.Count)]),
      );
    const before = await dayCounts();
    await recordSwipes(k, swipes);
    const after = await dayCounts();
    const brought = new Map<string, number>();
    for (const swipe of swipes) {
      const key = `${Math.floor(swipe.At / DAY)}:${swipe.Result ? 1 : 0}`;
      brought.set(key, (brought.get(key) ?? 0) + 1);
    }
    expect(brought.size).toBeGreaterThan(20);
    for (const key of new Set([...before.keys(), ...after.keys()]))
      expect((after.get(key) ?? 0) - (before.get(key) ?? 0), key).toBe(brought.get(key) ?? 0);
    const ids = holders.map((x) => x.id);
    const extras: Record<string, string>[] = [
      {},
      { Result: 'true' },
      { StartTime: String(now - 30 * DAY), EndTime: String(now) },
    ];
    for (const extra of extras) {
      let query = k
        .selectFrom('DoorOpeningRecord')
        .select('Id')
        .where('AreaId', '=', 1)
        .where('CardUserId', 'in', ids);
      if (extra.Result) query = query.where('Result', '=', 1);
      if (extra.StartTime)
        query = query.where('At', '>=', Number(extra.StartTime)).where('At', '<=', Number(extra.EndTime));
      const expected = (await query.orderBy('At', 'desc').orderBy('Id', 'desc').execute()).map((r) => r.Id);
      expect(expected.length).toBeGreaterThan(2000);
      const size = 50;
      const last = Math.ceil(expected.length / size);
      for (const pageIndex of [1, 2, 7, Math.floor(last / 2), last - 1, last]) {
        const page = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
          token,
          area: 1,
          query: { HolderName: '窗测', ...extra, PageIndex: pageIndex, PageSize: size },
        });
        expect(page.data.Total).toBe(expected.length);
        expect(
          page.data.Items.map((i) => i.Id),
          `${JSON.stringify(extra)} page ${pageIndex}`,
        ).toEqual(expected.slice((pageIndex - 1) * size, pageIndex * size));
      }
    }
  });

  it('filters by holder name, by card number without leading zeros, and by result', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const k = h().db.kysely;
    const sample = await k
      .selectFrom('DoorOpeningRecord')
      .innerJoin('CardUser', 'CardUser.Id', 'DoorOpeningRecord.CardUserId')
      .select(['CardUser.Name', 'DoorOpeningRecord.CardNumber', 'DoorOpeningRecord.CardUserId'])
      .where('DoorOpeningRecord.AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    const byName = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { HolderName: sample.Name, PageSize: 100 },
    });
    const named = await k
      .selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('Name', 'like', `%${sample.Name}%`)
      .execute();
    expect(byName.data.Total).toBeGreaterThan(0);
    for (const item of byName.data.Items) expect(named.map((n) => n.Id)).toContain(item.CardUserId);
    const byCard = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { CardNumber: String(Number(sample.CardNumber)), PageSize: 100 },
    });
    expect(byCard.data.Total).toBeGreaterThan(0);
    for (const item of byCard.data.Items) {
      expect(item.CardNumber).toBe(sample.CardNumber);
      expect(item.CardValue).toBe(displayToCard(sample.CardNumber));
    }
    const failed = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { Result: 'false', PageSize: 100 },
    });
    expect(failed.data.Items.length).toBeGreaterThan(0);
    for (const item of failed.data.Items) {
      expect(item.Result).toBe(false);
      expect(item.Reason).not.toBe(1);
    }
    const nobody = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { HolderName: '不存在的人' },
    });
    expect(nobody.data).toEqual({ Items: [], Total: 0 });
    const badCard = await call(h().app, 'GET', '/api/DoorOpeningRecord', {
      token,
      area: 1,
      query: { CardNumber: '12a' },
    });
    expect(badCard.status).toBe(400);
    expect(badCard.msg).toContain('卡号不正确');
  });

  it('exports a range of swipe records with translated labels', async () => {
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const now = h().clock.now();
    const query = { StartTime: String(now - 3 * DAY), EndTime: String(now) };
    const list = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', { token, area: 1, query });
    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      lang: 'en',
      body: { Resource: 'DoorOpeningRecord', Query: query },
    });
    expect(job.status, job.msg).toBe(200);
    await h().platform.exports.idle();
    const done = await call<{ Status: string; RowCount: number }>(
      h().app,
      'GET',
      `/api/ExportJob/${job.data.Id}`,
      { token, area: 1 },
    );
    expect(done.data).toMatchObject({ Status: 'done', RowCount: list.data.Total });
    const file = await h().app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Time',
      'Card number',
      'Card holder',
      'Device',
      'Channel',
      'Direction',
      'Result',
      'Reason',
      'Door event',
      'Opened by',
    ]);
    // A swipe's result, an alarm's, or nothing for a door event (as the screen shows them).
    const results = new Set<unknown>();
    for (let r = 2; r <= sheet.rowCount; r++) results.add(sheet.getRow(r).getCell(7).value ?? '');
    expect(
      [...results].filter((v) => !['Door opened', 'Door open failed', 'Alarm', ''].includes(v as string)),
    ).toEqual([]);
  });

  it("stores a controller's refusal with the controller's reason, and shows it once", async () => {
    const k = h().db.kysely;
    const now = h().clock.now();
    // A holder with an issued authorisation on a WG controller's door, valid now: nothing in Gatehouse's own
    // records explains a refusal, so only the controller's reason can be true.
    const link = await k
      .selectFrom('CardUserLinkChannel as L')
      .innerJoin('CardUser as U', 'U.Id', 'L.CardUserId')
      .innerJoin('Card as C', 'C.CardUserId', 'U.Id')
      .innerJoin('AccessControlChannel as Ch', 'Ch.Id', 'L.ChannelId')
      .innerJoin('AccessControlDevice as D', 'D.Id', 'Ch.DeviceId')
      .select(['D.Id as DeviceId', 'Ch.DoorNumber', 'Ch.Direction', 'C.CardNumber'])
      .where('U.AreaId', '=', 1)
      .where('U.Disabled', '=', 0)
      .where('U.ValidFrom', '<=', now)
      .where('U.ValidTo', '>=', now)
      .where('L.Revoked', '=', 0)
      .where('L.IssueStatus', '=', 3)
      .where((eb) => eb.or([eb('L.ValidFrom', 'is', null), eb('L.ValidFrom', '<=', now)]))
      .where((eb) => eb.or([eb('L.ValidTo', 'is', null), eb('L.ValidTo', '>=', now)]))
      .where('D.Protocol', '=', 0)
      .where('Ch.DoorNumber', '>', 0)
      .orderBy('L.Id')
      .executeTakeFirstOrThrow();
    const device = (await wgControllers(systemContext(h()), link.DeviceId))[0]!;
    // The controller's reason byte (uhppote-core messages/get_event.go): 8 anti-passback, 15 invalid time
    // zone (outside the card's time profile), 12 interlock, 7 wrong PIN, 6 no privilege.
    const refused = (index: number, reason: number) =>
      recordInput(
        {
          index,
          type: 1,
          granted: false,
          door: link.DoorNumber,
          direction: link.Direction,
          card: { kind: 'card', number: displayToCard(link.CardNumber) },
          time: null,
          reason,
        },
        device,
        now - 1000 + (index % 1000),
      )!;
    const base = 9_000_000;
    const stored = await storeControllerRecords(systemContext(h()), device.Id, [
      refused(base + 1, 8),
      refused(base + 2, 15),
      refused(base + 3, 12),
      refused(base + 4, 7),
      refused(base + 5, 6),
    ]);
    // doorRecordReason: 8 anti-passback, 7 outside the time profile, 9 interlock, 10 wrong PIN; a "no
    // privilege" Gatehouse's records do not explain is the controller's refusal (16), not "outside validity".
    expect(stored.map((r) => [r.EventReason, r.Reason])).toEqual([
      [8, 8],
      [15, 7],
      [12, 9],
      [7, 10],
      [6, 16],
    ]);

    // The list carries the stored reason; the export names the cause once (the door-event column, the
    // controller's code again, is a door event's and stays empty for a swipe).
    const token = await login(h().app, 'acuser', DEMO_PASSWORD);
    const query = {
      StartTime: String(now - 60_000),
      EndTime: String(now + 60_000),
      DeviceId: String(device.Id),
    };
    const list = await call<Page>(h().app, 'GET', '/api/DoorOpeningRecord', { token, area: 1, query });
    expect(list.status, list.msg).toBe(200);
    const ids = new Set(stored.map((r) => r.Id));
    expect(
      list.data.Items.filter((i) => ids.has(i.Id))
        .map((i) => i.Reason)
        .sort((a, b) => a - b),
    ).toEqual([7, 8, 9, 10, 16]);
    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      lang: 'en',
      body: { Resource: 'DoorOpeningRecord', Query: query },
    });
    expect(job.status, job.msg).toBe(200);
    await h().platform.exports.idle();
    const file = await h().app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const causes: string[] = [];
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      if (row.getCell(3).value === null && row.getCell(8).value === null) continue;
      causes.push(`${String(row.getCell(8).value ?? '')}|${String(row.getCell(9).value ?? '')}`);
    }
    expect(causes).toEqual(
      expect.arrayContaining([
        'Anti-passback|',
        'Outside the time profile|',
        'Interlock: another door is open|',
        'Wrong PIN|',
        'Refused by the controller|',
      ]),
    );
    expect(causes.filter((c) => c.includes('Denied'))).toEqual([]);
  });
});
