import type { Expression, ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { ALARM, raiseAlarm } from '../src/modules/access-control/door-alarm/service.ts';
import { pruneSwipeRecords, recordSwipes, type SwipeInput } from '../src/modules/access-control/index.ts';
import {
  powerOffAnswered,
  insertPowerOffRequest,
} from '../src/modules/garage/forced-outage-record/records.ts';
import { closeDeviceSession, openDeviceSession, pruneGarageRecords } from '../src/modules/garage/index.ts';
import { systemActor } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, systemContext } from './support/harness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the reference queries serve every records table */

/**
 * Every records list (issue 32, must-show 2) and every filter its screen offers (device, card, holder, host,
 * socket, zone, result, state, payment, the 61-day range, and the rest of each list's filters), on both
 * databases: the first, second, middle, last and past-the-end page, in both sort orders where the list offers
 * them, equal the page a plain `ORDER BY … LIMIT … OFFSET` returns over the same filter, and the totals equal a
 * plain `count(*)` — while records arrive (late ones too, as from a controller back online) and while retention
 * removes the oldest step by step. The reference queries are written here from what each filter means (a host's
 * sockets, a zone's hosts, an order's session), not taken from the lists' own conditions, so a list that pages
 * from day counts, seeks a day, walks a narrow index or sorts a time window must still land on exactly these rows.
 */

type AnyKysely = Kysely<any>;
type Query = SelectQueryBuilder<any, any, any>;
type Eb = ExpressionBuilder<any, any>;
type Value = string | number | boolean;
type Order = 'asc' | 'desc';

const AREA = 1;
const DAY = 86_400_000;
const PAGE = 7;

/** A records list as the reference sees it: its rows with the joins its filters need, and its orders. */
interface ListDef {
  name: string;
  path: string;
  token: 'ac' | 'garage';
  /** The list's rows of the area, with every join a filter needs (aliases are the reference's own). */
  from(k: AnyKysely): Query;
  id: string;
  /** The time column of the range. */
  time: string;
  /** SortField → column; the first is the list's default (its time). */
  sorts: Record<string, string>;
  /** false: the list has one order only (newest first) and takes no SortField or SortOrder. */
  sortable: boolean;
  /** What each filter means, written independently of the list's own conditions. */
  where: Record<string, (eb: Eb, value: any) => Expression<SqlBool>>;
}

const like = (eb: Eb, column: string, text: string) =>
  sql<SqlBool>`lower(${eb.ref(column)}) like ${`%${text.toLowerCase()}%`}`;

const LISTS: ListDef[] = [
  {
    name: 'swipes',
    path: '/api/DoorOpeningRecord',
    token: 'ac',
    from: (k) => k.selectFrom('DoorOpeningRecord as R').where('R.AreaId', '=', AREA),
    id: 'R.Id',
    time: 'R.At',
    sorts: { At: 'R.At' },
    sortable: false,
    where: {
      Result: (eb, v: boolean) => eb('R.Result', '=', v ? 1 : 0),
      DeviceId: (eb, v: number) => eb('R.DeviceId', '=', v),
      CardUserId: (eb, v: number) => eb('R.CardUserId', '=', v),
      CardNumber: (eb, v: string) => eb('R.CardNumber', '=', v),
      HolderName: (eb, v: string) =>
        eb(
          'R.CardUserId',
          'in',
          eb
            .selectFrom('CardUser as U')
            .select('U.Id')
            .where('U.AreaId', '=', AREA)
            .where((e) => like(e, 'U.Name', v)),
        ),
    },
  },
  {
    name: 'visitor log',
    path: '/api/VisitorLog',
    token: 'ac',
    from: (k) =>
      k
        .selectFrom('DoorOpeningRecord as R')
        .innerJoin('VisitorPass as P', 'P.CardUserId', 'R.CardUserId')
        .where('R.AreaId', '=', AREA),
    id: 'R.Id',
    time: 'R.At',
    sorts: { At: 'R.At' },
    sortable: true,
    where: {
      Keyword: (eb, v: string) =>
        eb.or([like(eb, 'P.VisitorName', v), like(eb, 'P.Company', v), like(eb, 'R.CardNumber', v)]),
      VisitorPassId: (eb, v: number) => eb('P.Id', '=', v),
      HostCardUserId: (eb, v: number) => eb('P.HostCardUserId', '=', v),
      DeviceId: (eb, v: number) => eb('R.DeviceId', '=', v),
      Result: (eb, v: boolean) => eb('R.Result', '=', v ? 1 : 0),
    },
  },
  {
    name: 'door alarms',
    path: '/api/DoorAlarm',
    token: 'ac',
    from: (k) => k.selectFrom('DoorAlarm as A').where('A.AreaId', '=', AREA),
    id: 'A.Id',
    time: 'A.RaisedAt',
    sorts: { RaisedAt: 'A.RaisedAt', Id: 'A.Id' },
    sortable: true,
    where: {
      Kind: (eb, v: number) => eb('A.Kind', '=', v),
      State: (eb, v: number) => eb('A.State', '=', v),
      DeviceId: (eb, v: number) => eb('A.DeviceId', '=', v),
    },
  },
  {
    name: 'charging sessions',
    path: '/api/ChargeRecord',
    token: 'garage',
    from: (k) =>
      k
        .selectFrom('ChargeRecord as C')
        .innerJoin('ChargeEquipment as E', 'E.Id', 'C.ChargeEquipmentId')
        .innerJoin('ChargeHost as H', 'H.Id', 'E.ChargeHostId')
        .where('C.AreaId', '=', AREA),
    id: 'C.Id',
    time: 'C.StartAt',
    sorts: { StartAt: 'C.StartAt', EndAt: 'C.EndAt', EnergyWh: 'C.EnergyWh' },
    sortable: true,
    where: {
      CardNumber: (eb, v: string) => like(eb, 'C.CardNumber', v),
      ChargeEquipmentId: (eb, v: number) => eb('C.ChargeEquipmentId', '=', v),
      ChargeHostId: (eb, v: number) => eb('E.ChargeHostId', '=', v),
      ParkAreaId: (eb, v: number) => eb('H.ParkAreaId', '=', v),
      StopReason: (eb, v: number) => eb('C.StopReason', '=', v),
      Open: (eb, v: boolean) => eb('C.EndAt', v ? 'is' : 'is not', null),
    },
  },
  {
    name: 'charging orders',
    path: '/api/ChargeOrder',
    token: 'garage',
    // Where an order happened is its session's socket (the order's own copy must agree).
    from: (k) =>
      k
        .selectFrom('ChargeOrder as O')
        .innerJoin('ChargeRecord as C', 'C.Id', 'O.ChargeRecordId')
        .innerJoin('ChargeEquipment as E', 'E.Id', 'C.ChargeEquipmentId')
        .innerJoin('ChargeHost as H', 'H.Id', 'E.ChargeHostId')
        .where('O.AreaId', '=', AREA),
    id: 'O.Id',
    time: 'O.CreatedAt',
    sorts: {
      StartAt: 'O.CreatedAt',
      AmountCents: 'O.AmountCents',
      PaymentState: 'O.PaymentState',
      UpdatedAt: 'O.UpdatedAt',
    },
    sortable: true,
    where: {
      OrderNo: (eb, v: string) => like(eb, 'O.OrderNo', v),
      PaymentState: (eb, v: number) => eb('O.PaymentState', '=', v),
      ChargeType: (eb, v: number) => eb('O.ChargeType', '=', v),
      ChargeRuleId: (eb, v: number) => eb('O.ChargeRuleId', '=', v),
      ChargeRecordId: (eb, v: number) => eb('O.ChargeRecordId', '=', v),
      Open: (eb, v: boolean) => eb('O.SettledAt', v ? 'is' : 'is not', null),
      ChargeEquipmentId: (eb, v: number) => eb('C.ChargeEquipmentId', '=', v),
      ChargeHostId: (eb, v: number) => eb('E.ChargeHostId', '=', v),
      ParkAreaId: (eb, v: number) => eb('H.ParkAreaId', '=', v),
      CardNumber: (eb, v: string) => like(eb, 'C.CardNumber', v),
      // Stop reason 3: a forced power-off.
      Forced: (eb, v: boolean) =>
        v ? eb('C.StopReason', '=', 3) : eb.or([eb('C.StopReason', 'is', null), eb('C.StopReason', '!=', 3)]),
    },
  },
  {
    name: 'parking orders',
    path: '/api/ParkOrder',
    token: 'garage',
    from: (k) => k.selectFrom('ParkOrder as P').where('P.AreaId', '=', AREA),
    id: 'P.Id',
    time: 'P.EntryAt',
    sorts: {
      EntryAt: 'P.EntryAt',
      ExitAt: 'P.ExitAt',
      AmountCents: 'P.AmountCents',
      PaymentState: 'P.PaymentState',
    },
    sortable: true,
    where: {
      OrderNo: (eb, v: string) => like(eb, 'P.OrderNo', v),
      Plate: (eb, v: string) => like(eb, 'P.Plate', v),
      CardNumber: (eb, v: string) => like(eb, 'P.CardNumber', v),
      Keyword: (eb, v: string) =>
        eb.or([like(eb, 'P.Plate', v), like(eb, 'P.CardNumber', v), like(eb, 'P.OrderNo', v)]),
      ParkAreaId: (eb, v: number) => eb('P.ParkAreaId', '=', v),
      ChargeRuleId: (eb, v: number) => eb('P.ChargeRuleId', '=', v),
      VehicleId: (eb, v: number) => eb('P.VehicleId', '=', v),
      PaymentState: (eb, v: number) => eb('P.PaymentState', '=', v),
      ChargeType: (eb, v: number) => eb('P.ChargeType', '=', v),
      Inside: (eb, v: boolean) => eb('P.ExitAt', v ? 'is' : 'is not', null),
    },
  },
  {
    name: 'power-offs',
    path: '/api/ForcedOutageRecord',
    token: 'garage',
    from: (k) =>
      k
        .selectFrom('ForcedOutageRecord as F')
        .innerJoin('ChargeEquipment as E', 'E.Id', 'F.ChargeEquipmentId')
        .innerJoin('ChargeHost as H', 'H.Id', 'E.ChargeHostId')
        .leftJoin('ChargeRecord as C', 'C.Id', 'F.ChargeRecordId')
        .leftJoin('ChargeOrder as O', 'O.Id', 'F.ChargeOrderId')
        .where('F.AreaId', '=', AREA),
    id: 'F.Id',
    time: 'F.At',
    sorts: { At: 'F.At' },
    sortable: true,
    where: {
      ChargeEquipmentId: (eb, v: number) => eb('F.ChargeEquipmentId', '=', v),
      ChargeHostId: (eb, v: number) => eb('E.ChargeHostId', '=', v),
      ParkAreaId: (eb, v: number) => eb('H.ParkAreaId', '=', v),
      Result: (eb, v: number) => eb('F.Result', '=', v),
      UserName: (eb, v: string) => like(eb, 'F.UserName', v),
      Keyword: (eb, v: string) =>
        eb.or([like(eb, 'F.Reason', v), like(eb, 'O.OrderNo', v), like(eb, 'C.CardNumber', v)]),
    },
  },
];

interface Case {
  list: ListDef;
  label: string;
  filters: Record<string, Value>;
  range?: { from: number; to: number };
  /** Sorted by another column than the list's time (both orders). */
  sort?: string;
}

type PageOf = { Items: { Id: number }[]; Total: number; TotalCapped?: boolean };

/** A small deterministic generator (the same records on both databases and every run). */
function generator(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

describeEachDb('filtered pages equal plain OFFSET pages, totals exact', (h) => {
  const tokens = { ac: '', garage: '' };
  const k = () => h().db.kysely as AnyKysely;
  const cases: Case[] = [];
  /** The first character of many holders' names (set when the records are added). */
  let surname = '';

  /** The reference: count(*) and the page by plain OFFSET, over the same filter and order. */
  function referenceQuery(c: Case): Query {
    let q = c.list.from(k());
    for (const [name, value] of Object.entries(c.filters)) {
      const condition = c.list.where[name];
      if (!condition) throw new Error(`${c.list.name}: no reference for ${name}`);
      q = q.where((eb) => condition(eb, value));
    }
    if (c.range) q = q.where(c.list.time, '>=', c.range.from).where(c.list.time, '<=', c.range.to);
    return q;
  }
  async function referenceTotal(c: Case): Promise<number> {
    const row = await referenceQuery(c)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  async function referencePage(c: Case, order: Order, index: number): Promise<number[]> {
    const column = c.list.sorts[c.sort ?? Object.keys(c.list.sorts)[0]!]!;
    const rows = await referenceQuery(c)
      .select(`${c.list.id} as Id`)
      .orderBy(column, order)
      .orderBy(c.list.id, order)
      .limit(PAGE)
      .offset((index - 1) * PAGE)
      .execute();
    return rows.map((r) => Number(r.Id));
  }

  async function listPage(c: Case, order: Order, index: number): Promise<PageOf> {
    const query: Record<string, string | number> = { PageIndex: index, PageSize: PAGE };
    for (const [name, value] of Object.entries(c.filters)) query[name] = String(value);
    if (c.range) {
      query.StartTime = new Date(c.range.from).toISOString();
      query.EndTime = new Date(c.range.to).toISOString();
    }
    if (c.list.sortable) {
      query.SortField = c.sort ?? Object.keys(c.list.sorts)[0]!;
      query.SortOrder = order;
    }
    const reply = await call<PageOf>(h().app, 'GET', c.list.path, {
      token: tokens[c.list.token],
      area: AREA,
      query,
    });
    expect(reply.status, `${describe(c, order)} page ${index}: ${reply.msg}`).toBe(200);
    return reply.data;
  }

  const describe = (c: Case, order: Order) =>
    `${c.list.name} ${c.label}${c.sort ? ` by ${c.sort}` : ''} ${order}`;
  const ordersOf = (c: Case): Order[] => (c.list.sortable ? ['desc', 'asc'] : ['desc']);

  /**
   * The list's pages against the reference's: `deep` checks the first, second, middle, last and past-the-end
   * pages in every order; `edges` the first and last page of the default order; `total` only the total.
   */
  async function check(c: Case, depth: 'deep' | 'edges' | 'total'): Promise<number> {
    const total = await referenceTotal(c);
    const last = Math.max(1, Math.ceil(total / PAGE));
    const indexes =
      depth === 'deep' ? [1, 2, Math.ceil(last / 2), last, last + 1] : depth === 'edges' ? [1, last] : [last];
    for (const order of depth === 'deep' ? ordersOf(c) : ordersOf(c).slice(0, 1))
      for (const index of [...new Set(indexes)]) {
        const page = await listPage(c, order, index);
        const what = `${describe(c, order)} page ${index} of ${last}`;
        expect(page.Total, `${what}: total`).toBe(total);
        expect(page.TotalCapped, what).toBeUndefined();
        if (depth !== 'total')
          expect(
            page.Items.map((i) => i.Id),
            what,
          ).toEqual(await referencePage(c, order, index));
      }
    return total;
  }

  const first = async (q: Query, column = 'v'): Promise<any> => {
    const row = await q.executeTakeFirstOrThrow();
    return (row as Record<string, unknown>)[column];
  };
  /** The value of `column` in the area's rows of `from` that most rows share. */
  const busiest = (from: Query, column: string) =>
    first(
      from
        .select(`${column} as v`)
        .groupBy(column)
        .orderBy((eb) => eb.fn.countAll(), 'desc')
        .orderBy(column),
    );

  beforeAll(async () => {
    tokens.ac = await login(h().app, 'acadmin', DEMO_PASSWORD);
    tokens.garage = await login(h().app, 'bikeadmin', DEMO_PASSWORD);
  });

  it('adds what the demo lacks: visitor passes and their swipes, a holder name matching thousands of swipes, alarms, power-offs', async () => {
    const { app, clock } = h();
    const now = clock.now();
    const g = generator(32);
    const devices = await k()
      .selectFrom('AccessControlDevice as D')
      .innerJoin('AccessControlChannel as Ch', 'Ch.DeviceId', 'D.Id')
      .select(['D.Id', 'D.Name', 'Ch.Id as ChannelId', 'Ch.DoorNumber', 'Ch.Direction'])
      .where('D.AreaId', '=', AREA)
      .orderBy('D.Id')
      .orderBy('Ch.Id')
      .execute();
    expect(devices.length).toBeGreaterThan(10);
    const swipe = (card: string, at: number): SwipeInput => {
      const d = devices[g.int(0, devices.length - 1)]!;
      const result = g.next() < 0.8;
      return {
        DeviceId: d.Id,
        DoorNumber: d.DoorNumber,
        Direction: d.Direction,
        CardNumber: card,
        At: at,
        Result: result,
        Reason: result ? 1 : 6,
      };
    };
    const store = async (inputs: SwipeInput[]) => {
      for (let i = 0; i < inputs.length; i += 500)
        await recordSwipes(h().db.kysely, inputs.slice(i, i + 500));
    };

    // Visitor passes, issued as the screen does, and their cards' swipes over 80 days.
    const hosts = await k()
      .selectFrom('CardUser')
      .select(['Id'])
      .where('AreaId', '=', AREA)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .limit(2)
      .execute();
    const minute = Math.ceil(now / 60_000) * 60_000;
    const passes: { Id: number; CardNumber: string }[] = [];
    for (const [i, company] of ['Analytical Engines', 'Difference Works', null].entries()) {
      const issued = await call<{ Id: number; CardNumber: string }>(app, 'POST', '/api/VisitorPass', {
        token: tokens.ac,
        area: AREA,
        body: {
          VisitorName: `Visitor ${i + 1}`,
          Company: company,
          Phone: '13800138000',
          HostCardUserId: hosts[i % hosts.length]!.Id,
          ChannelIds: devices
            .filter((d) => d.Direction === 1)
            .map((d) => d.ChannelId)
            .slice(0, 2),
          ValidFrom: minute,
          ValidTo: minute + 120 * 60_000,
        },
      });
      expect(issued.status, issued.msg).toBe(200);
      passes.push(issued.data);
    }
    await store(
      Array.from({ length: 150 }, (_, i) =>
        swipe(
          passes[i % 3]!.CardNumber,
          now - 80 * DAY + Math.floor((i * 80 * DAY) / 150) + g.int(0, 3_600_000),
        ),
      ),
    );

    // A surname many holders share: its matches (over 2,000) are paged through a time window, not sorted whole.
    const names = await k()
      .selectFrom('CardUser as U')
      .innerJoin('Card as Cd', 'Cd.CardUserId', 'U.Id')
      .select(['U.Id', 'U.Name', 'Cd.CardNumber'])
      .where('U.AreaId', '=', AREA)
      .orderBy('Cd.Id')
      .execute();
    const bySurname = new Map<string, number>();
    for (const n of names) {
      const key = String(n.Name).slice(0, 1);
      bySurname.set(key, (bySurname.get(key) ?? 0) + 1);
    }
    surname = [...bySurname.keys()].sort(
      (a, b) => bySurname.get(b)! - bySurname.get(a)! || a.localeCompare(b),
    )[0]!;
    // Every holder whose name has the character anywhere is a match (the filter is "contains").
    const matching = names.filter((n) => String(n.Name).includes(surname));
    expect(matching.length).toBeGreaterThan(1);
    // 2,300 of them, uneven over time (a quiet month, then a busy one), two at some instants (the Id breaks the
    // tie). Written as rows with their day counts, as the one writer keeps them: through the writer (a lookup
    // and an outbox event each) they would take most of this file's time on PostgreSQL.
    const rows = Array.from({ length: 2_300 }, (_, i) => {
      const holder = matching[i % matching.length]!;
      const d = devices[g.int(0, devices.length - 1)]!;
      const at = i < 300 ? now - 85 * DAY + i * 3 * 3_600_000 : now - 45 * DAY + (i - 300) * 1_900_000;
      const result = g.next() < 0.8 ? 1 : 0;
      return {
        AreaId: AREA,
        At: i % 97 === 0 ? at - 1_900_000 : at,
        CardNumber: holder.CardNumber as string,
        CardUserId: holder.Id as number,
        HolderName: holder.Name as string,
        DeviceId: d.Id,
        DeviceName: d.Name,
        ChannelId: d.ChannelId,
        ChannelName: null,
        DoorNumber: d.DoorNumber,
        Direction: d.Direction,
        Result: result,
        Reason: result ? 1 : 6,
        RecordIndex: null,
        EventType: null,
        EventReason: null,
      };
    });
    const days = new Map<string, { Day: number; DeviceId: number; Result: number; Count: number }>();
    for (const r of rows) {
      const day = { Day: Math.floor(r.At / DAY), DeviceId: r.DeviceId, Result: r.Result, Count: 0 };
      const key = `${day.Day}:${day.DeviceId}:${day.Result}`;
      (days.get(key) ?? days.set(key, day).get(key)!).Count += 1;
    }
    await h()
      .db.kysely.transaction()
      .execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 250)
          await trx
            .insertInto('DoorOpeningRecord')
            .values(rows.slice(i, i + 250))
            .execute();
        for (const day of days.values())
          await trx
            .insertInto('DoorOpeningRecordDay')
            .values({ AreaId: AREA, ...day })
            .onConflict((oc) =>
              oc
                .columns(['AreaId', 'Day', 'DeviceId', 'Result'])
                .doUpdateSet({ Count: sql<number>`"DoorOpeningRecordDay"."Count" + ${day.Count}` }),
            )
            .execute();
      });

    // Alarms of every kind on several doors over 80 days; some acknowledged.
    const alarms: number[] = [];
    for (let i = 0; i < 70; i++) {
      const d = devices[(i * 7) % devices.length]!;
      const raised = await h()
        .db.kysely.transaction()
        .execute((trx) =>
          raiseAlarm(systemContext(h()), trx, {
            device: { Id: d.Id, AreaId: AREA, Name: d.Name },
            door: d.DoorNumber,
            doorName: null,
            kind: [ALARM.forced, ALARM.heldOpen, ALARM.refused, ALARM.offline][i % 4]!,
            at: now - 80 * DAY + i * 27 * 3_600_000,
            repeatWithinMs: 60_000,
          }),
        );
      alarms.push(raised.item.Id);
    }
    const ack = await call(app, 'POST', '/api/DoorAlarm/Acknowledge', {
      token: tokens.ac,
      area: AREA,
      body: { Ids: alarms.filter((_, i) => i % 3 === 0), Note: 'checked on site' },
    });
    expect(ack.status, ack.msg).toBe(200);

    // Power-offs over 80 days on the area's sockets, some of them of an ended session (its order and card).
    const sessions = await k()
      .selectFrom('ChargeRecord as C')
      .innerJoin('ChargeOrder as O', 'O.ChargeRecordId', 'C.Id')
      .select(['C.Id', 'C.ChargeEquipmentId', 'C.StartAt', 'O.Id as OrderId'])
      .where('C.AreaId', '=', AREA)
      .where('C.EndAt', 'is not', null)
      .orderBy('C.StartAt')
      .execute();
    const reasons = ['过温保护', '用户投诉', 'maintenance', '电池鼓包'];
    const operators = await k()
      .selectFrom('AppUser')
      .select(['Id', 'UserName'])
      .where('UserName', 'in', ['bikeadmin', 'kefu01'])
      .orderBy('UserName')
      .execute();
    expect(operators).toHaveLength(2);
    for (let i = 0; i < 45; i++) {
      const session = sessions[(i * 5) % sessions.length]!;
      const withSession = i % 3 !== 0;
      await h()
        .db.kysely.transaction()
        .execute(async (trx) => {
          const id = await insertPowerOffRequest(trx, {
            AreaId: AREA,
            ChargeEquipmentId: session.ChargeEquipmentId,
            ChargeRecordId: withSession ? session.Id : null,
            ChargeOrderId: withSession ? session.OrderId : null,
            Reason: reasons[i % reasons.length]!,
            UserId: operators[i % 2]!.Id,
            UserName: operators[i % 2]!.UserName,
            At: withSession ? session.StartAt + 60_000 : now - 80 * DAY + i * 42 * 3_600_000,
          });
          await powerOffAnswered(trx, id, i % 4, i % 4 === 1 ? null : 'noDeviceLink');
        });
    }
  }, 120_000);

  it('every filter of every records list pages as a plain OFFSET query does, in both orders', async () => {
    const { clock } = h();
    const now = clock.now();
    // The screens' 61-day range: local days (Asia/Shanghai) from 60 days ago to the end of today.
    const endOfToday = Math.floor((now + 8 * 3_600_000) / DAY) * DAY - 8 * 3_600_000 + DAY - 1;
    const range = { from: endOfToday + 1 - 61 * DAY, to: endOfToday };
    const [swipes, visitors, alarms, sessions, orders, parks, powerOffs] = LISTS as [
      ListDef,
      ListDef,
      ListDef,
      ListDef,
      ListDef,
      ListDef,
      ListDef,
    ];
    const of = (list: ListDef) => list.from(k());
    const R = (table: string, alias: string) =>
      k().selectFrom(`${table} as ${alias}`).where(`${alias}.AreaId`, '=', AREA);

    const device = await busiest(of(swipes), 'R.DeviceId');
    const quietDevice = await first(
      of(swipes)
        .select('R.DeviceId as v')
        .groupBy('R.DeviceId')
        .orderBy((eb) => eb.fn.countAll(), 'asc')
        .orderBy('R.DeviceId'),
    );
    const card = await busiest(of(swipes).where('R.CardUserId', 'is not', null), 'R.CardNumber');
    const holder = await busiest(of(swipes).where('R.CardUserId', 'is not', null), 'R.CardUserId');
    const holderName = await first(k().selectFrom('CardUser').select('Name as v').where('Id', '=', holder));
    const pass = await busiest(of(visitors), 'P.Id');
    const passHost = await first(
      k().selectFrom('VisitorPass').select('HostCardUserId as v').where('Id', '=', pass),
    );
    const visitorDevice = await busiest(of(visitors), 'R.DeviceId');
    const alarmDevice = await busiest(of(alarms), 'A.DeviceId');
    const socket = await busiest(of(sessions), 'C.ChargeEquipmentId');
    const host = await busiest(of(sessions), 'E.ChargeHostId');
    const zone = await busiest(of(sessions), 'H.ParkAreaId');
    const sessionCard = String(await busiest(of(sessions), 'C.CardNumber')).slice(-5);
    const stopReason = await busiest(of(sessions).where('C.StopReason', 'is not', null), 'C.StopReason');
    const rule = await busiest(of(orders), 'O.ChargeRuleId');
    const chargeType = await busiest(of(orders), 'O.ChargeType');
    const record = await busiest(of(orders), 'O.ChargeRecordId');
    const orderNo = String(await first(of(orders).select('O.OrderNo as v').orderBy('O.Id'))).slice(0, 8);
    const parkZone = await busiest(R('ParkOrder', 'P'), 'P.ParkAreaId');
    const parkRule = await busiest(R('ParkOrder', 'P'), 'P.ChargeRuleId');
    const parkType = await busiest(R('ParkOrder', 'P'), 'P.ChargeType');
    const vehicle = await busiest(R('ParkOrder', 'P').where('P.VehicleId', 'is not', null), 'P.VehicleId');
    const plate = String(await busiest(R('ParkOrder', 'P').where('P.Plate', 'is not', null), 'P.Plate'));
    const parkCard = String(
      await busiest(R('ParkOrder', 'P').where('P.CardNumber', 'is not', null), 'P.CardNumber'),
    );
    const parkNo = String(await first(R('ParkOrder', 'P').select('P.OrderNo as v').orderBy('P.Id')));
    const offSocket = await busiest(of(powerOffs), 'F.ChargeEquipmentId');
    const offHost = await busiest(of(powerOffs), 'E.ChargeHostId');
    const offZone = await busiest(of(powerOffs), 'H.ParkAreaId');
    const offOrderNo = String(
      await first(of(powerOffs).select('O.OrderNo as v').where('O.OrderNo', 'is not', null)),
    );

    const add = (list: ListDef, label: string, filters: Record<string, Value>, extra: Partial<Case> = {}) =>
      cases.push({ list, label, filters, ...extra });
    const ranged = (list: ListDef, label: string, filters: Record<string, Value>) =>
      add(list, `${label}, 61 days`, filters, { range });

    add(swipes, 'all', {});
    ranged(swipes, 'all', {});
    add(swipes, 'busiest device', { DeviceId: device });
    ranged(swipes, 'busiest device', { DeviceId: device });
    add(swipes, 'quietest device', { DeviceId: quietDevice });
    add(swipes, 'refused', { Result: false });
    ranged(swipes, 'granted', { Result: true });
    add(swipes, 'device, refused', { DeviceId: device, Result: false });
    add(swipes, 'one card', { CardNumber: card });
    ranged(swipes, 'one card', { CardNumber: card });
    add(swipes, 'one holder', { CardUserId: holder });
    add(swipes, 'holder name', { HolderName: String(holderName) });
    add(swipes, 'surname (thousands of matches)', { HolderName: surname });
    ranged(swipes, 'surname (thousands of matches)', { HolderName: surname });

    add(visitors, 'all', {});
    ranged(visitors, 'all', {});
    add(visitors, 'company keyword', { Keyword: 'analytical' });
    add(visitors, 'one pass', { VisitorPassId: pass });
    add(visitors, 'one host', { HostCardUserId: passHost });
    add(visitors, 'one device', { DeviceId: visitorDevice });
    ranged(visitors, 'one device', { DeviceId: visitorDevice });
    add(visitors, 'refused', { Result: false });

    add(alarms, 'all', {});
    ranged(alarms, 'all', {});
    add(alarms, 'refused swipes', { Kind: ALARM.refused });
    add(alarms, 'open', { State: 0 });
    add(alarms, 'acknowledged', { State: 1 });
    add(alarms, 'one device', { DeviceId: alarmDevice });
    ranged(alarms, 'forced, open', { Kind: ALARM.forced, State: 0 });
    add(alarms, 'all', {}, { sort: 'Id' });

    add(sessions, 'all', {});
    ranged(sessions, 'all', {});
    add(sessions, 'one socket', { ChargeEquipmentId: socket });
    add(sessions, 'one host', { ChargeHostId: host });
    ranged(sessions, 'one host', { ChargeHostId: host });
    add(sessions, 'one zone', { ParkAreaId: zone });
    ranged(sessions, 'one zone', { ParkAreaId: zone });
    add(sessions, 'card', { CardNumber: sessionCard });
    add(sessions, 'stop reason', { StopReason: stopReason });
    add(sessions, 'charging', { Open: true });
    add(sessions, 'ended', { Open: false });
    add(sessions, 'all', {}, { sort: 'EndAt' });
    add(sessions, 'one zone', { ParkAreaId: zone }, { sort: 'EnergyWh' });

    add(orders, 'all', {});
    ranged(orders, 'all', {});
    add(orders, 'paid', { PaymentState: 2 });
    ranged(orders, 'paid', { PaymentState: 2 });
    add(orders, 'order number', { OrderNo: orderNo });
    add(orders, 'card', { CardNumber: sessionCard });
    add(orders, 'charge type', { ChargeType: chargeType });
    add(orders, 'rule', { ChargeRuleId: rule });
    add(orders, 'one session', { ChargeRecordId: record });
    add(orders, 'charging', { Open: true });
    add(orders, 'forced', { Forced: true });
    add(orders, 'not forced', { Forced: false });
    add(orders, 'one socket', { ChargeEquipmentId: socket });
    add(orders, 'one host', { ChargeHostId: host });
    add(orders, 'one zone', { ParkAreaId: zone });
    ranged(orders, 'one zone, paid', { ParkAreaId: zone, PaymentState: 2 });
    add(orders, 'all', {}, { sort: 'AmountCents' });
    add(orders, 'paid', { PaymentState: 2 }, { sort: 'UpdatedAt' });
    add(orders, 'one zone', { ParkAreaId: zone }, { sort: 'PaymentState' });

    add(parks, 'all', {});
    ranged(parks, 'all', {});
    add(parks, 'one zone', { ParkAreaId: parkZone });
    ranged(parks, 'one zone', { ParkAreaId: parkZone });
    add(parks, 'paid', { PaymentState: 2 });
    ranged(parks, 'paid', { PaymentState: 2 });
    add(parks, 'inside', { Inside: true });
    add(parks, 'left', { Inside: false });
    add(parks, 'rule', { ChargeRuleId: parkRule });
    add(parks, 'charge type', { ChargeType: parkType });
    add(parks, 'vehicle', { VehicleId: vehicle });
    add(parks, 'keyword', { Keyword: plate.slice(0, 2) });
    add(parks, 'plate', { Plate: plate });
    add(parks, 'card', { CardNumber: parkCard });
    add(parks, 'order number', { OrderNo: parkNo });
    add(parks, 'all', {}, { sort: 'ExitAt' });
    add(parks, 'paid', { PaymentState: 2 }, { sort: 'AmountCents' });

    add(powerOffs, 'all', {});
    ranged(powerOffs, 'all', {});
    add(powerOffs, 'one socket', { ChargeEquipmentId: offSocket });
    add(powerOffs, 'one host', { ChargeHostId: offHost });
    ranged(powerOffs, 'one host', { ChargeHostId: offHost });
    add(powerOffs, 'one zone', { ParkAreaId: offZone });
    add(powerOffs, 'not sent', { Result: 0 });
    add(powerOffs, 'power cut', { Result: 1 });
    add(powerOffs, 'operator', { UserName: 'kefu' });
    add(powerOffs, 'reason keyword', { Keyword: 'maint' });
    add(powerOffs, 'order number keyword', { Keyword: offOrderNo });

    // Every filter the lists declare is in a case (a filter added to a list must be added here).
    for (const list of LISTS)
      expect(
        Object.keys(list.where).filter((name) => !cases.some((c) => c.list === list && name in c.filters)),
        list.name,
      ).toEqual([]);

    const totals: Record<string, number> = {};
    for (const c of cases) totals[`${c.list.name} ${c.label}`] = await check(c, 'deep');
    // The cases select something, and the ranges and filters cut (a case matching nothing proves little).
    for (const [label, total] of Object.entries(totals)) expect(total, label).toBeGreaterThan(0);
    expect(totals['swipes surname (thousands of matches)']).toBeGreaterThan(2_000);
    expect(totals['swipes all, 61 days']).toBeLessThan(totals['swipes all']!);
    expect(totals['charging sessions all, 61 days']).toBeLessThan(totals['charging sessions all']!);
  }, 300_000);

  it('totals stay exact while records arrive, late ones too', async () => {
    const { clock } = h();
    const ctx = { ...systemContext(h()), areaId: AREA, actor: systemActor('charger') };
    const devices = await k()
      .selectFrom('AccessControlChannel')
      .select(['DeviceId', 'DoorNumber', 'Direction'])
      .where('AreaId', '=', AREA)
      .orderBy('Id')
      .execute();
    const passCards = (await k().selectFrom('VisitorPass').select('CardNumber').orderBy('Id').execute()).map(
      (p) => p.CardNumber as string,
    );
    const known = (
      await k()
        .selectFrom('Card')
        .select('CardNumber')
        .where('AreaId', '=', AREA)
        .where('CardUserId', 'is not', null)
        .orderBy('Id')
        .limit(20)
        .execute()
    ).map((c) => c.CardNumber as string);
    const sockets = await k()
      .selectFrom('ChargeEquipment as E')
      .leftJoin('ChargeRecord as C', (j) =>
        j.onRef('C.ChargeEquipmentId', '=', 'E.Id').on('C.EndAt', 'is', null),
      )
      .select('E.Id')
      .where('E.AreaId', '=', AREA)
      .where('C.Id', 'is', null)
      .orderBy('E.Id')
      .limit(3)
      .execute();
    const vehicles = (
      await k()
        .selectFrom('Vehicle')
        .select('CardNumber')
        .where('AreaId', '=', AREA)
        .where('Disabled', '=', 0)
        .where('CardNumber', 'is not', null)
        .orderBy('Id')
        .limit(3)
        .execute()
    ).map((v) => v.CardNumber as string);
    expect(sockets.length).toBe(3);
    const g = generator(7);

    for (let wave = 0; wave < 2; wave++) {
      const now = clock.now();
      // Swipes now, and late ones a controller kept while offline (days back, inside and outside the range).
      const inputs: SwipeInput[] = [];
      for (let i = 0; i < 60; i++) {
        const d = devices[g.int(0, devices.length - 1)]!;
        const late = i % 3 === 0;
        const result = g.next() < 0.7;
        inputs.push({
          DeviceId: d.DeviceId,
          DoorNumber: d.DoorNumber,
          Direction: d.Direction,
          CardNumber: i % 4 === 0 ? passCards[i % passCards.length]! : known[i % known.length]!,
          At: late ? now - g.int(1, 70) * DAY - g.int(0, DAY) : now - g.int(0, 60_000),
          Result: result,
          Reason: result ? 1 : 6,
        });
      }
      await recordSwipes(h().db.kysely, inputs);
      // A session starts on a socket and the one before on another ends (its order settled).
      const socket = sockets[wave]!.Id;
      const opened = await openDeviceSession(ctx, {
        socketId: socket,
        cardNumber: vehicles[wave]!,
        startAt: now - 30 * 60_000,
        meterStartWh: 1000,
      });
      expect(opened.status).toBe('Accepted');
      if (wave > 0) {
        const previous = await k()
          .selectFrom('ChargeRecord')
          .select(['Id', 'ChargeEquipmentId'])
          .where('ChargeEquipmentId', '=', sockets[wave - 1]!.Id)
          .where('EndAt', 'is', null)
          .executeTakeFirstOrThrow();
        const closed = await closeDeviceSession(ctx, {
          recordId: previous.Id,
          socketId: previous.ChargeEquipmentId,
          endAt: now - 60_000,
          meterStopWh: 1400,
          stopReason: 1,
        });
        expect(closed.closed).toBe(true);
      }
      // Device writes reach other lists' cached totals within the count cache's 5 s (platform/count-cache.ts).
      clock.advance(5_001);
      for (const c of cases) await check(c, 'edges');
      clock.advance(60_000);
    }
  }, 300_000);

  it('totals stay exact while retention removes the oldest records, after every step', async () => {
    const { db, clock } = h();
    const now = clock.now();
    // After each step: every case's total, and the pages of the lists' unfiltered cases.
    // (A step that removed nothing of the area, another area's or a kept row's, changes nothing to check.)
    const unfiltered = (c: Case) => Object.keys(c.filters).length === 0 && !c.sort;
    let seen = '';
    let checked = 0;
    const checkAfterStep = (lists: string[]) => async () => {
      const rows: number[] = [];
      for (const table of [
        'DoorOpeningRecord',
        'ChargeRecord',
        'ChargeOrder',
        'ParkOrder',
        'ForcedOutageRecord',
      ])
        rows.push(
          Number(
            (
              await k()
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .where('AreaId', '=', AREA)
                .executeTakeFirstOrThrow()
            ).n,
          ),
        );
      if (rows.join() === seen) return;
      seen = rows.join();
      checked += 1;
      for (const c of cases.filter((x) => lists.includes(x.list.name)))
        await check(c, unfiltered(c) ? 'edges' : 'total');
    };
    // However slow the machine, a run is not cut short by its budget here.
    const budgetMs = 600_000;
    const swipes = await pruneSwipeRecords(db, now, 2, {
      stepRows: 400,
      budgetMs,
      afterStep: checkAfterStep(['swipes', 'visitor log']),
    });
    expect(swipes.done).toBe(true);
    expect(swipes.removed).toBeGreaterThan(0);
    expect(swipes.steps).toBeGreaterThan(1);
    const garage = await pruneGarageRecords(
      db,
      now,
      { ChargeRecordRetentionMonths: 2, ParkOrderRetentionMonths: 2, PowerOffRetentionMonths: 2 },
      {
        stepRows: 40,
        budgetMs,
        afterStep: checkAfterStep(['charging sessions', 'charging orders', 'parking orders', 'power-offs']),
      },
    );
    for (const kind of [garage.charges, garage.parkOrders, garage.powerOffs]) {
      expect(kind.done).toBe(true);
      expect(kind.removed).toBeGreaterThan(0);
    }
    // Checked between steps that removed records, of each kind at least.
    expect(checked).toBeGreaterThanOrEqual(5);
    // And the pages again once retention is through: every page checked of the unfiltered lists, whose pages
    // start from the day counts retention kept in step, the first and last of the rest.
    for (const c of cases) await check(c, unfiltered(c) ? 'deep' : 'edges');
  }, 300_000);
});
