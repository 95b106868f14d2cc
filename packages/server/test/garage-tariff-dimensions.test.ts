import ExcelJS from 'exceljs';
import type { ChargePoint } from '@gatehouse/ocpp-simulator';
import type { MeterDigest, PriceLine } from '@gatehouse/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import {
  closeDeviceSession,
  endSessionsOfLostHost,
  meterDeviceSession,
  openDeviceSession,
} from '../src/modules/garage/index.ts';
import { deviceActor, type AreaContext } from '../src/platform/context.ts';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';
import {
  insertCardVehicles,
  insertChargingHost,
  insertZone,
  listenForChargers,
  plugInAndSwipe,
  simulatorOnline,
  until,
} from './support/ocpp-charging.ts';

/**
 * Issue 30, "Tariffs as priced here" (docs/garage.md, "Tariff dimensions"): the rule API takes power bands,
 * time-of-day periods, the idle fee and the service fee with the shared checks' messages; an order copies them
 * at its start; the device's readings are folded into the session's meter; the live estimate and the final
 * price are the same engine on the same readings; the settled order's itemised lines are stored, listed, exported
 * and sent in `order.settled`. The session is the worked bill of docs/garage.md, through the protocol-free
 * session services a charger gateway calls.
 */

const MIN = 60_000;
/** Local wall time in the demo area's zone (Asia/Shanghai, UTC+8, no daylight saving) → epoch ms. */
const cst = (d: number, h: number, mi = 0) => Date.UTC(2026, 10, d, h - 8, mi);

/** The worked bill's rule (docs/garage.md): metered, ¥1.00/kWh outside periods, 5 free minutes. */
const WORKED_RULE = {
  ChargeType: 3,
  TemporaryChargeType: 2,
  UnitPriceCents: 100,
  FreeMinutes: 5,
  CapCents: null,
  TimeOfDay: [
    { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
    { From: '22:00', To: '08:00', PriceCentsPerKWh: 60 },
  ],
  PowerBands: [
    { UpToW: 200, PriceCents: 10 },
    { UpToW: 500, PriceCents: 20 },
    { UpToW: 1000, PriceCents: 40 },
  ],
  IdleFeeCentsPerHour: 120,
  IdleGraceMinutes: 15,
  ServiceFeeCents: 50,
};

/** The worked bill's lines: kind, quantity, unit price, amount. */
const WORKED_LINES = [
  ['period', 360, 150, 54],
  ['period', 540, 60, 32],
  ['band', 4, 20, 80],
  ['service', 1, 50, 50],
  ['idle', 55, 120, 110],
];

interface Order {
  Id: number;
  AmountCents: number;
  Estimated: boolean;
  EnergyWh: number;
  DurationMinutes: number;
  Lines: PriceLine[] | null;
  PowerBands: unknown;
  TimeOfDay: unknown;
  ServiceFeeCents: number | null;
}

const summary = (lines: PriceLine[] | null) =>
  (lines ?? []).map((l) => [l.Kind, l.Quantity, l.UnitPriceCents, l.AmountCents]);

describeEachDb('tariff dimensions: rules, the stored meter, itemised orders', (h: () => Harness) => {
  let admin = '';
  let user = '';
  let zoneId = 0;
  let hostId = 0;
  const sockets: number[] = [];
  const k = () => h().db.kysely;
  const device = (): AreaContext => ({
    db: h().db,
    clock: h().clock,
    lang: 'en',
    actor: deviceActor(hostId, 'TARIFF-HOST'),
    areaId: 1,
  });
  /** The manual clock moved forward to `at` (hours later: the sign-ins are made again, as they expire). */
  const clockTo = async (at: number) => {
    expect(at).toBeGreaterThanOrEqual(h().clock.now());
    h().clock.advance(at - h().clock.now());
    ({ admin, user } = await garageTokens(h()));
  };
  const createRule = (body: Record<string, unknown>, lang = 'en') =>
    call<Record<string, unknown> & { Errors?: { Field: string; Message: string }[] }>(
      h().app,
      'POST',
      '/api/ChargeRule',
      {
        token: admin,
        area: 1,
        lang,
        body: { Name: `规则${Math.random().toString(36).slice(2, 8)}`, ...body },
      },
    );
  const orderOf = async (recordId: number) => {
    const row = await k()
      .selectFrom('ChargeOrder')
      .select('Id')
      .where('ChargeRecordId', '=', recordId)
      .executeTakeFirstOrThrow();
    const reply = await call<Order>(h().app, 'GET', `/api/ChargeOrder/${row.Id}`, { token: user, area: 1 });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  };

  const points: ChargePoint[] = [];
  afterAll(async () => {
    await Promise.all(points.map((p) => p.close()));
  });

  beforeAll(async () => {
    ({ admin, user } = await garageTokens(h()));
    const now = h().clock.now();
    zoneId = (await insertZone(k(), { name: '分时计费区', now })).id;
    const host = await insertChargingHost(h().db, { zoneId, serial: 'TARIFFHOST01', ports: 2, now });
    hostId = host.id;
    sockets.push(...host.sockets);
    await insertCardVehicles(
      k(),
      ['0088001001', '0088001002'].map((card, i) => ({ card, plate: `浙A8800${i}` })),
      now,
    );
  });

  it('refuses dimensions that cannot price, field by field, with the catalogue messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { PowerBands: [WORKED_RULE.PowerBands[1], WORKED_RULE.PowerBands[0]] },
        'PowerBands.1.UpToW',
        'Band 2 must go up to more than the band before it (500 W)',
      ],
      [
        {
          TimeOfDay: [
            { From: '22:00', To: '02:00', PriceCentsPerKWh: 60 },
            { From: '01:00', To: '03:00', PriceCentsPerKWh: 80 },
          ],
        },
        'TimeOfDay.1',
        'Periods 22:00–02:00 and 01:00–03:00 overlap: each moment of the day has one price',
      ],
      [
        { TimeOfDay: [{ From: '8:00', To: '22:00', PriceCentsPerKWh: 150 }] },
        'TimeOfDay.0.From',
        'Period 1: write times as HH:mm (00:00 to 23:59)',
      ],
      [
        { TimeOfDay: [{ From: '08:00', To: '24:00', PriceCentsPerKWh: 150 }] },
        'TimeOfDay.0.To',
        'Period 1: write times as HH:mm (00:00 to 23:59)',
      ],
      [
        { TemporaryChargeType: 1, TimeOfDay: WORKED_RULE.TimeOfDay },
        'TimeOfDay',
        'Time-of-day prices apply to temporary charging by energy only',
      ],
      [
        { ChargeType: 0, TemporaryChargeType: 1, IdleFeeCentsPerHour: 100 },
        'IdleFeeCentsPerHour',
        'An idle fee applies to temporary charging only',
      ],
      [
        { ChargeType: 0, TemporaryChargeType: 3, ServiceFeeCents: 10 },
        'ServiceFeeCents',
        'A service fee applies to temporary charging only',
      ],
      [{ PowerBands: [{ UpToW: 0, PriceCents: 10 }] }, 'PowerBands.0.UpToW', 'Must be at least 1'],
    ];
    for (const [more, field, message] of cases) {
      const reply = await createRule({ ...WORKED_RULE, ...more });
      expect(reply.status, JSON.stringify(more)).toBe(400);
      expect(reply.data.Errors).toContainEqual({ Field: field, Message: message });
    }
    const zh = await createRule(
      { ...WORKED_RULE, PowerBands: [WORKED_RULE.PowerBands[2], WORKED_RULE.PowerBands[0]] },
      'zh',
    );
    expect(zh.data.Errors).toContainEqual({
      Field: 'PowerBands.1.UpToW',
      Message: '第 2 档的功率上限须高于上一档（1000 W）',
    });
    // Nothing was stored (the demo's power-band rule aside: these rules' names start with 规则).
    const stored = await k()
      .selectFrom('ChargeRule')
      .select('Id')
      .where('PowerBands', 'is not', null)
      .where('Name', 'like', '规则%')
      .execute();
    expect(stored).toEqual([]);
  });

  it('stores the dimensions, shows them on the rule, keeps them when an update leaves them out, removes them by null', async () => {
    const created = await createRule({ ...WORKED_RULE, ParkAreaIds: [zoneId] });
    expect(created.status, created.msg).toBe(200);
    const id = created.data.Id as number;
    const detail = await call<Record<string, unknown>>(h().app, 'GET', `/api/ChargeRule/${id}`, {
      token: user,
      area: 1,
    });
    expect(detail.data).toMatchObject({
      TimeOfDay: WORKED_RULE.TimeOfDay,
      PowerBands: WORKED_RULE.PowerBands,
      IdleFeeCentsPerHour: 120,
      IdleGraceMinutes: 15,
      ServiceFeeCents: 50,
    });
    const {
      TimeOfDay: _t,
      PowerBands: _b,
      IdleFeeCentsPerHour: _i,
      IdleGraceMinutes: _g,
      ServiceFeeCents: _s,
      ...terms
    } = WORKED_RULE;
    const kept = await call<Record<string, unknown>>(h().app, 'PUT', '/api/ChargeRule', {
      token: admin,
      area: 1,
      body: { Id: id, Name: detail.data.Name, ...terms, Remark: '分时' },
    });
    expect(kept.status, kept.msg).toBe(200);
    expect(kept.data).toMatchObject({
      TimeOfDay: WORKED_RULE.TimeOfDay,
      ServiceFeeCents: 50,
      Remark: '分时',
    });
    const cleared = await call<Record<string, unknown>>(h().app, 'PUT', '/api/ChargeRule', {
      token: admin,
      area: 1,
      body: { Id: id, Name: detail.data.Name, ...terms, ServiceFeeCents: null, PowerBands: [] },
    });
    expect(cleared.data).toMatchObject({ ServiceFeeCents: null, PowerBands: null, IdleFeeCentsPerHour: 120 });
    const back = await call(h().app, 'PUT', '/api/ChargeRule', {
      token: admin,
      area: 1,
      body: { Id: id, Name: detail.data.Name, ...WORKED_RULE },
    });
    expect(back.status, back.msg).toBe(200);
  });

  it('prices the worked bill: the estimate from the stored meter equals the final price, lines stored, listed, exported and sent', async () => {
    const T = cst(1, 21);
    await clockTo(T);
    const opened = await openDeviceSession(device(), {
      socketId: sockets[0]!,
      cardNumber: '0088001001',
      startAt: T,
      meterStartWh: 5000,
    });
    if (opened.status !== 'Accepted') throw new Error(opened.status);
    const recordId = opened.recordId;
    const copied = await orderOf(recordId);
    expect(copied).toMatchObject({ PowerBands: WORKED_RULE.PowerBands, TimeOfDay: WORKED_RULE.TimeOfDay });

    // The worked bill's readings, each folded at its own instant; a late repeat of one changes nothing.
    const readings: [number, number, number][] = [
      [cst(1, 21, 40), 5240, 360],
      [cst(1, 22, 20), 5480, 360],
      [cst(1, 23, 30), 5900, 0],
    ];
    for (const [at, registerWh, powerW] of readings) {
      await clockTo(at);
      const metered = await meterDeviceSession(device(), {
        recordId,
        socketId: sockets[0]!,
        registerWh,
        powerW,
        at,
      });
      expect(metered?.energyWh).toBe(registerWh - 5000);
    }
    await clockTo(cst(1, 23, 45));
    await meterDeviceSession(device(), {
      recordId,
      socketId: sockets[0]!,
      registerWh: 5480,
      powerW: 0,
      at: cst(1, 22, 20),
    });
    const running = await k()
      .selectFrom('ChargeRecord')
      .select(['MeterDigest', 'FullAt', 'EnergyWh'])
      .where('Id', '=', recordId)
      .executeTakeFirstOrThrow();
    const digest = JSON.parse(running.MeterDigest!) as MeterDigest;
    expect(digest).toMatchObject({
      Count: 4,
      SustainedW: 360,
      PeriodWh: [
        [0, 360],
        [1, 540],
      ],
    });
    expect(running).toMatchObject({ FullAt: cst(1, 23, 30), EnergyWh: 900 });

    // The live estimate at 00:40, before the charger's stop, with the meter read so far.
    await clockTo(cst(2, 0, 40));
    const estimate = await orderOf(recordId);
    expect(estimate).toMatchObject({ Estimated: true, AmountCents: 326, DurationMinutes: 220 });
    expect(summary(estimate.Lines)).toEqual(WORKED_LINES);
    const band = estimate.Lines!.find((l) => l.Kind === 'band')!;
    expect(band.LabelParams).toEqual({ Band: 2, FromW: 200, UpToW: 500, SustainedW: 360 });

    // The charger's stop at 00:40 with the same register: the final price is the estimate, lines included.
    const closed = await closeDeviceSession(device(), {
      recordId,
      socketId: sockets[0]!,
      endAt: cst(2, 0, 40),
      meterStopWh: 5900,
      stopReason: 1,
    });
    expect(closed).toMatchObject({ closed: true, amountCents: 326, energyWh: 900 });
    const settled = await orderOf(recordId);
    expect(settled).toMatchObject({ Estimated: false, AmountCents: 326, EnergyWh: 900 });
    expect(settled.Lines).toEqual(estimate.Lines);
    const stored = await k()
      .selectFrom('ChargeOrder')
      .select('PriceLines')
      .where('Id', '=', settled.Id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.PriceLines!)).toEqual(estimate.Lines);
    expect(settled.Lines!.reduce((s, l) => s + l.AmountCents, 0)).toBe(settled.AmountCents);

    // order.settled carries the lines.
    const events = await k()
      .selectFrom('OutboxEvent')
      .select('Payload')
      .where('Type', '=', 'order.settled')
      .orderBy('Id')
      .execute();
    const sent = events
      .map((e) => (JSON.parse(e.Payload) as { data: Order & { Kind: string } }).data)
      .find((d) => d.Kind === 'ChargeOrder' && d.Id === settled.Id);
    expect(sent).toMatchObject({ AmountCents: 326, Estimated: false });
    expect(sent!.Lines).toEqual(settled.Lines);

    // The export has the lines as phrases, in the operator's language.
    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token: admin,
      area: 1,
      lang: 'en',
      body: {
        Resource: 'ChargeOrder',
        Query: {
          StartTime: new Date(cst(1, 0)).toISOString(),
          EndTime: new Date(cst(2, 1)).toISOString(),
          ChargeRecordId: recordId,
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
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(sheet.rowCount).toBe(2);
    expect(row[header.indexOf('Itemised charges')]).toBe(
      [
        'Period 08:00–22:00: 0.360 kWh × ¥1.50 / kWh = ¥0.54',
        'Period 22:00–08:00: 0.540 kWh × ¥0.60 / kWh = ¥0.32',
        'Power band 2 (200–500 W, sustained 360 W): 4 h × ¥0.20 / hour = ¥0.80',
        'Service fee: ¥0.50',
        'Idle fee (from 15 min after full): 55 min × ¥1.20 / hour = ¥1.10',
      ].join('; '),
    );
  });

  it("a provisional end is corrected by the charger's stop: repriced from the stored meter and its real end", async () => {
    const T = cst(2, 9);
    await clockTo(T);
    const opened = await openDeviceSession(device(), {
      socketId: sockets[1]!,
      cardNumber: '0088001002',
      startAt: T,
      meterStartWh: 100,
    });
    if (opened.status !== 'Accepted') throw new Error(opened.status);
    const recordId = opened.recordId;
    // 300 W for an hour (08:00–22:00 at ¥1.50/kWh), then the host is lost: ended at its last sign of life.
    await clockTo(T + 60 * MIN);
    await meterDeviceSession(device(), {
      recordId,
      socketId: sockets[1]!,
      registerWh: 400,
      powerW: 300,
      at: T + 60 * MIN,
    });
    await clockTo(T + 70 * MIN);
    const lost = await endSessionsOfLostHost(device(), hostId, T + 65 * MIN);
    expect(lost).toMatchObject([{ recordId, amountCents: 135 }]);
    const provisional = await orderOf(recordId);
    // 300 Wh by day, band 2 for 2 started hours, the service fee.
    expect(summary(provisional.Lines)).toEqual([
      ['period', 300, 150, 45],
      ['band', 2, 20, 40],
      ['service', 1, 50, 50],
    ]);
    expect(provisional.AmountCents).toBe(135);
    // The charger's queued stop: it went on at 300 W for 30 more minutes after the last reading.
    const corrected = await closeDeviceSession(device(), {
      recordId,
      socketId: sockets[1]!,
      endAt: T + 90 * MIN,
      meterStopWh: 550,
      stopReason: 1,
    });
    expect(corrected).toMatchObject({ closed: true, corrected: true, energyWh: 450 });
    const final = await orderOf(recordId);
    expect(summary(final.Lines)).toEqual([
      ['period', 450, 150, 68],
      ['band', 2, 20, 40],
      ['service', 1, 50, 50],
    ]);
    expect(final).toMatchObject({ AmountCents: 158, EnergyWh: 450, DurationMinutes: 90 });
  });

  it("a charger's MeterValues are folded at their own time, through the OCPP gateway", async () => {
    const url = await listenForChargers(h().app);
    await setOcppPassword(h().db, hostId, 'tariff-host-password-2026');
    const cp = await simulatorOnline(
      {
        url,
        serial: 'TARIFFHOST01',
        password: 'tariff-host-password-2026',
        connectors: 2,
        now: () => h().clock.now(),
      },
      points,
    );
    const started = await plugInAndSwipe(cp, 1, '0088001001', { soc: 0.2, capacityWh: 2000 }, 300);
    expect(started.status).toBe('Accepted');
    const recordId = started.transactionId!;
    const digest = async () => {
      const row = await k()
        .selectFrom('ChargeRecord')
        .select(['MeterDigest', 'EnergyWh'])
        .where('Id', '=', recordId)
        .executeTakeFirstOrThrow();
      return { ...(JSON.parse(row.MeterDigest ?? 'null') as MeterDigest), EnergyWh: row.EnergyWh };
    };
    // Ten minutes at 300 W, read every five: each reading folded at the time the charger stamped it.
    for (const step of [1, 2]) {
      h().clock.advance(5 * MIN);
      await cp.advance(300);
      const at = h().clock.now();
      await until(async () => (await digest()).Count === step + 1);
      expect((await digest()).Last.At).toBe(at);
    }
    expect(await digest()).toMatchObject({ SustainedW: 300, EnergyWh: 50 });
    const order = await orderOf(recordId);
    expect(order).toMatchObject({ Estimated: true, AmountCents: 8 + 20 + 50 });
    expect(summary(order.Lines)).toEqual([
      ['period', 50, 150, 8],
      ['band', 1, 20, 20],
      ['service', 1, 50, 50],
    ]);
  });

  it("orders settled before orders were itemised (the demo's) show the lines of their terms when they give the amount", async () => {
    const page = await call<{ Items: Order[] }>(h().app, 'GET', '/api/ChargeOrder', {
      token: user,
      area: 1,
      query: {
        StartTime: new Date(h().clock.now() - 30 * 86_400_000).toISOString(),
        EndTime: new Date(h().clock.now()).toISOString(),
        Open: false,
        PageSize: 50,
      },
    });
    expect(page.status, page.msg).toBe(200);
    const items = page.data.Items;
    expect(items.length).toBeGreaterThan(10);
    for (const item of items) {
      expect(item.Lines).not.toBeNull();
      expect(item.Lines!.reduce((s, l) => s + l.AmountCents, 0)).toBe(item.AmountCents);
    }
  });
});
