import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * What the budget sweep last found and did in a zone with a power budget (migration 0030; docs/garage.md "Zone
 * power budget"): the draw it evaluated and when (what every start's admission reads), since when the zone is
 * above its budget (the grace counts from there) or back well under it (limits are cleared after as long), when
 * it last acted, and the limits in force (JSON array of park-area/budget.ts's SentLimit). One row per zone,
 * written only by park-area/budget.ts; it goes with its zone. Declared beside its migration, as the zone's
 * emergency stops are (tables-emergency.ts).
 */
export interface ParkAreaPowerTable {
  ParkAreaId: number;
  AreaId: number;
  DrawW: number;
  EvaluatedAt: number;
  OverSince: number | null;
  LowSince: number | null;
  ActedAt: number | null;
  Limits: string;
}

export interface GaragePowerBudgetTables {
  ParkAreaPower: ParkAreaPowerTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends GaragePowerBudgetTables {}
}

/**
 * Issue 30, "Zone power budget" (docs/garage.md, "Zone power budget"):
 * - ParkArea.PowerBudgetW: what the zone's feeder may carry (W), null = no budget;
 * - ChargeHost.MaxPowerW: what one host may draw (W), null = no limit of its own; the limits Gatehouse sends a
 *   SmartCharging host never add up to more;
 * - ChargeEquipment.LastPowerAt: when the socket's last power (LastPowerW, 0016) was metered, so a reading the
 *   charger has not repeated for a while is known to be old and counts in no zone's live draw;
 * - ParkAreaPower: per zone with a budget, what the budget sweep last found and did (the draw it evaluated and
 *   when, since when the zone is above its budget or back well under it, when it last acted, the limits in
 *   force per session). One row per zone, written only by park-area; it goes with its zone.
 * One column per statement: SQLite alters one column at a time.
 */
export const powerBudgetMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ParkArea').addColumn('PowerBudgetW', 'integer').execute();
    await db.schema.alterTable('ChargeHost').addColumn('MaxPowerW', 'integer').execute();
    await db.schema.alterTable('ChargeEquipment').addColumn('LastPowerAt', 'bigint').execute();
    await db.schema
      .createTable('ParkAreaPower')
      .addColumn('ParkAreaId', 'integer', (c) => c.primaryKey().references('ParkArea.Id').onDelete('cascade'))
      .addColumn('AreaId', 'integer', (c) => c.notNull())
      .addColumn('DrawW', 'integer', (c) => c.notNull())
      .addColumn('EvaluatedAt', 'bigint', (c) => c.notNull())
      .addColumn('OverSince', 'bigint')
      .addColumn('LowSince', 'bigint')
      .addColumn('ActedAt', 'bigint')
      .addColumn('Limits', 'text', (c) => c.notNull())
      .execute();
  },
};
