import { sql, type Kysely } from 'kysely';
import { withId, withTimestamps, type MigrationContext, type PortableMigration } from '../../db/migration.ts';

/**
 * Visitor passes (issue 31, docs/access-control.md "Visitor passes"). A pass is a row of its own that names the
 * card holder row its visitor is on the controllers as (`CardUserId`, hidden from the holder screens), the card
 * generated for it, its host and its window; its authorisations are ordinary ones. `State` 1 valid, 2 expired,
 * 3 revoked: the expiry sweep reads (State, ValidTo). A time profile made for a pass's hours names its window
 * (`TimeProfile.VisitorWindow`), so passes of the same window share it and the profile screens leave it out.
 */
export const visitorPassMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx: MigrationContext) {
    const holder = 'CardUser.Id';
    await withTimestamps(
      withId(db.schema.createTable('VisitorPass'), ctx)
        .addColumn('AreaId', 'integer', (c) => c.notNull().references('AreaInfo.Id').onDelete('restrict'))
        .addColumn('CardUserId', 'integer', (c) => c.notNull().references(holder).onDelete('restrict'))
        .addColumn('CardId', 'integer', (c) => c.notNull().references('Card.Id').onDelete('restrict'))
        .addColumn('CardNumber', 'text', (c) => c.notNull())
        .addColumn('VisitorName', 'text', (c) => c.notNull())
        .addColumn('Phone', 'text')
        .addColumn('Company', 'text')
        .addColumn('HostCardUserId', 'integer', (c) => c.notNull().references(holder).onDelete('restrict'))
        .addColumn('HostName', 'text', (c) => c.notNull())
        .addColumn('ChannelIds', 'text', (c) => c.notNull())
        .addColumn('ValidFrom', 'bigint', (c) => c.notNull())
        .addColumn('ValidTo', 'bigint', (c) => c.notNull())
        .addColumn('HoursOnController', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('State', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('EndedAt', 'bigint')
        .addColumn('EndedBy', 'text')
        .addColumn('CreatedBy', 'text'),
    ).execute();
    await sql`create unique index "VisitorPass_CardUserId" on "VisitorPass" ("CardUserId")`.execute(db);
    await db.schema
      .createIndex('VisitorPass_AreaId')
      .on('VisitorPass')
      .columns(['AreaId', 'CreatedAt'])
      .execute();
    await db.schema.createIndex('VisitorPass_due').on('VisitorPass').columns(['State', 'ValidTo']).execute();
    await db.schema
      .createIndex('VisitorPass_HostCardUserId')
      .on('VisitorPass')
      .columns(['HostCardUserId'])
      .execute();
    await db.schema.alterTable('TimeProfile').addColumn('VisitorWindow', 'text').execute();
    await db.schema
      .createIndex('TimeProfile_VisitorWindow')
      .on('TimeProfile')
      .columns(['AreaId', 'VisitorWindow'])
      .execute();
  },
};
