import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * The audit log names any actor, not only users: devices (through their gateways) and the system write
 * entries too. ActorKind says which; ActorId is the user's or device's id. Earlier rows were all users'.
 */
export const auditActor: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('AuditLog')
      .addColumn('ActorKind', 'text', (c) => c.notNull().defaultTo('user'))
      .execute();
    await db.schema.alterTable('AuditLog').addColumn('ActorId', 'integer').execute();
    await sql`update "AuditLog" set "ActorId" = "UserId"`.execute(db);
  },
};
