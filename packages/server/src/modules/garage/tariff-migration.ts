import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/** The tariff dimensions' columns (shared Tariff): a rule has them, an order copies them at its start. */
const DIMENSIONS: [string, 'text' | 'integer'][] = [
  // JSON lists, null when not used: [{ UpToW, PriceCents }], [{ From, To, PriceCentsPerKWh }].
  ['PowerBands', 'text'],
  ['TimeOfDay', 'text'],
  ['IdleFeeCentsPerHour', 'integer'],
  ['IdleGraceMinutes', 'integer'],
  ['ServiceFeeCents', 'integer'],
];

/**
 * Issue 30, "Tariffs as priced here" (docs/garage.md, "Tariff dimensions"):
 * - ChargeRule and ChargeOrder: power bands, time-of-day periods, idle fee and grace, service fee; null on every
 *   row there was (such a rule prices as before, and an order keeps the terms it copied).
 * - ChargeOrder.PriceLines: the itemised order (JSON of the shared PriceLine list) stored at settlement; null
 *   on the orders settled before, and while the session runs.
 * - ChargeRecord.MeterDigest: the session's meter readings folded as they came (shared MeterDigest, JSON: the
 *   first and last reading, the sustained power so far, the runs of the last five minutes and the energy per
 *   period), a few hundred bytes however long the session runs; ChargeRecord.FullAt: since when the battery
 *   has been full (the idle fee counts from it).
 * One column per statement: SQLite alters one column at a time.
 */
export const tariffDimensionsMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['ChargeRule', 'ChargeOrder'])
      for (const [column, type] of DIMENSIONS)
        await db.schema.alterTable(table).addColumn(column, type).execute();
    await db.schema.alterTable('ChargeOrder').addColumn('PriceLines', 'text').execute();
    await db.schema.alterTable('ChargeRecord').addColumn('MeterDigest', 'text').execute();
    await db.schema.alterTable('ChargeRecord').addColumn('FullAt', 'bigint').execute();
  },
};
