import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * The cluster's shared state (docs/deployment.md, "Cluster building blocks"): the same text on SQLite and
 * PostgreSQL, as in the other portable migrations.
 *
 * - Lease: one row per (Kind, Key) owned by one instance at a time. The row is never deleted on release
 *   (Holder goes NULL) so the fencing Epoch only ever grows. Indexed by holder (what an instance holds, for
 *   renewal and shutdown) and by kind and expiry (what is up for takeover).
 * - Instance: the live instances, by heartbeat (balance and takeover read the recent ones).
 */
export const clusterMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('Lease')
      .addColumn('Kind', 'text', (c) => c.notNull())
      .addColumn('Key', 'text', (c) => c.notNull())
      .addColumn('Holder', 'text')
      .addColumn('Epoch', 'bigint', (c) => c.notNull())
      .addColumn('ExpiresAt', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('Lease_pkey', ['Kind', 'Key'])
      .execute();
    await sql`create index "Lease_Holder" on "Lease" ("Holder")`.execute(db);
    await sql`create index "Lease_Kind_ExpiresAt" on "Lease" ("Kind", "ExpiresAt")`.execute(db);

    await db.schema
      .createTable('Instance')
      .addColumn('Id', 'text', (c) => c.primaryKey())
      .addColumn('StartedAt', 'bigint', (c) => c.notNull())
      .addColumn('HeartbeatAt', 'bigint', (c) => c.notNull())
      .addColumn('Address', 'text')
      .addColumn('Meta', 'text')
      .execute();
    await sql`create index "Instance_HeartbeatAt" on "Instance" ("HeartbeatAt")`.execute(db);
  },
};
