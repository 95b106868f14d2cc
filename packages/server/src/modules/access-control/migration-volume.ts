import { sql, type Kysely } from 'kysely';
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

/**
 * The door monitor's refused-swipe count (three refused at one door within a minute raise an alarm) read from
 * the refused records of that door alone. Before, each refused swipe counted its minute over the area's
 * at-index (every record of the area in that minute): under a burst of 5,000 records a second, 60 s of the
 * server's 115 s went there and collection fell minutes behind (docs/performance.md, "Door controllers at
 * scale"). Partial: only refused records are in it, so granted swipes, the bulk, pay nothing more to store.
 */
export const refusedSwipeMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('DoorOpeningRecord_refused')
      .on('DoorOpeningRecord')
      .columns(['DeviceId', 'DoorNumber', 'At'])
      .where(sql.ref('Result'), '=', 0)
      .execute();
  },
};
