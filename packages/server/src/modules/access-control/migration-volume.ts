import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * The swipe list's day summary (`sum("Count")` of an area's days, by device and result) read from one index
 * with the count in it (issue 20): before, each of the area's day rows was read from the table, one page
 * each (the days of all areas are written interleaved), 40-70 ms on a large area with a long history.
 */
export const swipeDayCoveringMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('DoorOpeningRecordDay_covering')
      .on('DoorOpeningRecordDay')
      .columns(['AreaId', 'Day', 'DeviceId', 'Result', 'Count'])
      .execute();
  },
};
