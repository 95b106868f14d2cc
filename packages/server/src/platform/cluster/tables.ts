import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Kysely types of the cluster's two tables (migration.ts). They live here rather than in db/schema.ts so the
 * cluster building blocks stand alone until they are wired in; `clusterKysely` is the one place where the
 * application's Kysely is seen through them.
 */

/** One row per thing owned by one instance at a time (a WG controller, a named singleton job). */
export interface LeaseTable {
  Kind: string;
  Key: string;
  /** The instance holding it; NULL once released (the row stays, so its Epoch never goes back). */
  Holder: string | null;
  /** Fencing epoch: +1 every time the lease is taken (a new tenure); writes made under it check it. */
  Epoch: number;
  /** Epoch milliseconds (the instances' clock): the lease is held while now < ExpiresAt. */
  ExpiresAt: number;
}

/** One row per running instance, kept alive by its heartbeat. */
export interface InstanceTable {
  Id: string;
  StartedAt: number;
  HeartbeatAt: number;
  /** Where other instances or devices reach it (host:port), when it has such an address. */
  Address: string | null;
  /** JSON text: free-form facts about the instance (version, WG listener…). */
  Meta: string | null;
}

export interface ClusterTables {
  Lease: LeaseTable;
  Instance: InstanceTable;
}

/**
 * The application's Kysely (or a transaction of it) typed over the cluster tables. The tables are created by
 * this folder's migration, not declared in db/schema.ts, so the cast is unchecked by design: this is the only
 * place it is made.
 */
export function clusterKysely(k: AppKysely): Kysely<ClusterTables> {
  return k as unknown as Kysely<ClusterTables>;
}

/** The application's Kysely or one of its transactions (or one already typed over the cluster tables). */
export type AppKysely = Kysely<Database> | Kysely<ClusterTables>;
