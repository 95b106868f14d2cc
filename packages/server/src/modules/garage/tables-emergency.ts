import { sql, type Generated } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';
import { withId } from '../../db/migration.ts';

/**
 * A parking zone's emergency stops (migration 0029-emergency-stop; docs/garage.md "Emergency stop"): one row per
 * stop, kept after its release as its record. The row with `ReleasedAt` null is the stop in force; a unique
 * partial index allows one per zone, so two stops asked at once cannot both be made. Stored, not held in a
 * process: a restart, or another instance, refuses starts in the zone and makes its reconnecting chargers
 * Inoperative from this row alone. Written only by park-area/emergency-stop.ts; it goes with its zone.
 *
 * Declared here rather than in tables.ts, beside its migration, as access-control keeps its rules' tables apart.
 */
export interface ParkAreaEmergencyStopTable {
  Id: Generated<number>;
  AreaId: number;
  ParkAreaId: number;
  Reason: string;
  StoppedAt: number;
  /** The user's id (null for an API key or the system). */
  StoppedById: number | null;
  /** The person's or the API key's name. */
  StoppedBy: string;
  /** 'user' | 'key' | 'system' */
  StoppedByKind: string;
  /** JSON of the contract's EmergencyStopOutcome once the stop's commands were answered; null until then. */
  StopOutcome: string | null;
  ReleasedAt: number | null;
  ReleasedById: number | null;
  ReleasedBy: string | null;
  ReleasedByKind: string | null;
  Note: string | null;
  /** JSON of the contract's EmergencyReleaseOutcome once the release's commands were answered. */
  ReleaseOutcome: string | null;
  /**
   * JSON array of the hosts the release did not reach (not connected): each is made Operative when it next
   * connects, then taken off the list. Null or [] when none waits.
   */
  ReleasePending: string | null;
}

export interface GarageEmergencyTables {
  ParkAreaEmergencyStop: ParkAreaEmergencyStopTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends GarageEmergencyTables {}
}

/** Issue 30, "Emergency stop of a zone": the zones' stops, one in force per zone at most. */
export const emergencyStopMigration: PortableMigration = {
  async up(db, ctx) {
    await withId(db.schema.createTable('ParkAreaEmergencyStop'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('ParkAreaId', 'integer', (c) => c.notNull().references('ParkArea.Id').onDelete('cascade'))
      .addColumn('Reason', 'text', (c) => c.notNull())
      .addColumn('StoppedAt', 'bigint', (c) => c.notNull())
      .addColumn('StoppedById', 'integer')
      .addColumn('StoppedBy', 'text', (c) => c.notNull())
      .addColumn('StoppedByKind', 'text', (c) => c.notNull())
      .addColumn('StopOutcome', 'text')
      .addColumn('ReleasedAt', 'bigint')
      .addColumn('ReleasedById', 'integer')
      .addColumn('ReleasedBy', 'text')
      .addColumn('ReleasedByKind', 'text')
      .addColumn('Note', 'text')
      .addColumn('ReleaseOutcome', 'text')
      .addColumn('ReleasePending', 'text')
      .execute();
    // The stop in force of a zone: at most one, and what every start's admission check reads.
    await sql`create unique index "ParkAreaEmergencyStop_in_force" on "ParkAreaEmergencyStop" ("ParkAreaId") where "ReleasedAt" is null`.execute(
      db,
    );
    // A zone's latest stop (a released one may still wait for chargers to reconnect).
    await db.schema
      .createIndex('ParkAreaEmergencyStop_zone')
      .on('ParkAreaEmergencyStop')
      .columns(['ParkAreaId', 'StoppedAt'])
      .execute();
  },
};
