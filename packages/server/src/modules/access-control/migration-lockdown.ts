import { sql, type Kysely } from 'kysely';
import { withId, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/**
 * Issue 31, "Lockdown and evacuation" (docs/access-control.md): an area's lockdowns and, per door of its
 * controllers, what each controller answered.
 * - AreaLockdown: one row per lockdown or evacuation, kept once released (who, when, why, the note), so the
 *   history stays readable. At most one in force per area: a unique index on the rows not released (two
 *   operators pressing at once get one lockdown and one 409). Goes with its area.
 * - AreaLockdownDoor: one row per door of the area's controllers at the start (or added when a controller of the
 *   area first answers during it): the mode and delay the controller held before (read back before anything was
 *   written, so a release gives them back), the mode last read back and when, and when the lockdown's mode and,
 *   after the release, the door's own mode were confirmed. Goes with its lockdown or its controller.
 * Both are written by access-control/area-lockdown only.
 */
export const lockdownMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    await withId(db.schema.createTable('AreaLockdown'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('cascade'))
      .addColumn('Mode', 'text', (c) => c.notNull())
      .addColumn('Reason', 'text', (c) => c.notNull())
      .addColumn('StartedAt', 'bigint', (c) => c.notNull())
      .addColumn('StartedById', 'integer')
      .addColumn('StartedBy', 'text', (c) => c.notNull())
      .addColumn('StartedByKind', 'text', (c) => c.notNull())
      .addColumn('ReleasedAt', 'bigint')
      .addColumn('ReleasedById', 'integer')
      .addColumn('ReleasedBy', 'text')
      .addColumn('ReleasedByKind', 'text')
      .addColumn('Note', 'text')
      .execute();
    await sql`create unique index "AreaLockdown_in_force" on "AreaLockdown" ("AreaId") where "ReleasedAt" is null`.execute(
      db,
    );
    await db.schema.createIndex('AreaLockdown_AreaId').on('AreaLockdown').columns(['AreaId', 'Id']).execute();

    await db.schema
      .createTable('AreaLockdownDoor')
      .addColumn('LockdownId', 'integer', (c) =>
        c.notNull().references('AreaLockdown.Id').onDelete('cascade'),
      )
      .addColumn('DeviceId', 'integer', (c) =>
        c.notNull().references('AccessControlDevice.Id').onDelete('cascade'),
      )
      .addColumn('DoorNumber', 'integer', (c) => c.notNull())
      .addColumn('PriorMode', 'integer')
      .addColumn('PriorDelay', 'integer')
      .addColumn('PriorReadAt', 'bigint')
      .addColumn('ReadMode', 'integer')
      .addColumn('ReadDelay', 'integer')
      .addColumn('ReadAt', 'bigint')
      .addColumn('HeldAt', 'bigint')
      .addColumn('RestoredAt', 'bigint')
      .addPrimaryKeyConstraint('AreaLockdownDoor_pk', ['LockdownId', 'DeviceId', 'DoorNumber'])
      .execute();
    await db.schema
      .createIndex('AreaLockdownDoor_DeviceId')
      .on('AreaLockdownDoor')
      .columns(['DeviceId', 'LockdownId'])
      .execute();
  },
};
