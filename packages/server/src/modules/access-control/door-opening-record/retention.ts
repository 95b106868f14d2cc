import type { Db } from '../../../db/database.ts';
import { DAY_MS } from './service.ts';

/**
 * Retention of swipe records (issue 20, docs/performance.md "Growth bounded"): with the system setting
 * SwipeRetentionMonths = N > 0, records from before the start of the UTC day N calendar months ago are
 * removed; 0 (the default) keeps everything.
 *
 * Removed in steps of a few thousand rows, oldest first within each area, each step its own short transaction
 * that also takes the removed rows off their per-day counts (DoorOpeningRecordDay), so the list's totals and
 * pages, which rest on those counts, are exact after every step, not only at the end. Steps are spaced by a
 * pause and a run stops after its time budget: lists and the controllers' inserts go on between them.
 */
export interface RetentionRun {
  /** Rows removed in one step (one transaction). */
  stepRows?: number;
  /** Pause between steps. */
  pauseMs?: number;
  /** A run stops starting steps after this long; the next run goes on. */
  budgetMs?: number;
  /** Called after every step (tests run lists and inserts there). */
  afterStep?: () => Promise<void>;
}

export interface RetentionResult {
  cutoff: number;
  removed: number;
  steps: number;
  /** Every expired record is gone (false: the budget ran out first). */
  done: boolean;
}

/** The first instant kept: the start (UTC) of the day `months` calendar months before `now`. */
export function retentionCutoff(now: number, months: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, d.getUTCDate());
}

export async function pruneSwipeRecords(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  const cutoff = retentionCutoff(now, months);
  const result: RetentionResult = { cutoff, removed: 0, steps: 0, done: true };
  if (!(months > 0)) return result;
  const stepRows = run.stepRows ?? 2_000;
  const started = Date.now();
  // The areas holding expired records, from their day counts (a small table; whole days before the cutoff).
  const areas = await db.kysely
    .selectFrom('DoorOpeningRecordDay')
    .select('AreaId')
    .distinct()
    .where('Day', '<', cutoff / DAY_MS)
    .execute();
  for (const { AreaId } of areas) {
    for (;;) {
      if (Date.now() - started > (run.budgetMs ?? 60_000)) return { ...result, done: false };
      const removed = await pruneStep(db, AreaId, cutoff, stepRows);
      result.removed += removed;
      result.steps += 1;
      await run.afterStep?.();
      if (removed < stepRows) break;
      if (run.pauseMs) await new Promise((resolve) => setTimeout(resolve, run.pauseMs));
    }
  }
  return result;
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
