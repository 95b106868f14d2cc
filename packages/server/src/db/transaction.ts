import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `fn` in a transaction, or in the caller's when `k` already is one. Kysely refuses to nest
 * transactions; code that may run either alone or inside a larger unit (a demo seeder inside the one
 * seed transaction) writes through this.
 */
export function inTransaction<T>(k: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return k.isTransaction ? fn(k) : k.transaction().execute(fn);
}
