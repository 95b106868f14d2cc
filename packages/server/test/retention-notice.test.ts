import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { pruneSwipeRecords } from '../src/modules/access-control/index.ts';
import { pruneGarageRecords } from '../src/modules/garage/index.ts';
import { retentionCutoff } from '../src/platform/retention.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

const DAY = 86_400_000;
const AREA = 1;

type Setting =
  | 'SwipeRetentionMonths'
  | 'ChargeRecordRetentionMonths'
  | 'PowerOffRetentionMonths'
  | 'ParkOrderRetentionMonths';

/** Every record list retention touches: its table, the column its time range applies to, its setting. */
const LISTS = [
  {
    url: '/api/DoorOpeningRecord',
    table: 'DoorOpeningRecord',
    column: 'At',
    setting: 'SwipeRetentionMonths',
  },
  {
    url: '/api/ChargeRecord',
    table: 'ChargeRecord',
    column: 'StartAt',
    setting: 'ChargeRecordRetentionMonths',
  },
  {
    url: '/api/ChargeOrder',
    table: 'ChargeOrder',
    column: 'CreatedAt',
    setting: 'ChargeRecordRetentionMonths',
  },
  {
    url: '/api/ForcedOutageRecord',
    table: 'ForcedOutageRecord',
    column: 'At',
    setting: 'PowerOffRetentionMonths',
  },
  { url: '/api/ParkOrder', table: 'ParkOrder', column: 'EntryAt', setting: 'ParkOrderRetentionMonths' },
] as const satisfies readonly { url: string; table: string; column: string; setting: Setting }[];

type List = (typeof LISTS)[number];

interface PageReply {
  Items: unknown[];
  Total: number;
  TotalCapped?: boolean;
  RetainedFrom?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A record list whose time range reaches before its kind's retention cutoff says so (`RetainedFrom`, the
 * cutoff as an ISO instant; docs/performance.md "Growth bounded: retention"), while its total stays the exact
 * number of records kept; with the setting at 0 (keep everything) or a range starting at or after the cutoff,
 * the page has no such field.
 */
describeEachDb('lists cut by retention say so', (h) => {
  const tokens = new Map<string, string>();
  const tokenFor = async (list: List) => {
    const user = list.table === 'DoorOpeningRecord' ? 'acuser' : 'bikeadmin';
    if (!tokens.has(user)) tokens.set(user, await login(h().app, user, DEMO_PASSWORD));
    return tokens.get(user)!;
  };
  const page = async (list: List, range: { start?: number; end?: number } = {}) => {
    const reply = await call<PageReply>(h().app, 'GET', list.url, {
      token: await tokenFor(list),
      area: AREA,
      query: {
        PageSize: 5,
        ...(range.start !== undefined ? { StartTime: iso(range.start) } : {}),
        ...(range.end !== undefined ? { EndTime: iso(range.end) } : {}),
      },
    });
    expect(reply.status, `${list.url}: ${reply.msg}`).toBe(200);
    return reply.data;
  };
  /** The records of the area in the range, counted in the table. */
  const rowsOf = async (list: List, start?: number, end?: number) => {
    let query = h()
      .db.kysely.selectFrom(list.table)
      .select(sql<number>`count(*)`.as('n'))
      .where('AreaId', '=', AREA);
    if (start !== undefined) query = query.where(list.column, '>=', start);
    if (end !== undefined) query = query.where(list.column, '<=', end);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const setMonths = async (months: number) => {
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const body = Object.fromEntries(LISTS.map((l) => [l.setting, months]));
    const put = await call(h().app, 'PUT', '/api/Settings', { token: admin, body });
    expect(put.status, put.msg).toBe(200);
  };

  it('says nothing while retention keeps everything (0, the default)', async () => {
    const now = h().clock.now();
    for (const list of LISTS) {
      const unbounded = await page(list);
      expect(unbounded, list.url).not.toHaveProperty('RetainedFrom');
      const old = await page(list, { start: now - 60 * DAY, end: now });
      expect(old, list.url).not.toHaveProperty('RetainedFrom');
      expect(old.Total, list.url).toBe(await rowsOf(list, now - 60 * DAY, now));
    }
  });

  it('says the cutoff when the range reaches before it, nothing from it on; totals are the records kept', async () => {
    const { db, clock } = h();
    const now = clock.now();
    const cutoff = retentionCutoff(now, 1);
    expect(iso(cutoff)).toBe('2026-10-01T00:00:00.000Z');
    const before: Record<string, number> = {};
    for (const list of LISTS) before[list.url] = await rowsOf(list, undefined, cutoff - 1);
    await setMonths(1);
    try {
      const swipes = await pruneSwipeRecords(db, now, 1);
      const garage = await pruneGarageRecords(db, now, {
        ChargeRecordRetentionMonths: 1,
        PowerOffRetentionMonths: 1,
        ParkOrderRetentionMonths: 1,
      });
      // The demo holds records older than the cutoff of every kind that retention removes at all.
      expect(swipes.removed).toBeGreaterThan(0);
      expect(garage.charges.removed).toBeGreaterThan(0);
      expect(garage.parkOrders.removed).toBeGreaterThan(0);

      for (const list of LISTS) {
        const across = { start: cutoff - 20 * DAY, end: cutoff + 20 * DAY };
        const cut = await page(list, across);
        expect(cut.RetainedFrom, list.url).toBe(iso(cutoff));
        expect(cut.TotalCapped, list.url).toBeUndefined();
        expect(cut.Total, list.url).toBe(await rowsOf(list, across.start, across.end));
        // Wholly before the cutoff: only what the rule keeps (an open session, an unpaid order) is left.
        const old = await page(list, { start: cutoff - 40 * DAY, end: cutoff - 1 });
        expect(old.RetainedFrom, list.url).toBe(iso(cutoff));
        expect(old.Total, list.url).toBe(await rowsOf(list, cutoff - 40 * DAY, cutoff - 1));
        expect(old.Total, list.url).toBeLessThanOrEqual(before[list.url]!);
        // No start: the list reaches back to the first record.
        const unbounded = await page(list);
        expect(unbounded.RetainedFrom, list.url).toBe(iso(cutoff));
        expect(unbounded.Total, list.url).toBe(await rowsOf(list));
        // A millisecond before the cutoff is before it; from the cutoff on nothing was cut.
        expect((await page(list, { start: cutoff - 1, end: now })).RetainedFrom, list.url).toBe(iso(cutoff));
        const fromCutoff = await page(list, { start: cutoff, end: now });
        expect(fromCutoff, list.url).not.toHaveProperty('RetainedFrom');
        expect(fromCutoff.Total, list.url).toBe(await rowsOf(list, cutoff, now));
        const after = await page(list, { start: cutoff + 10 * DAY, end: now });
        expect(after, list.url).not.toHaveProperty('RetainedFrom');
        expect(after.Total, list.url).toBe(await rowsOf(list, cutoff + 10 * DAY, now));
      }
      // Each kind follows its own setting: with only the swipes' on, the garage's lists say nothing.
      const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
      await call(h().app, 'PUT', '/api/Settings', {
        token: admin,
        body: { ChargeRecordRetentionMonths: 0, PowerOffRetentionMonths: 0, ParkOrderRetentionMonths: 0 },
      });
      for (const list of LISTS) {
        const reply = await page(list);
        if (list.setting === 'SwipeRetentionMonths') expect(reply.RetainedFrom, list.url).toBe(iso(cutoff));
        else expect(reply, list.url).not.toHaveProperty('RetainedFrom');
      }
    } finally {
      await setMonths(0);
    }
  });
});
