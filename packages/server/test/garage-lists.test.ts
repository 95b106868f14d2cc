import {
  COLLECTED_STATES,
  addLocalDays,
  estimateSession,
  passEnd,
  pricePass,
  priceSession,
  startOfLocalDay,
  type Tariff,
  type TimeUnitValue,
} from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { tariffOf, usageOf } from '../src/modules/garage/index.ts';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb } from './support/harness.ts';

type PageOf<T> = { Items: T[]; Total: number };
interface Order {
  Id: number;
  OrderNo: string;
  StartAt: string;
  PaymentState: number;
  AmountCents: number;
  Estimated: boolean;
  Open: boolean;
  DurationMinutes: number;
  ChargeHostId: number;
  RuleName: string | null;
  ZoneName: string;
  HostName: string;
}

const DAY = 86_400_000;
const ZONE = 'Asia/Shanghai';

describeEachDb('garage demo data, lists, dashboard and export', (h) => {
  let admin = '';
  let user = '';
  beforeAll(async () => {
    ({ admin, user } = await garageTokens(h()));
  });

  it('prices every demo charging order with the tariff engine, from the terms it copied', async () => {
    const rows = await h()
      .db.kysely.selectFrom('ChargeOrder')
      .innerJoin('ChargeRecord', 'ChargeRecord.Id', 'ChargeOrder.ChargeRecordId')
      .selectAll('ChargeOrder')
      .select([
        'ChargeRecord.StartAt',
        'ChargeRecord.EndAt',
        'ChargeRecord.EnergyWh',
        'ChargeRecord.StopReason',
        'ChargeRecord.MeterDigest',
        'ChargeRecord.FullAt',
      ])
      .execute();
    expect(rows.length).toBeGreaterThan(400);
    for (const row of rows) {
      if (row.EndAt === null) {
        expect(row).toMatchObject({ AmountCents: null, SettledAt: null, PaymentState: 0 });
        continue;
      }
      // A session a charger metered is priced on its meter (the demo's power-band rule reads it).
      const price = priceSession(tariffOf(row), usageOf(row, row.EndAt));
      expect(row.AmountCents, row.OrderNo).toBe(price.AmountCents);
      expect(row.SettledAt).toBe(row.EndAt);
      if (price.AmountCents === 0) expect(row.PaymentState).toBe(1);
    }
    const parks = await h().db.kysely.selectFrom('ParkOrder').selectAll().execute();
    // The demo at the tests' scale holds about a hundred ended stays: none would make the loop prove nothing.
    expect(parks.filter((row) => row.ExitAt !== null).length).toBeGreaterThan(50);
    for (const row of parks) {
      if (row.ExitAt === null) continue;
      expect(row.AmountCents).toBe(
        priceSession(tariffOf(row), { StartAt: row.EntryAt, EndAt: row.ExitAt }).AmountCents,
      );
    }
    const passes = await h()
      .db.kysely.selectFrom('MonthlyPass')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'MonthlyPass.ChargeRuleId')
      .selectAll('ChargeRule')
      .select([
        'MonthlyPass.StartAt',
        'MonthlyPass.EndAt',
        'MonthlyPass.Units',
        'MonthlyPass.AmountCents as Paid',
      ])
      .execute();
    expect(passes.length).toBeGreaterThan(0);
    for (const p of passes) {
      expect(p.EndAt).toBe(passEnd(p.StartAt, p.TimeUnit as TimeUnitValue, p.Units, ZONE));
      expect(p.Paid).toBe(pricePass(p as unknown as Tariff, p.Units));
    }
  });

  it('keeps the demo consistent: sessions run only on charging sockets, forced stops have their record', async () => {
    const k = h().db.kysely;
    const open = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .select(['ChargeEquipment.State', 'ChargeRecord.StartAt'])
      .where('ChargeRecord.EndAt', 'is', null)
      .execute();
    const running = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('State', 'in', [1, 3, 5])
      .execute();
    expect(open).toHaveLength(running.length);
    expect(open.every((s) => [1, 3, 5].includes(s.State) && s.StartAt < h().clock.now())).toBe(true);
    const forced = await k.selectFrom('ChargeRecord').select('Id').where('StopReason', '=', 3).execute();
    // Only a power cut the charger confirmed ends a session by forced power-off ("not sent" changes nothing;
    // every rule of the seeded history: garage-demo-history.test.ts).
    const cuts = await k
      .selectFrom('ForcedOutageRecord')
      .select('ChargeRecordId')
      .where('Result', '=', 1)
      .execute();
    expect(cuts.map((o) => o.ChargeRecordId).sort()).toEqual(forced.map((f) => f.Id).sort());
    const disabled = await k
      .selectFrom('ChargeEquipment')
      .select(['State'])
      .where('Disabled', '=', 1)
      .execute();
    expect(disabled.every((s) => s.State === 12)).toBe(true);
  });

  it('shows running orders with the live estimate of the same tariff function', async () => {
    h().clock.advance(13 * 60_000);
    const list = await call<PageOf<Order>>(h().app, 'GET', '/api/ChargeOrder', {
      token: user,
      area: 1,
      query: { Open: true, PageSize: 100 },
    });
    expect(list.data.Total).toBeGreaterThan(0);
    for (const item of list.data.Items) {
      const row = await h()
        .db.kysely.selectFrom('ChargeOrder')
        .innerJoin('ChargeRecord', 'ChargeRecord.Id', 'ChargeOrder.ChargeRecordId')
        .selectAll('ChargeOrder')
        .select([
          'ChargeRecord.StartAt',
          'ChargeRecord.EnergyWh',
          'ChargeRecord.MeterDigest',
          'ChargeRecord.FullAt',
        ])
        .where('ChargeOrder.Id', '=', item.Id)
        .executeTakeFirstOrThrow();
      const running = usageOf({ ...row, EndAt: null }, h().clock.now());
      const estimate = estimateSession(tariffOf(row), running, h().clock.now());
      expect(item).toMatchObject({
        Open: true,
        Estimated: true,
        AmountCents: estimate.AmountCents,
        DurationMinutes: estimate.DurationMinutes,
      });
      expect(item.RuleName).not.toBeNull();
    }
  });

  it('filters, sorts and limits record lists to 61 days', async () => {
    const now = h().clock.now();
    const range = { StartTime: new Date(now - 60 * DAY).toISOString(), EndTime: new Date(now).toISOString() };
    const paid = await call<PageOf<Order>>(h().app, 'GET', '/api/ChargeOrder', {
      token: user,
      area: 1,
      query: { ...range, PaymentState: 2, SortField: 'AmountCents', SortOrder: 'desc', PageSize: 50 },
    });
    expect(paid.data.Total).toBeGreaterThan(0);
    expect(
      paid.data.Items.every((o) => o.PaymentState === 2 && Date.parse(o.StartAt) >= now - 60 * DAY),
    ).toBe(true);
    const amounts = paid.data.Items.map((o) => o.AmountCents);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    const host = paid.data.Items[0]!.ChargeHostId;
    const byHost = await call<PageOf<Order>>(h().app, 'GET', '/api/ChargeRecord', {
      token: user,
      area: 1,
      query: { ...range, ChargeHostId: host, PageSize: 100 },
    });
    expect(byHost.data.Items.every((r) => r.ChargeHostId === host)).toBe(true);
    expect(byHost.data.Total).toBeGreaterThan(0);

    for (const url of [
      '/api/ChargeRecord',
      '/api/ChargeOrder',
      '/api/ParkOrder',
      '/api/ForcedOutageRecord',
    ]) {
      const tooLong = await call(h().app, 'GET', url, {
        token: user,
        area: 1,
        query: { StartTime: new Date(now - 62 * DAY).toISOString(), EndTime: new Date(now).toISOString() },
      });
      expect(tooLong.status, url).toBe(400);
      expect(tooLong.msg).toBe('时间范围不能超过 61 天');
      const reversed = await call(h().app, 'GET', url, {
        token: user,
        area: 1,
        query: { StartTime: new Date(now).toISOString(), EndTime: new Date(now - DAY).toISOString() },
      });
      expect(reversed.status, url).toBe(400);
    }
    const all = await call<PageOf<Order>>(h().app, 'GET', '/api/ChargeOrder', {
      token: user,
      area: 1,
      query: range,
    });
    const sample = paid.data.Items[0]! as Order & {
      ParkAreaId: number;
      CardNumber: string;
      ChargeHostId: number;
    };
    for (const [query, check] of [
      [{ ParkAreaId: sample.ParkAreaId }, (o: typeof sample) => o.ParkAreaId === sample.ParkAreaId],
      [{ ChargeHostId: sample.ChargeHostId }, (o: typeof sample) => o.ChargeHostId === sample.ChargeHostId],
      [
        { CardNumber: sample.CardNumber.slice(2, 8) },
        (o: typeof sample) => o.CardNumber.includes(sample.CardNumber.slice(2, 8)),
      ],
      [{ Forced: false }, (o: typeof sample & { Forced: boolean }) => !o.Forced],
    ] as const) {
      const filtered = await call<PageOf<typeof sample>>(h().app, 'GET', '/api/ChargeOrder', {
        token: user,
        area: 1,
        query: { ...range, ...query, PageSize: 100 },
      });
      expect(filtered.data.Total, JSON.stringify(query)).toBeGreaterThan(0);
      expect(filtered.data.Total).toBeLessThan(all.data.Total);
      expect(
        filtered.data.Items.every((o) => (check as (x: typeof sample) => boolean)(o)),
        JSON.stringify(query),
      ).toBe(true);
    }
    const inside = await call<PageOf<{ Inside: boolean; ExitAt: string | null }>>(
      h().app,
      'GET',
      '/api/ParkOrder',
      {
        token: user,
        area: 1,
        query: { Inside: true, PageSize: 100 },
      },
    );
    expect(inside.data.Total).toBeGreaterThan(0);
    expect(inside.data.Items.every((p) => p.Inside && p.ExitAt === null)).toBe(true);
    const badState = await call(h().app, 'GET', '/api/ChargeOrder', {
      token: user,
      area: 1,
      query: { PaymentState: 11 },
    });
    expect(badState.status).toBe(400);
  });

  it('sums the dashboard from the same rows: today and 30 local days', async () => {
    const now = h().clock.now();
    const k = h().db.kysely;
    const today = startOfLocalDay(now, ZONE);
    const summary = await call<{
      TimeZone: string;
      OpenSessions: number;
      Today: { Sessions: number; ChargingRevenueCents: number };
    }>(h().app, 'GET', '/api/GarageDashboard', { token: user, area: 1 });
    expect(summary.data.TimeZone).toBe(ZONE);
    const todays = await k
      .selectFrom('ChargeRecord')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('StartAt', '>=', today)
      .where('StartAt', '<', addLocalDays(today, 1, ZONE))
      .execute();
    expect(summary.data.Today.Sessions).toBe(todays.length);

    const daily = await call<{
      Days: {
        Date: string;
        Sessions: number;
        EnergyWh: number;
        ChargingRevenueCents: number;
        ParkOrders: number;
      }[];
    }>(h().app, 'GET', '/api/GarageDashboard/Daily', { token: user, area: 1 });
    expect(daily.data.Days).toHaveLength(30);
    expect(daily.data.Days.at(-1)!.Date).toBe(new Date(today + 8 * 3_600_000).toISOString().slice(0, 10));
    const from = addLocalDays(today, -29, ZONE);
    const records = await k
      .selectFrom('ChargeRecord')
      .select(['EnergyWh'])
      .where('AreaId', '=', 1)
      .where('StartAt', '>=', from)
      .execute();
    const orders = await k
      .selectFrom('ChargeOrder')
      .select(['AmountCents', 'PaymentState'])
      .where('AreaId', '=', 1)
      .where('CreatedAt', '>=', from)
      .execute();
    const sum = (key: 'Sessions' | 'EnergyWh' | 'ChargingRevenueCents') =>
      daily.data.Days.reduce((s, d) => s + d[key], 0);
    expect(sum('Sessions')).toBe(records.length);
    expect(sum('EnergyWh')).toBe(records.reduce((s, r) => s + r.EnergyWh, 0));
    expect(sum('ChargingRevenueCents')).toBe(
      orders
        .filter((o) => (COLLECTED_STATES as readonly number[]).includes(o.PaymentState))
        .reduce((s, o) => s + (o.AmountCents ?? 0), 0),
    );
    const week = await call<{ Days: unknown[] }>(h().app, 'GET', '/api/GarageDashboard/Daily', {
      token: user,
      area: 1,
      query: { Days: 7 },
    });
    expect(week.data.Days).toHaveLength(7);
    const tooMany = await call(h().app, 'GET', '/api/GarageDashboard/Daily', {
      token: user,
      area: 1,
      query: { Days: 91 },
    });
    expect(tooMany.status).toBe(400);
  });

  it('exports charging orders with translated headers and labels; a record export needs a range', async () => {
    const now = h().clock.now();
    const noRange = await call(h().app, 'POST', '/api/ExportJob', {
      token: admin,
      area: 1,
      body: { Resource: 'ChargeOrder', Query: { PaymentState: 2 } },
    });
    expect(noRange.status).toBe(400);
    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token: admin,
      area: 1,
      lang: 'en',
      body: {
        Resource: 'ChargeOrder',
        Query: {
          StartTime: new Date(now - 30 * DAY).toISOString(),
          EndTime: new Date(now).toISOString(),
          PaymentState: 2,
        },
      },
    });
    expect(job.status, job.msg).toBe(200);
    await h().platform.exports.idle();
    const file = await h().app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${admin}`, 'x-area-id': '1' },
    });
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Order number', 'Start', 'End']);
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(row[header.indexOf('Payment state')]).toBe('Paid');
    const amount = sheet.getRow(2).getCell(header.indexOf('Amount (CNY)') + 1);
    expect(typeof amount.value).toBe('number');
    expect(amount.numFmt).toBe('0.00');
    for (const resource of [
      'ParkArea',
      'ChargeRule',
      'ChargeHost',
      'ChargeEquipment',
      'Vehicle',
      'MonthlyPass',
    ]) {
      const other = await call(h().app, 'POST', '/api/ExportJob', {
        token: user,
        area: 1,
        body: { Resource: resource, Query: {} },
      });
      expect(other.status, `${resource}: ${other.msg}`).toBe(200);
    }
    await h().platform.exports.idle();
    const jobs = await h()
      .db.kysely.selectFrom('ExportJob')
      .select(['Resource', 'Status', 'RowCount'])
      .execute();
    expect(jobs).toHaveLength(7);
    for (const j of jobs) expect(j, j.Resource).toMatchObject({ Status: 'done' });
    expect(jobs.every((j) => j.RowCount > 0)).toBe(true);
  });

  it("exports parking zones with each zone's power budget as a number, empty for a zone without one", async () => {
    const zones = await call<PageOf<{ Name: string; PowerBudgetW: number | null }>>(
      h().app,
      'GET',
      '/api/ParkArea',
      { token: user, area: 1, query: { PageSize: 100 } },
    );
    // The demo's zones: budgets on those with charging-API hosts, none on the one without (docs/garage.md).
    expect(zones.data.Items.some((z) => z.PowerBudgetW !== null)).toBe(true);
    expect(zones.data.Items.some((z) => z.PowerBudgetW === null)).toBe(true);
    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token: user,
      area: 1,
      lang: 'en',
      body: { Resource: 'ParkArea', Query: {} },
    });
    expect(job.status, job.msg).toBe(200);
    await h().platform.exports.idle();
    const file = await h().app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${user}`, 'x-area-id': '1' },
    });
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const name = header.indexOf('Parking zone') + 1;
    const budget = header.indexOf('Power budget (W)') + 1;
    expect(budget).toBeGreaterThan(0);
    const exported = new Map<string, unknown>();
    for (let r = 2; r <= sheet.rowCount; r++)
      exported.set(String(sheet.getRow(r).getCell(name).value), sheet.getRow(r).getCell(budget).value);
    for (const zone of zones.data.Items)
      expect(exported.get(zone.Name), zone.Name).toBe(zone.PowerBudgetW ?? '');
  });
});
