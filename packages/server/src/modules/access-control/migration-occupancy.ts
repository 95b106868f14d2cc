import { sql, type Kysely } from 'kysely';
import { withId, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/** How far back the backfill looks: a swipe older than a day and a half is past any area's reset hour. */
const BACKFILL_MS = 36 * 3_600_000;

/**
 * Issue 31, "Who is inside" (docs/access-control.md, "Occupancy and muster").
 * - Occupancy: one row per holder, their last granted card swipe at an in or out reader (direction, time, card,
 *   door), written by the swipe ingest in the record's own transaction (occupancy/ingest.ts, the one writer). Inside
 *   = direction in, since the area's reset hour last came round (read, not swept). Goes with its holder or area.
 *   Filled here from the last day and a half of swipe records, so an upgrade in the middle of a day counts the
 *   people already inside.
 * - OccupancySetting: an area's reset hour (absent: 04:00). Written by occupancy/ only.
 * - Muster: a roll call of an area, with its muster points (the readers, named as they were), who started and ended
 *   it, and how many were on it. At most one under way per area: a unique index on the rows not ended.
 * - MusterPerson: one row per person inside when it started (names, card and last door copied: the roll reads the
 *   same later), and when and how they were found safe. Both written by muster/ only.
 */
export const occupancyMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await db.schema
      .createTable('Occupancy')
      .addColumn('CardUserId', 'integer', (c) => c.primaryKey().references('CardUser.Id').onDelete('cascade'))
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
      .addColumn('Direction', 'integer', (c) => c.notNull())
      .addColumn('LastAt', 'bigint', (c) => c.notNull())
      .addColumn('RecordId', 'bigint', (c) => c.notNull())
      .addColumn('CardNumber', 'text', (c) => c.notNull())
      .addColumn('DeviceId', 'integer', (c) => c.notNull())
      .addColumn('DeviceName', 'text', (c) => c.notNull())
      .addColumn('ChannelId', 'integer')
      .addColumn('ChannelName', 'text')
      .addColumn('DoorNumber', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('Occupancy_inside')
      .on('Occupancy')
      .columns(['AreaId', 'Direction', 'LastAt'])
      .execute();
    await sql`
      insert into "Occupancy" ("CardUserId", "AreaId", "Direction", "LastAt", "RecordId", "CardNumber", "DeviceId",
        "DeviceName", "ChannelId", "ChannelName", "DoorNumber")
      select "CardUserId", "AreaId", "Direction", "At", "Id", "CardNumber", "DeviceId", "DeviceName", "ChannelId",
        "ChannelName", "DoorNumber"
      from (
        select r.*, row_number() over (partition by r."CardUserId" order by r."At" desc, r."Id" desc) as "Nth"
        from "DoorOpeningRecord" r
        join "CardUser" h on h."Id" = r."CardUserId" and h."AreaId" = r."AreaId"
        where r."At" >= ${Date.now() - BACKFILL_MS} and r."Result" = 1 and r."Direction" in (1, 2)
          and (r."EventType" is null or r."EventType" = 1)
      ) latest
      where "Nth" = 1`.execute(db);

    await db.schema
      .createTable('OccupancySetting')
      .addColumn('AreaId', 'integer', (c) => c.primaryKey().references('AreaInfo.Id').onDelete('cascade'))
      .addColumn('ResetHour', 'integer', (c) => c.notNull())
      .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
      .addColumn('UpdatedBy', 'text')
      .execute();

    await withId(db.schema.createTable('Muster'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
      .addColumn('Reason', 'text')
      .addColumn('Points', 'text', (c) => c.notNull())
      .addColumn('Total', 'integer', (c) => c.notNull())
      .addColumn('StartedAt', 'bigint', (c) => c.notNull())
      .addColumn('StartedById', 'integer')
      .addColumn('StartedBy', 'text', (c) => c.notNull())
      .addColumn('EndedAt', 'bigint')
      .addColumn('EndedById', 'integer')
      .addColumn('EndedBy', 'text')
      .addColumn('Note', 'text')
      .execute();
    await sql`create unique index "Muster_active" on "Muster" ("AreaId") where "EndedAt" is null`.execute(db);
    await db.schema.createIndex('Muster_AreaId').on('Muster').columns(['AreaId', 'StartedAt']).execute();

    await withId(db.schema.createTable('MusterPerson'), ctx)
      .addColumn('MusterId', 'integer', (c) => c.notNull().references('Muster.Id').onDelete('cascade'))
      .addColumn('AreaId', 'integer', (c) => c.notNull())
      .addColumn('CardUserId', 'integer', (c) => c.notNull())
      .addColumn('Name', 'text', (c) => c.notNull())
      .addColumn('Phone', 'text')
      .addColumn('DepartmentName', 'text')
      .addColumn('Visitor', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('CardNumber', 'text', (c) => c.notNull())
      .addColumn('LastAt', 'bigint', (c) => c.notNull())
      .addColumn('DeviceName', 'text', (c) => c.notNull())
      .addColumn('ChannelName', 'text')
      .addColumn('SafeAt', 'bigint')
      .addColumn('SafeHow', 'text')
      .addColumn('SafeBy', 'text')
      .addColumn('Note', 'text')
      .execute();
    await sql`create unique index "MusterPerson_roll" on "MusterPerson" ("MusterId", "CardUserId")`.execute(
      db,
    );
    await db.schema
      .createIndex('MusterPerson_AreaId')
      .on('MusterPerson')
      .columns(['AreaId', 'MusterId', 'Name'])
      .execute();
  },
};
