import type { Kysely } from 'kysely';
import type { MigrationContext, PortableMigration } from '../../db/migrations/helpers.ts';

/** Tables and indexes of the garage module. */
export const garageMigration: PortableMigration = {
  async up(_db: Kysely<unknown>, _ctx: MigrationContext) {},
};
