import type { Db } from '../database.ts';
import { seedOrganizationDemo } from '../../modules/organization/demo.ts';
import { seedSystemDemo } from '../../modules/system/demo.ts';

/** What every module's demo seeder receives. */
export interface DemoContext {
  /** Ids of the demo areas, in DEMO_AREAS order. */
  areaIds: number[];
  now: number;
  /** Argon2 hash of the demo password, computed once. */
  passwordHash: string;
}

export type DemoSeeder = (db: Db, ctx: DemoContext) => Promise<void>;

/**
 * Module demo data, in dependency order (organisation before the card holders that belong to departments).
 * Each seeder runs once, on an empty database, after the platform seed (users, roles, areas) committed.
 */
export const demoSeeders: DemoSeeder[] = [seedOrganizationDemo, seedSystemDemo];
