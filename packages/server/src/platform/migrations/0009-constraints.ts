import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * Every uniqueness rule a service checks (a resource's `unique`) is also a database constraint, so two
 * parallel creates cannot both pass the check on PostgreSQL: the loser's insert fails with 23505, which
 * the error handler answers as 409. The rules that had no constraint yet:
 *
 * - AccessControlDevice: Name within the area (pool devices, AreaId NULL, are distinct as NULLs are).
 * - AccessControlChannel: Name within the device (and area, as the service checks it), and one channel per
 *   door and direction of a device (door 0, "no door", may repeat: a partial index).
 *
 * Plain CREATE UNIQUE INDEX, the same text on SQLite and PostgreSQL.
 */
export const constraintsMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await sql`create unique index "AccessControlDevice_AreaId_Name_unique" on "AccessControlDevice" ("AreaId", "Name")`.execute(
      db,
    );
    await sql`create unique index "AccessControlChannel_Device_Name_unique" on "AccessControlChannel" ("AreaId", "DeviceId", "Name")`.execute(
      db,
    );
    await sql`create unique index "AccessControlChannel_Door_unique" on "AccessControlChannel" ("DeviceId", "DoorNumber", "Direction") where "DoorNumber" <> 0`.execute(
      db,
    );
  },
};
