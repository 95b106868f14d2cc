import type { PortableMigration } from '../../db/migration.ts';
import { createRecordDays, type DayCounted } from '../../platform/record-days.ts';

/**
 * The garage's record tables counted per area and day by their list's time column (platform/record-days.ts):
 * their lists (`pageOnTable.dayCounted`) start a deep page from its day and tell exact totals (issue 20).
 */
export const GARAGE_DAY_COUNTED: readonly DayCounted[] = [
  { table: 'ChargeRecord', column: 'StartAt' },
  { table: 'ChargeOrder', column: 'CreatedAt' },
  { table: 'ParkOrder', column: 'EntryAt' },
  { table: 'ForcedOutageRecord', column: 'At' },
];

export const recordDaysMigration: PortableMigration = {
  up: (db, ctx) => createRecordDays(db, ctx, GARAGE_DAY_COUNTED),
};
