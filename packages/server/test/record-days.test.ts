import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb } from './support/harness.ts';
import { recordDaysAndRecount } from './support/record-days.ts';

const DAY = 86_400_000;
type PageOf = { Items: { Id: number }[]; Total: number; TotalCapped?: boolean };

/**
 * Day counts of the garage's records (platform/record-days.ts, docs/performance.md "Deep pages"): kept by
 * the database through inserts (single and bulk), deletes and moved records, equal to a recount; and the
 * lists that start a page from its day give, page after page, exactly the rows of a full scan in the
 * list's order, with exact totals, for every order and range shape (whole days, partial first and last day).
 */
describeEachDb('record days', (h) => {
  it('keeps counts equal to a recount, and pages from them equal a full scan', async () => {
    const { app, db, clock } = h();
    const k = db.kysely;
    const { admin: token } = await garageTokens(h());
    const socket = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();

    // 300 sessions over twelve days: pairs sharing a start (the Id breaks the tie), some on a day's first
    // and last millisecond (UTC), bursts and empty days.
    const midnight = Math.floor(clock.now() / DAY) * DAY - 12 * DAY;
    const starts = Array.from({ length: 300 }, (_, i) => {
      if (i % 50 === 0) return midnight + Math.floor(i / 50) * DAY; // a day's first millisecond
      if (i % 50 === 1) return midnight + Math.floor(i / 50) * DAY - 1; // the day before's last
      const day = [0, 1, 1, 2, 5, 5, 5, 8, 9, 11][i % 10]!;
      return midnight + day * DAY + Math.floor(i / 2) * 97_000;
    });
    const rows = starts.map((StartAt, i) => ({
      AreaId: 1,
      ChargeEquipmentId: socket.Id,
      CardNumber: `DAYS${String(i % 7).padStart(5, '0')}`,
      StartAt,
      EndAt: StartAt + 600_000,
      EnergyWh: (i * 37) % 101,
      StopReason: 1,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await k
        .insertInto('ChargeRecord')
        .values(rows.slice(i, i + 100))
        .execute();
    await k.insertInto('ChargeRecord').values(rows[7]!).execute(); // one at a time as well
    const ours = await k
      .selectFrom('ChargeRecord')
      .select('Id')
      .where('CardNumber', 'like', 'DAYS%')
      .orderBy('Id')
      .execute();
    // Deleted in a bulk statement, moved to another day, moved to another area.
    await k
      .deleteFrom('ChargeRecord')
      .where(
        'Id',
        'in',
        ours.filter((_, i) => i % 13 === 0).map((r) => r.Id),
      )
      .execute();
    await k
      .updateTable('ChargeRecord')
      .set({ StartAt: sql`"StartAt" + ${2 * DAY}` })
      .where('Id', 'in', [ours[5]!.Id, ours[6]!.Id, ours[40]!.Id])
      .execute();
    await k.updateTable('ChargeRecord').set({ AreaId: 2 }).where('Id', '=', ours[8]!.Id).execute();
    await k.updateTable('ChargeRecord').set({ EnergyWh: 5 }).where('Id', '=', ours[9]!.Id).execute();

    const days = await recordDaysAndRecount(k);
    expect(days.kept).toEqual(days.counted);
    expect(days.kept.some((line) => line.startsWith('ChargeRecord 2 '))).toBe(true);

    const scan = async (
      range: { from?: number; to?: number },
      column: 'StartAt' | 'EnergyWh',
      order: 'asc' | 'desc',
    ) => {
      let q = k.selectFrom('ChargeRecord').select('Id').where('AreaId', '=', 1);
      if (range.from !== undefined) q = q.where('StartAt', '>=', range.from);
      if (range.to !== undefined) q = q.where('StartAt', '<=', range.to);
      return (await q.orderBy(column, order).orderBy('Id', order).execute()).map((r) => r.Id);
    };
    const list = async (query: Record<string, string | number>) => {
      const reply = await call<PageOf>(app, 'GET', '/api/ChargeRecord', { token, area: 1, query });
      expect(reply.status).toBe(200);
      return reply.data;
    };
    const partial = { from: midnight + DAY + 3_600_000, to: midnight + 9 * DAY + 5 * 3_600_000 };
    const cases: {
      range: { from?: number; to?: number };
      column: 'StartAt' | 'EnergyWh';
      order: 'asc' | 'desc';
    }[] = [
      { range: {}, column: 'StartAt', order: 'desc' },
      { range: {}, column: 'StartAt', order: 'asc' },
      { range: partial, column: 'StartAt', order: 'desc' },
      { range: partial, column: 'StartAt', order: 'asc' },
      // The range's bounds on days' edges: whole days only.
      { range: { from: midnight + DAY, to: midnight + 6 * DAY - 1 }, column: 'StartAt', order: 'desc' },
      // Sorted by something else: pages found as before, the total still from the days.
      { range: partial, column: 'EnergyWh', order: 'desc' },
    ];
    for (const c of cases) {
      const expected = await scan(c.range, c.column, c.order);
      const query = {
        PageSize: 9,
        SortField: c.column,
        SortOrder: c.order,
        ...(c.range.from !== undefined ? { StartTime: new Date(c.range.from).toISOString() } : {}),
        ...(c.range.to !== undefined ? { EndTime: new Date(c.range.to).toISOString() } : {}),
      };
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / 9) + 1; page++) {
        const reply = await list({ ...query, PageIndex: page });
        expect(reply.Total, JSON.stringify(c)).toBe(expected.length);
        expect(reply.TotalCapped).toBeUndefined();
        seen.push(...reply.Items.map((i) => i.Id));
      }
      expect(seen, JSON.stringify(c)).toEqual(expected);
    }

    // The list reads its totals from the counts (a filter falls back to counting its matches).
    const before = await list({ PageSize: 9 });
    await k
      .updateTable('RecordDay')
      .set({ Count: sql`"Count" + 1000` })
      .where('Kind', '=', 'ChargeRecord')
      .where('AreaId', '=', 1)
      .where('Day', '=', Math.floor(midnight / DAY) + 5)
      .execute();
    expect((await list({ PageSize: 9 })).Total).toBe(before.Total + 1000);
    const filtered = await list({ PageSize: 9, CardNumber: 'DAYS00003' });
    expect(filtered.Total).toBe(
      (
        await k
          .selectFrom('ChargeRecord')
          .select('Id')
          .where('AreaId', '=', 1)
          .where('CardNumber', '=', 'DAYS00003')
          .execute()
      ).length,
    );
  }, 120_000);
});
