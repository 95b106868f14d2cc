import type { Kysely } from 'kysely';
import type { MigrationContext, PortableMigration } from '../../db/migrations/helpers.ts';

/** Tables and indexes of the access-control module. */
export const accessControlMigration: PortableMigration = {
  async up(_db: Kysely<unknown>, _ctx: MigrationContext) {},
};
