import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * What several instances must agree on at sign-in (docs/deployment.md): the login throttle's counts and locks
 * (LoginAttempt, one row per counted attempt and key; LoginLock, one per locked key with how often it was
 * locked in a row) and the live hub's one-time tickets (HubTicket, redeemed once on any instance).
 */
export const sharedAuthMigration: PortableMigration = {
  async up(db: Kysely<unknown>, ctx) {
    const id = ctx.dialect === 'postgres' ? 'bigserial' : 'integer';
    await db.schema
      .createTable('LoginAttempt')
      .addColumn('Id', id, (c) =>
        ctx.dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('Key', 'text', (c) => c.notNull())
      .addColumn('At', 'bigint', (c) => c.notNull())
      .execute();
    await sql`create index "LoginAttempt_Key_At" on "LoginAttempt" ("Key", "At")`.execute(db);
    await sql`create index "LoginAttempt_At" on "LoginAttempt" ("At")`.execute(db);
    await db.schema
      .createTable('LoginLock')
      .addColumn('Key', 'text', (c) => c.primaryKey())
      .addColumn('LockedUntil', 'bigint', (c) => c.notNull())
      .addColumn('Locks', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('HubTicket')
      .addColumn('TicketHash', 'text', (c) => c.primaryKey())
      .addColumn('TokenHash', 'text', (c) => c.notNull())
      .addColumn('AreaId', 'integer', (c) => c.notNull())
      .addColumn('ExpiresAt', 'bigint', (c) => c.notNull())
      .execute();
    await sql`create index "HubTicket_ExpiresAt" on "HubTicket" ("ExpiresAt")`.execute(db);
  },
};
