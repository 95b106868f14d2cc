import type { Db } from '../database.ts';
import { seedOrganizationDemo } from '../../modules/organization/demo.ts';
import { seedSystemDemo } from '../../modules/system/demo.ts';
import { seedAccessControlDemo } from '../../modules/access-control/demo.ts';
import { seedGarageDemo } from '../../modules/garage/demo.ts';

/** What every module's demo seeder receives. */
export interface DemoContext {
  /** Ids of the demo areas, in DEMO_AREAS order. */
  areaIds: number[];
  now: number;
  /** Argon2 hash of the demo password, computed once. */
  passwordHash: string;
  /**
   * Volume factor for bulk demo data (1 = the full demo: 200,000 swipe records, 100,000 charging sessions).
   * Test databases seed with a small factor; counts are Math.max(1, Math.round(full × scale)).
   */
  scale: number;
  /** Raw SQLite handle for fast bulk inserts (absent on PostgreSQL, where batched Kysely inserts are used). */
  sqlite?: Db['sqlite'];
}

export type DemoSeeder = (db: Db, ctx: DemoContext) => Promise<void>;

/**
 * Module demo data, in dependency order (organisation before the card holders that belong to departments).
 * Each seeder runs once, on an empty database, after the platform seed (users, roles, areas) committed.
 */
export const demoSeeders: DemoSeeder[] = [
  seedOrganizationDemo,
  seedSystemDemo,
  seedAccessControlDemo,
  seedGarageDemo,
];
