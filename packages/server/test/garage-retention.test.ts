import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { pruneGarageRecords } from '../src/modules/garage/index.ts';
import { retentionCutoff } from '../src/platform/retention.ts';
import { call, login } from './support/client.ts';
import { recordDaysAndRecount } from './support/record-days.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Payment states at rest, as docs/performance.md states the rule (closed, paid, cancelled, refunded, refund cancelled). */
const AT_REST = [1, 2, 6, 7, 8];

type Row = Record<string, unknown>;
const byNumber = (a: number, b: number) => a - b;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Retention of the garage's records (ChargeRecordRetentionMonths, PowerOffRetentionMonths,
 * ParkOrderRetentionMonths; docs/performance.md "Growth bounded"): exactly the records the rule lets go are
 * removed, judged against a full read of the tables before the run, in steps, while lists are read and new
 * records arrive; a session and its order always go together; every list's total equals a count of the rows
 * after every step and after the run.
 */
describeEachDb('garage retention', (h) => {
  it('removes exactly the expired records in steps, with lists and inserts running, totals right', async () => {
    const { app, db, clock } = h();
    const k = db.kysely;
    const token = await login(app, 'bikeadmin', DEMO_PASSWORD);
    const now = clock.now();
    const cutoff = retentionCutoff(now, 2);
    expect(new Date(cutoff).toISOString()).toBe('2026-09-01T00:00:00.000Z');

    // The edge cases, in area 1 beside the demo's records: a socket with no running session, a zone, a rule.
    const socket = await k
      .selectFrom('ChargeEquipment')
      .select(['Id', 'AreaId'])
      .where('AreaId', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ChargeRecord')
              .select('ChargeRecord.Id')
              .whereRef('ChargeRecord.ChargeEquipmentId', '=', 'ChargeEquipment.Id')
              .where('ChargeRecord.EndAt', 'is', null),
          ),
        ),
      )
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const zone = await k
      .selectFrom('ParkArea')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    let serial = 0;
    const terms = {
      ChargeRuleId: null,
      ChargeType: 1,
      TemporaryChargeType: 1,
      UnitPriceCents: 100,
      TimeUnit: 60,
      FreeMinutes: 0,
      CapCents: null,
      PaidAt: null,
      RefundReason: null,
      CloseReason: null,
    };
    /** A session and (unless `order` is null) its order, as the session writer makes them. */
    const session = async (
      areaId: number,
      socketId: number,
      startAt: number,
      endAt: number | null,
      order: { state: number; settled: boolean } | null,
    ) => {
      serial += 1;
      const record = await k
        .insertInto('ChargeRecord')
        .values({
          AreaId: areaId,
          ChargeEquipmentId: socketId,
          CardNumber: null,
          StartAt: startAt,
          EndAt: endAt,
          EnergyWh: 100,
          StopReason: endAt === null ? null : 1,
          MeterStartWh: null,
          StopRequest: null,
          StopRequestedAt: null,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const orderId = order
        ? (
            await k
              .insertInto('ChargeOrder')
              .values({
                ...terms,
                AreaId: areaId,
                ChargeRecordId: record.Id,
                ChargeEquipmentId: socketId,
                OrderNo: `RT${String(serial).padStart(10, '0')}`,
                AmountCents: order.settled ? 100 : null,
                PaymentState: order.state,
                UpdatedAt: startAt,
                CreatedAt: startAt,
                SettledAt: order.settled ? (endAt ?? startAt) : null,
              })
              .returning('Id')
              .executeTakeFirstOrThrow()
          ).Id
        : null;
      return { sessionId: record.Id, orderId };
    };
    const stay = async (
      areaId: number,
      zoneId: number,
      entryAt: number,
      exitAt: number | null,
      state: number,
    ) => {
      serial += 1;
      await k
        .insertInto('ParkOrder')
        .values({
          ...terms,
          AreaId: areaId,
          ParkAreaId: zoneId,
          OrderNo: `RP${String(serial).padStart(10, '0')}`,
          Plate: null,
          CardNumber: null,
          VehicleId: null,
          EntryAt: entryAt,
          ExitAt: exitAt,
          AmountCents: exitAt === null ? null : 100,
          PaymentState: state,
          UpdatedAt: entryAt,
        })
        .execute();
    };
    const powerOff = async (at: number, ref: { sessionId: number; orderId: number | null } | null) => {
      await k
        .insertInto('ForcedOutageRecord')
        .values({
          AreaId: 1,
          ChargeEquipmentId: socket.Id,
          ChargeRecordId: ref?.sessionId ?? null,
          ChargeOrderId: ref?.orderId ?? null,
          Reason: 'retention test',
          Result: 1,
          ResultReason: null,
          UserId: 1,
          UserName: 'admin',
          At: at,
        })
        .execute();
    };

    const old = cutoff - 40 * DAY;
    // Sessions: many that go (paid, closed, refunded, cancelled, refund cancelled, no order at all), and those
    // that stay: unpaid, owed, refunding, not settled, still running, ending after the cutoff, starting at it.
    for (let i = 0; i < 60; i++)
      await session(1, socket.Id, old + i * HOUR, old + i * HOUR + HOUR / 2, {
        state: AT_REST[i % AT_REST.length]!,
        settled: true,
      });
    await session(1, socket.Id, old - DAY, old - DAY + HOUR, null);
    for (const state of [0, 3, 4, 5, 9, 10])
      await session(1, socket.Id, old + DAY, old + DAY + HOUR, { state, settled: true });
    await session(1, socket.Id, old + 2 * DAY, old + 2 * DAY + HOUR, { state: 2, settled: false });
    await session(1, socket.Id, cutoff - 2 * HOUR, cutoff - 1, { state: 2, settled: true });
    await session(1, socket.Id, cutoff - HOUR, cutoff + HOUR, { state: 1, settled: true });
    await session(1, socket.Id, cutoff, cutoff + HOUR, { state: 2, settled: true });
    const running = await session(1, socket.Id, old + 3 * DAY, null, { state: 0, settled: false });
    // Power-offs: of the running session (stays, and so does the session), of an ended, paid session (goes,
    // and then its session with it in the same run), without a session (goes), one after the cutoff (stays).
    await powerOff(old + 3 * DAY + HOUR, running);
    const cut = await session(1, socket.Id, old + 4 * DAY, old + 4 * DAY + HOUR, { state: 2, settled: true });
    await powerOff(old + 4 * DAY + HOUR, cut);
    await powerOff(old + 5 * DAY, null);
    await powerOff(cutoff + DAY, null);
    // Parking orders: many that go, and those that stay: still inside, unpaid, refunding, exited after the cutoff.
    for (let i = 0; i < 40; i++)
      await stay(1, zone.Id, old + i * HOUR, old + i * HOUR + HOUR, AT_REST[i % AT_REST.length]!);
    await stay(1, zone.Id, old, null, 0);
    await stay(1, zone.Id, old, old + HOUR, 0);
    await stay(1, zone.Id, old, old + HOUR, 9);
    await stay(1, zone.Id, cutoff - HOUR, cutoff + HOUR, 2);

    // A full read of the three kinds before the run, and the rule applied to it here, independently of the SQL.
    const read = async () => ({
      sessions: await k.selectFrom('ChargeRecord').select(['Id', 'AreaId', 'StartAt', 'EndAt']).execute(),
      orders: await k
        .selectFrom('ChargeOrder')
        .select(['Id', 'AreaId', 'ChargeRecordId', 'PaymentState', 'SettledAt'])
        .execute(),
      powerOffs: await k
        .selectFrom('ForcedOutageRecord')
        .select(['Id', 'AreaId', 'At', 'ChargeRecordId', 'ChargeOrderId'])
        .execute(),
      stays: await k
        .selectFrom('ParkOrder')
        .select(['Id', 'AreaId', 'EntryAt', 'ExitAt', 'PaymentState'])
        .execute(),
    });
    const before = await read();
    const endOf = new Map(before.sessions.map((s) => [s.Id, num(s.EndAt)]));
    const powerOffGoes = (p: Row) => {
      const sessionId = num(p.ChargeRecordId);
      return Number(p.At) < cutoff && (sessionId === null || endOf.get(sessionId) !== null);
    };
    const powerOffsKept = before.powerOffs.filter((p) => !powerOffGoes(p));
    const orderOf = new Map(before.orders.map((o) => [o.ChargeRecordId, o]));
    const sessionGoes = (s: Row) => {
      const end = num(s.EndAt);
      const order = orderOf.get(s.Id as number);
      const pointedAt = powerOffsKept.some(
        (p) => num(p.ChargeRecordId) === s.Id || (order && num(p.ChargeOrderId) === order.Id),
      );
      return (
        Number(s.StartAt) < cutoff &&
        end !== null &&
        end < cutoff &&
        !pointedAt &&
        (!order || (order.SettledAt !== null && AT_REST.includes(Number(order.PaymentState))))
      );
    };
    const stayGoes = (p: Row) => {
      const exit = num(p.ExitAt);
      return (
        Number(p.EntryAt) < cutoff &&
        exit !== null &&
        exit < cutoff &&
        AT_REST.includes(Number(p.PaymentState))
      );
    };
    const expectedSessions = before.sessions.filter((s) => !sessionGoes(s)).map((s) => s.Id);
    const expectedStays = before.stays.filter((p) => !stayGoes(p)).map((p) => p.Id);
    const goneSessions = before.sessions.length - expectedSessions.length;
    const goneStays = before.stays.length - expectedStays.length;
    const gonePowerOffs = before.powerOffs.length - powerOffsKept.length;
    // The demo's records and ours: enough to go in several steps of each kind, and some of every kind kept.
    expect(goneSessions).toBeGreaterThan(60);
    expect(goneStays).toBeGreaterThan(40);
    expect(gonePowerOffs).toBeGreaterThanOrEqual(2);
    expect(powerOffsKept.length).toBeGreaterThanOrEqual(2);
    expect(expectedSessions.length).toBeGreaterThan(10);

    // Every list's total in area 1 against a count of its rows (a total past a full page is counted).
    const LISTS = [
      { url: '/api/ChargeRecord', table: 'ChargeRecord' },
      { url: '/api/ChargeOrder', table: 'ChargeOrder' },
      { url: '/api/ParkOrder', table: 'ParkOrder' },
      { url: '/api/ForcedOutageRecord', table: 'ForcedOutageRecord' },
    ] as const;
    const listTotal = async (url: string, area: number, query: Record<string, string> = {}) => {
      const page = await call<{ Total: number; TotalCapped?: boolean }>(app, 'GET', url, {
        token,
        area,
        query: { PageSize: 5, ...query },
      });
      expect(page.status).toBe(200);
      expect(page.data.TotalCapped).toBeFalsy();
      return page.data.Total;
    };
    const rowsOf = async (table: (typeof LISTS)[number]['table'], area: number) =>
      Number(
        (
          await k
            .selectFrom(table)
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', area)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const totalsMatch = async (area: number) => {
      for (const list of LISTS)
        expect(await listTotal(list.url, area), list.url).toBe(await rowsOf(list.table, area));
    };
    await totalsMatch(1);

    // While retention runs: after every step area 1's totals equal its rows (retention is the only writer
    // there), while sessions with their orders, parking orders and power-offs arrive in area 2 and its lists are
    // read. An arrival and the check between two steps take turns, so a check never sees half an arrival.
    let turn = Promise.resolve();
    const exclusive = (fn: () => Promise<void>) => {
      const run = turn.then(fn);
      turn = run.catch(() => undefined);
      return run;
    };
    const socket2 = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('AreaId', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const zone2 = await k
      .selectFrom('ParkArea')
      .select('Id')
      .where('AreaId', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    // Counted before the arrivals start: read after, it could hold the first arrival, counted in `arrived` too
    // (one more expected than there is, seen once on PostgreSQL).
    const area2Before = { sessions: await rowsOf('ChargeRecord', 2), stays: await rowsOf('ParkOrder', 2) };
    const arrived = { sessions: 0, stays: 0 };
    let running2 = true;
    let steps = 0;
    const arrivals = (async () => {
      while (running2) {
        await exclusive(async () => {
          const at = now - HOUR + arrived.sessions;
          await session(2, socket2.Id, at, at + 1, { state: 1, settled: true });
          await stay(2, zone2.Id, at, at + 1, 2);
          arrived.sessions += 1;
          arrived.stays += 1;
        });
        for (const list of LISTS) expect(await listTotal(list.url, 2)).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const result = await pruneGarageRecords(
      db,
      now,
      { ChargeRecordRetentionMonths: 2, PowerOffRetentionMonths: 2, ParkOrderRetentionMonths: 2 },
      {
        stepRows: 10,
        pauseMs: 2,
        afterStep: () =>
          exclusive(async () => {
            steps += 1;
            await totalsMatch(1);
          }),
      },
    );
    running2 = false;
    await arrivals;

    expect(result.powerOffs).toMatchObject({ cutoff, removed: gonePowerOffs, done: true });
    expect(result.charges).toMatchObject({ cutoff, removed: goneSessions, done: true });
    expect(result.parkOrders).toMatchObject({ cutoff, removed: goneStays, done: true });
    expect(result.charges.steps).toBeGreaterThan(6);
    expect(result.parkOrders.steps).toBeGreaterThan(4);
    expect(steps).toBe(result.charges.steps + result.parkOrders.steps + result.powerOffs.steps);
    expect(arrived.sessions).toBeGreaterThan(0);

    // Exactly the rule's records are gone: what remains is what the rule keeps, plus what arrived meanwhile.
    const after = await read();
    const beforeSessionIds = new Set(before.sessions.map((s) => s.Id));
    const beforeStayIds = new Set(before.stays.map((s) => s.Id));
    expect(
      after.sessions
        .filter((s) => beforeSessionIds.has(s.Id))
        .map((s) => s.Id)
        .sort(byNumber),
    ).toEqual(expectedSessions.sort(byNumber));
    expect(
      after.stays
        .filter((s) => beforeStayIds.has(s.Id))
        .map((s) => s.Id)
        .sort(byNumber),
    ).toEqual(expectedStays.sort(byNumber));
    expect(after.powerOffs.map((p) => p.Id).sort(byNumber)).toEqual(
      powerOffsKept.map((p) => p.Id).sort(byNumber),
    );
    expect(await rowsOf('ChargeRecord', 2)).toBe(
      area2Before.sessions +
        arrived.sessions -
        before.sessions.filter((s) => s.AreaId === 2 && sessionGoes(s)).length,
    );
    expect(await rowsOf('ParkOrder', 2)).toBe(
      area2Before.stays + arrived.stays - before.stays.filter((p) => p.AreaId === 2 && stayGoes(p)).length,
    );
    // A session and its order went together: every order has its session and every session its order (the
    // one session made without an order aside, which went).
    const sessionIds = new Set(after.sessions.map((s) => s.Id));
    expect(after.orders.every((o) => sessionIds.has(o.ChargeRecordId))).toBe(true);
    const orderSessions = new Set(after.orders.map((o) => o.ChargeRecordId));
    const ordered = new Set(before.orders.map((o) => o.ChargeRecordId));
    expect(after.sessions.every((s) => orderSessions.has(s.Id) || !ordered.has(s.Id))).toBe(true);
    expect(after.sessions.some((s) => s.Id === running.sessionId)).toBe(true);
    expect(after.sessions.some((s) => s.Id === cut.sessionId)).toBe(false);

    // Totals after the run: every list of both areas against a count of the rows, whole and over the
    // cutoff's range (61 days around it).
    await totalsMatch(1);
    // Area 2's arrivals were written beside the API, as a device's are, so its totals cached during the run
    // may be stale for their few seconds (count-cache.ts): let them lapse.
    clock.advance(6_000);
    await totalsMatch(2);
    const range = {
      StartTime: new Date(cutoff - 30 * DAY).toISOString(),
      EndTime: new Date(cutoff + 30 * DAY).toISOString(),
    };
    const rangeRows = async (table: 'ChargeRecord' | 'ParkOrder', column: 'StartAt' | 'EntryAt') =>
      Number(
        (
          await k
            .selectFrom(table)
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', 1)
            .where(column, '>=', cutoff - 30 * DAY)
            .where(column, '<=', cutoff + 30 * DAY)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await listTotal('/api/ChargeRecord', 1, range)).toBe(await rangeRows('ChargeRecord', 'StartAt'));
    expect(await listTotal('/api/ParkOrder', 1, range)).toBe(await rangeRows('ParkOrder', 'EntryAt'));

    // A second run finds nothing more; 0 months keeps everything.
    const again = await pruneGarageRecords(db, now, {
      ChargeRecordRetentionMonths: 2,
      PowerOffRetentionMonths: 2,
      ParkOrderRetentionMonths: 2,
    });
    expect([again.charges.removed, again.parkOrders.removed, again.powerOffs.removed]).toEqual([0, 0, 0]);
    const none = await pruneGarageRecords(db, now + 400 * DAY, {
      ChargeRecordRetentionMonths: 0,
      PowerOffRetentionMonths: 0,
      ParkOrderRetentionMonths: 0,
    });
    expect(none.charges).toMatchObject({ removed: 0, steps: 0 });
    expect(none.parkOrders).toMatchObject({ removed: 0, steps: 0 });
    expect(none.powerOffs).toMatchObject({ removed: 0, steps: 0 });

    // The day counts the lists page and total by equal a full recount of what retention left.
    const days = await recordDaysAndRecount(k);
    expect(days.kept.length).toBeGreaterThan(0);
    expect(days.kept).toEqual(days.counted);
  }, 180_000);

  it('is three system settings, 0 (keep everything) by default', async () => {
    const { app } = h();
    const admin = await login(app, 'admin', 'Admin#Test2026');
    type Months = {
      ChargeRecordRetentionMonths: number;
      PowerOffRetentionMonths: number;
      ParkOrderRetentionMonths: number;
    };
    const got = await call<Months>(app, 'GET', '/api/Settings', { token: admin });
    expect(got.data).toMatchObject({
      ChargeRecordRetentionMonths: 0,
      PowerOffRetentionMonths: 0,
      ParkOrderRetentionMonths: 0,
    });
    const put = await call<Months>(app, 'PUT', '/api/Settings', {
      token: admin,
      body: { ChargeRecordRetentionMonths: 24, PowerOffRetentionMonths: 12, ParkOrderRetentionMonths: 36 },
    });
    expect(put.data).toMatchObject({
      ChargeRecordRetentionMonths: 24,
      PowerOffRetentionMonths: 12,
      ParkOrderRetentionMonths: 36,
    });
    for (const body of [
      { ChargeRecordRetentionMonths: -1 },
      { PowerOffRetentionMonths: 241 },
      { ParkOrderRetentionMonths: 1.5 },
    ]) {
      const refused = await call(app, 'PUT', '/api/Settings', { token: admin, body });
      expect(refused.status).toBe(400);
    }
  });
});
