import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { pruneSwipeRecords, recordSwipes, retentionCutoff } from '../src/modules/access-control/index.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

const DAY = 86_400_000;

/**
 * Retention of swipe records (SwipeRetentionMonths; docs/performance.md "Growth bounded"): exactly the
 * records before the cutoff go, in steps, while the list is read and new swipes come in; the day counts the
 * list's totals and pages rest on equal a full recount after every step.
 */
describeEachDb('swipe retention', (h) => {
  it('removes exactly the expired records in steps, with lists and inserts running, counts right', async () => {
    const { app, db, clock } = h();
    const k = db.kysely;
    const token = await login(app, 'acuser', DEMO_PASSWORD);
    const now = clock.now();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const swipe = (at: number, i: number) => ({
      DeviceId: device.Id,
      DoorNumber: 1,
      Direction: 1,
      CardNumber: String(900_000 + i),
      At: at,
      Result: i % 3 !== 0,
      Reason: i % 3 !== 0 ? 1 : 2,
    });
    // Two swipes a day over 150 days, and two on each side of the cutoff's midnight.
    const cutoff = retentionCutoff(now, 2);
    expect(new Date(cutoff).toISOString()).toBe('2026-09-01T00:00:00.000Z');
    const old = Array.from({ length: 300 }, (_, i) => swipe(now - 150 * DAY + i * (DAY / 2), i));
    old.push(swipe(cutoff - 1, 301), swipe(cutoff - 1, 302), swipe(cutoff, 303), swipe(cutoff + 1, 304));
    await recordSwipes(k, old);

    const countOf = async (where: 'before' | 'from') =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('At', where === 'before' ? '<' : '>=', cutoff)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const areaCount = async () =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The day counts as kept, against a recount of the records (every area, day, device and result).
    const dayCountsMatch = async () => {
      const kept = await k
        .selectFrom('DoorOpeningRecordDay')
        .select(['AreaId', 'Day', 'DeviceId', 'Result', 'Count'])
        .where('Count', '>', 0)
        .execute();
      const recount = await k
        .selectFrom('DoorOpeningRecord')
        .select([
          'AreaId',
          sql<number>`floor("At" / ${sql.lit(DAY)})`.as('Day'),
          'DeviceId',
          'Result',
          sql<number>`count(*)`.as('Count'),
        ])
        .groupBy(['AreaId', sql`floor("At" / ${sql.lit(DAY)})`, 'DeviceId', 'Result'])
        .execute();
      const key = (r: { AreaId: number; Day: number; DeviceId: number; Result: number; Count: number }) =>
        `${r.AreaId}:${Number(r.Day)}:${r.DeviceId}:${Number(r.Result)}:${Number(r.Count)}`;
      expect(kept.map(key).sort()).toEqual(recount.map(key).sort());
    };
    const listTotal = async () => {
      const page = await call<{ Total: number }>(app, 'GET', '/api/DoorOpeningRecord', {
        token,
        area: 1,
        query: { PageSize: 20 },
      });
      expect(page.status).toBe(200);
      return page.data.Total;
    };

    const expired = await countOf('before');
    const kept = await countOf('from');
    expect(expired).toBeGreaterThan(100);
    await dayCountsMatch();

    // While retention runs: a list after every step equals the records (exact at every step), and new
    // swipes arrive in parallel.
    // An arrival and the check between two steps take turns (the check compares two reads); the lists of
    // the arrivals run while steps run.
    let turn = Promise.resolve();
    const exclusive = (fn: () => Promise<void>) => {
      const run = turn.then(fn);
      turn = run.catch(() => undefined);
      return run;
    };
    let inserted = 0;
    let running = true;
    const arrivals = (async () => {
      while (running) {
        await exclusive(async () => {
          await recordSwipes(k, [swipe(now - 1_000 + inserted, 400 + inserted)]);
          inserted += 1;
        });
        expect(await listTotal()).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const result = await pruneSwipeRecords(db, now, 2, {
      stepRows: 25,
      pauseMs: 5,
      afterStep: () =>
        exclusive(async () => {
          expect(await listTotal()).toBe(await areaCount());
        }),
    });
    running = false;
    await arrivals;

    expect(result).toMatchObject({ cutoff, removed: expired, done: true });
    expect(result.steps).toBeGreaterThan(3);
    expect(await countOf('before')).toBe(0);
    expect(await countOf('from')).toBe(kept + inserted);
    await dayCountsMatch();
    expect(await listTotal()).toBe(await areaCount());
    // A second run finds nothing; 0 months keeps everything.
    expect((await pruneSwipeRecords(db, now, 2)).removed).toBe(0);
    expect(await pruneSwipeRecords(db, now, 0)).toMatchObject({ removed: 0, steps: 0 });
  }, 120_000);

  it('is a system setting, 0 (keep everything) by default', async () => {
    const { app } = h();
    const admin = await login(app, 'admin', 'Admin#Test2026');
    const got = await call<{ SwipeRetentionMonths: number }>(app, 'GET', '/api/Settings', { token: admin });
    expect(got.data.SwipeRetentionMonths).toBe(0);
    const put = await call<{ SwipeRetentionMonths: number }>(app, 'PUT', '/api/Settings', {
      token: admin,
      body: { SwipeRetentionMonths: 24 },
    });
    expect(put.data.SwipeRetentionMonths).toBe(24);
    const refused = await call(app, 'PUT', '/api/Settings', {
      token: admin,
      body: { SwipeRetentionMonths: -1 },
    });
    expect(refused.status).toBe(400);
  });
});
