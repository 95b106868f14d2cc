import type { Db } from '../../../db/database.ts';
import { pruneInSteps, type RetentionResult, type RetentionRun } from '../../../platform/retention.ts';
import { DAY_MS } from './service.ts';

// The face has offered the cutoff beside the swipes' retention since it came first.
export { retentionCutoff } from '../../../platform/retention.ts';

/**
 * Retention of swipe records (issue 20, docs/performance.md "Growth bounded"): with the system setting
 * SwipeRetentionMonths = N > 0, records from before the start of the UTC day N calendar months ago are
 * removed; 0 (the default) keeps everything.
 *
 * Every expired record may go, so a step simply takes the area's oldest ones (the step loop, its budget and
 * pauses are the platform's, shared with the garage's records: platform/retention.ts). Each step also takes
 * the removed rows off their per-day counts (DoorOpeningRecordDay) in its transaction, so the list's totals
 * and pages, which rest on those counts, are exact after every step, not only at the end.
 */
export async function pruneSwipeRecords(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  return pruneInSteps<never>(
    now,
    months,
    run,
    // The areas holding expired records, from their day counts (a small table; whole days before the cutoff).
    async (cutoff) =>
      (
        await db.kysely
          .selectFrom('DoorOpeningRecordDay')
          .select('AreaId')
          .distinct()
          .where('Day', '<', cutoff / DAY_MS)
          .execute()
      ).map((r) => r.AreaId),
    (cutoff) => async (areaId, stepRows) => {
      const removed = await pruneStep(db, areaId, cutoff, stepRows);
      return { removed, more: removed === stepRows };
    },
  );
}

/** One step: the area's oldest expired records, at most `stepRows`, and their share of the day counts. */
async function pruneStep(db: Db, areaId: number, cutoff: number, stepRows: number): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const oldest = trx
      .selectFrom('DoorOpeningRecord')
      .select('Id')
      .where('AreaId', '=', areaId)
      .where('At', '<', cutoff)
      .orderBy('At')
      .limit(stepRows);
    const gone = await trx
      .deleteFrom('DoorOpeningRecord')
      .where('Id', 'in', oldest)
      .returning(['At', 'DeviceId', 'Result'])
      .execute();
    const counts = new Map<string, { Day: number; DeviceId: number; Result: number; n: number }>();
    for (const row of gone) {
      const Day = Math.floor(Number(row.At) / DAY_MS);
      const key = `${Day}:${row.DeviceId}:${row.Result}`;
      const entry = counts.get(key);
      if (entry) entry.n += 1;
      else counts.set(key, { Day, DeviceId: row.DeviceId, Result: row.Result, n: 1 });
    }
    for (const c of counts.values()) {
      const where = trx
        .updateTable('DoorOpeningRecordDay')
        .set((eb) => ({ Count: eb('Count', '-', c.n) }))
        .where('AreaId', '=', areaId)
        .where('Day', '=', c.Day)
        .where('DeviceId', '=', c.DeviceId)
        .where('Result', '=', c.Result);
      await where.execute();
    }
    await trx
      .deleteFrom('DoorOpeningRecordDay')
      .where('AreaId', '=', areaId)
      .where('Day', '<', cutoff / DAY_MS)
      .where('Count', '<=', 0)
      .execute();
    return gone.length;
  });
}
