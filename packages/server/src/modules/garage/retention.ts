import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { invalidateCounts } from '../../platform/count-cache.ts';
import {
  pruneInSteps,
  type RetentionResult,
  type RetentionRun,
  type RetentionStep,
} from '../../platform/retention.ts';
import type { SettingValues } from '../../platform/settings.ts';
import { deleteExpiredSessions } from './charge-record/expiry.ts';
import { SETTLED_PAYMENT_STATES } from './common/payments.ts';
import { deleteExpiredPowerOffs } from './forced-outage-record/records.ts';

// Which orders have come to rest is the payments' word (common/payments.ts); the face offers it from here.
export { SETTLED_PAYMENT_STATES };

/**
 * Retention of the garage's records (issue 20, docs/performance.md "Growth bounded"), one setting per record
 * kind, each 0 (keep everything) by default; the step loop is the platform's (platform/retention.ts), shared
 * with the swipe records'. A record goes once it lies wholly before the cutoff (the start of the UTC day N
 * calendar months ago) and nothing is still to happen to it:
 *
 * - charging (ChargeRecordRetentionMonths): a session and its order together, never one without the other,
 *   when the session started and ended before the cutoff, its order is settled and its payment has come to
 *   rest (SETTLED_PAYMENT_STATES), and no power-off record still points at either (the power-off list shows
 *   the session's card and the order's number: such a session waits for its power-off records to go first);
 * - power-off records (PowerOffRetentionMonths): made before the cutoff, unless the session they cut is
 *   still running (its stop report still turns a waiting record into "power cut");
 * - parking orders (ParkOrderRetentionMonths): entered and exited before the cutoff, payment at rest.
 *
 * No list of these rests on day counts: their totals are counts of the rows (capped, docs/performance.md),
 * so a step needs no summary kept in step; it drops this process's cached totals (count-cache.ts) so the
 * next page counts afresh, as an audited write does.
 */

export type GarageRetentionSettings = Pick<
  SettingValues,
  'ChargeRecordRetentionMonths' | 'ParkOrderRetentionMonths' | 'PowerOffRetentionMonths'
>;

export interface GarageRetentionResult {
  powerOffs: RetentionResult;
  /** Sessions removed (each with its order, when it had one). */
  charges: RetentionResult;
  parkOrders: RetentionResult;
}

/**
 * One run of every garage kind. Power-off records go first: a session whose last power-off record this run
 * removed may then go with the charging kind in the same run.
 */
export async function pruneGarageRecords(
  db: Db,
  now: number,
  months: GarageRetentionSettings,
  run: RetentionRun = {},
): Promise<GarageRetentionResult> {
  const powerOffs = await prunePowerOffRecords(db, now, months.PowerOffRetentionMonths, run);
  const charges = await pruneChargeRecords(db, now, months.ChargeRecordRetentionMonths, run);
  const parkOrders = await pruneParkOrders(db, now, months.ParkOrderRetentionMonths, run);
  return { powerOffs, charges, parkOrders };
}

export async function pruneChargeRecords(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  return pruneInSteps(now, months, run, areasOf(db), (cutoff) =>
    walkStep(db, { table: 'ChargeRecord', time: 'StartAt' }, cutoff, (trx, ids) =>
      deleteExpiredSessions(trx, ids, cutoff),
    ),
  );
}

export async function prunePowerOffRecords(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  return pruneInSteps(now, months, run, areasOf(db), (cutoff) =>
    walkStep(db, { table: 'ForcedOutageRecord', time: 'At' }, cutoff, (trx, ids) =>
      deleteExpiredPowerOffs(trx, ids),
    ),
  );
}

export async function pruneParkOrders(
  db: Db,
  now: number,
  months: number,
  run: RetentionRun = {},
): Promise<RetentionResult> {
  return pruneInSteps(now, months, run, areasOf(db), (cutoff) =>
    walkStep(db, { table: 'ParkOrder', time: 'EntryAt' }, cutoff, async (trx, ids) => {
      const gone = await trx
        .deleteFrom('ParkOrder')
        .where('ParkOrder.Id', 'in', ids)
        .where('ParkOrder.ExitAt', '<', cutoff)
        .where('ParkOrder.PaymentState', 'in', SETTLED_PAYMENT_STATES)
        .returning('ParkOrder.Id')
        .execute();
      return gone.length;
    }),
  );
}

/** Every area: the records' (AreaId, time, Id) indexes answer an area with nothing expired at once. */
function areasOf(db: Db) {
  return async () =>
    (await db.kysely.selectFrom('AreaInfo').select('Id').orderBy('Id').execute()).map((r) => r.Id);
}

/** A position in an area's records in their list order, (time, Id). */
interface Cursor {
  at: number;
  id: number;
}

/**
 * A step of a kind that keeps some expired rows: the next `stepRows` rows before the cutoff in the area's
 * (time, Id) order after the previous step's last, read from the list's own index, and the kind's removal of
 * those among them that may go, in one transaction. Rows kept (a running session, an unpaid order) are
 * walked past once per run instead of being read again by every step.
 */
function walkStep(
  db: Db,
  kind: { table: 'ChargeRecord' | 'ForcedOutageRecord' | 'ParkOrder'; time: 'StartAt' | 'At' | 'EntryAt' },
  cutoff: number,
  remove: (trx: Kysely<Database>, ids: number[]) => Promise<number>,
) {
  return async (
    areaId: number,
    stepRows: number,
    after: Cursor | undefined,
  ): Promise<RetentionStep<Cursor>> => {
    const removed = await db.kysely.transaction().execute(async (trx) => {
      // Either table, by kind: the three share the columns read here.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let query = (trx as Kysely<any>)
        .selectFrom(kind.table)
        .select(['Id', `${kind.time} as At`])
        .where('AreaId', '=', areaId)
        .where(kind.time, '<', cutoff);
      if (after)
        query = query.where(
          sql<boolean>`(${sql.ref(kind.time)}, ${sql.ref('Id')}) > (${after.at}, ${after.id})`,
        );
      const rows = (await query.orderBy(kind.time).orderBy('Id').limit(stepRows).execute()) as {
        Id: number;
        At: number;
      }[];
      const last = rows.at(-1);
      const count =
        rows.length === 0
          ? 0
          : await remove(
              trx,
              rows.map((r) => r.Id),
            );
      return { count, full: rows.length === stepRows, last };
    });
    // Totals are counts of the rows: this process's cached ones are stale now.
    if (removed.count > 0) invalidateCounts();
    return {
      removed: removed.count,
      more: removed.full,
      after: removed.last && { at: Number(removed.last.At), id: Number(removed.last.Id) },
    };
  };
}
