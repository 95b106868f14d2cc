import { LIST_TOTAL_CAP } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb } from './support/harness.ts';

type PageOf = { Items: { Id: number; StartAt: string }[]; Total: number; TotalCapped?: boolean };

/**
 * The count rule (docs/performance.md, "Count rules"): a list counts its matches up to LIST_TOTAL_CAP and
 * past it says "more than" instead of counting them all; pages past the cap still come, in order. A list
 * of a day-counted table without filters is exact at any size.
 */
describeEachDb('list count cap', (h) => {
  it('flags a total past the cap, keeps small totals exact, and pages on past the cap', async () => {
    const { app, db, clock } = h();
    const { admin: token } = await garageTokens(h());
    const socket = await db.kysely
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const many = LIST_TOTAL_CAP + 50;
    const start = clock.now() - 30 * 86_400_000;
    const rows = (card: string, n: number, offset: number) =>
      Array.from({ length: n }, (_, i) => ({
        AreaId: 1,
        ChargeEquipmentId: socket.Id,
        CardNumber: card,
        // Pairs of sessions share a start: the Id must break the tie the same way on every page.
        StartAt: start + Math.floor((offset + i) / 2) * 1_000,
        EndAt: start + Math.floor((offset + i) / 2) * 1_000 + 500,
        EnergyWh: 1,
        StopReason: 1,
      }));
    for (let i = 0; i < many; i += 1_000)
      await db.kysely
        .insertInto('ChargeRecord')
        .values(rows('CAPMANY01', Math.min(1_000, many - i), i))
        .execute();
    await db.kysely
      .insertInto('ChargeRecord')
      .values(rows('CAPFEW001', 30, 0))
      .execute();

    const list = async (query: Record<string, string | number>) => {
      const reply = await call<PageOf>(app, 'GET', '/api/ChargeRecord', { token, area: 1, query });
      expect(reply.status).toBe(200);
      return reply.data;
    };

    // A small total is exact and not flagged, whether the page tells it or a count does.
    const few = await list({ CardNumber: 'CAPFEW001', PageSize: 10 });
    expect(few.Total).toBe(30);
    expect(few.TotalCapped).toBeUndefined();
    expect((await list({ CardNumber: 'CAPFEW001', PageSize: 10, PageIndex: 3 })).Total).toBe(30);

    // Past the cap the reply says so, on the first page and on a page beyond the cap.
    const first = await list({ CardNumber: 'CAPMANY01', PageSize: 20 });
    expect(first).toMatchObject({ Total: LIST_TOTAL_CAP, TotalCapped: true });
    expect(first.Items).toHaveLength(20);

    // Pages just before and after the cap join up in order, with nothing repeated or skipped.
    const before = await list({ CardNumber: 'CAPMANY01', PageSize: 20, PageIndex: LIST_TOTAL_CAP / 20 });
    const after = await list({ CardNumber: 'CAPMANY01', PageSize: 20, PageIndex: LIST_TOTAL_CAP / 20 + 1 });
    expect(before.TotalCapped).toBe(true);
    expect(after).toMatchObject({ Total: LIST_TOTAL_CAP, TotalCapped: true });
    expect(after.Items).toHaveLength(20);
    const ids = [...before.Items, ...after.Items].map((i) => i.Id);
    expect(new Set(ids).size).toBe(40);
    const all = await db.kysely
      .selectFrom('ChargeRecord')
      .select('Id')
      .where('CardNumber', '=', 'CAPMANY01')
      .orderBy('StartAt', 'desc')
      .orderBy('Id', 'desc')
      .offset(LIST_TOTAL_CAP - 20)
      .limit(40)
      .execute();
    expect(ids).toEqual(all.map((r) => r.Id));

    // Unfiltered, the area's day counts give the exact total however large (record-days.ts): no cap.
    const areaRows = await db.kysely
      .selectFrom('ChargeRecord')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(areaRows.n)).toBeGreaterThan(LIST_TOTAL_CAP);
    const unfiltered = await list({ PageSize: 20, PageIndex: 300 });
    expect(unfiltered.Total).toBe(Number(areaRows.n));
    expect(unfiltered.TotalCapped).toBeUndefined();

    // The last page is partial: it knows the exact total by itself.
    const last = await list({ CardNumber: 'CAPMANY01', PageSize: 20, PageIndex: Math.ceil(many / 20) });
    expect(last.Items).toHaveLength(many % 20 || 20);
    expect(last.Total).toBe(many);
    expect(last.TotalCapped).toBeUndefined();

    // One socket (a narrow filter: the area's condition leaves the planner to the socket's index) and one
    // order's session: the same rows as a full scan.
    const ofSocket = await db.kysely
      .selectFrom('ChargeRecord')
      .select('Id')
      .where('ChargeEquipmentId', '=', socket.Id)
      .orderBy('StartAt', 'desc')
      .orderBy('Id', 'desc')
      .limit(20)
      .execute();
    const socketPage = await list({ ChargeEquipmentId: socket.Id, PageSize: 20 });
    expect(socketPage.Items.map((i) => i.Id)).toEqual(ofSocket.map((r) => r.Id));
    expect(socketPage.TotalCapped).toBe(true);
  }, 120_000);
});
