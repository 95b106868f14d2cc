import { sql, type Kysely } from 'kysely';
import { withId, type PortableMigration } from '../../db/migration.ts';

/**
 * Issue 30, "Heat" (docs/garage.md "Heat"): a parking zone's temperature limit, and each charging host's heat
 * alarms.
 * - ParkArea.MaxTemperatureC: whole °C; a charger of the zone reporting a Temperature above it puts its host in
 *   alarm. Null (every existing zone): no limit.
 * - ChargeHostHeatAlarm: one row per alarm, kept once cleared (when, by whom, with what note), so a host's
 *   history of overheating stays readable. At most one open alarm per host (a unique index on the open rows:
 *   two readings racing each other raise one alarm). The zone, temperature and limit are those of the moment it
 *   was raised; the sessions it asked to stop are JSON. Written only by charge-host (heat-alarm.ts); it goes
 *   with its host.
 */
export const heatAlarmMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx) {
    await db.schema.alterTable('ParkArea').addColumn('MaxTemperatureC', 'integer').execute();
    await withId(db.schema.createTable('ChargeHostHeatAlarm'), ctx)
      .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
      .addColumn('ChargeHostId', 'integer', (c) =>
        c.notNull().references('ChargeHost.Id').onDelete('cascade'),
      )
      // The zone it was raised in, without a foreign key: a host may move and its old zone be deleted.
      .addColumn('ParkAreaId', 'integer', (c) => c.notNull())
      .addColumn('Trigger', 'text', (c) => c.notNull())
      .addColumn('TemperatureC', 'double precision')
      .addColumn('LimitC', 'integer')
      .addColumn('ConnectorId', 'integer', (c) => c.notNull())
      .addColumn('Location', 'text')
      .addColumn('RaisedAt', 'bigint', (c) => c.notNull())
      .addColumn('LastTemperatureC', 'double precision')
      .addColumn('LastReadingAt', 'bigint')
      .addColumn('Sessions', 'text', (c) => c.notNull())
      .addColumn('ClearedAt', 'bigint')
      .addColumn('ClearedById', 'integer')
      .addColumn('ClearedBy', 'text')
      .addColumn('Note', 'text')
      .execute();
    await sql`create unique index "ChargeHostHeatAlarm_open" on "ChargeHostHeatAlarm" ("ChargeHostId") where "ClearedAt" is null`.execute(
      db,
    );
    await db.schema
      .createIndex('ChargeHostHeatAlarm_host')
      .on('ChargeHostHeatAlarm')
      .columns(['ChargeHostId', 'RaisedAt'])
      .execute();
  },
};
