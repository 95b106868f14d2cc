import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from './database.ts';

export interface MigrationContext {
  dialect: DialectName;
}

export interface PortableMigration {
  up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void>;
}

/** An auto-increment integer primary key named Id, spelled as each dialect wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, ctx: MigrationContext) {
  return ctx.dialect === 'postgres'
    ? table.addColumn('Id', 'serial', (c) => c.primaryKey())
    : table.addColumn('Id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Created/updated instants in epoch milliseconds. */
export function withTimestamps<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull());
}
