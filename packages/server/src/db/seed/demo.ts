import { accessControlModule } from '../../modules/access-control/index.ts';
import { garageModule } from '../../modules/garage/index.ts';
import { organizationModule } from '../../modules/organization/index.ts';
import { systemModule } from '../../modules/system/index.ts';
import type { DemoSeeder } from './context.ts';

export type { DemoContext, DemoSeeder } from './context.ts';

/**
 * Module demo data, in dependency order (organisation before the card holders that belong to departments).
 * Each seeder runs once, on an empty database, after the platform seed (users, roles, areas) committed.
 */
export const demoSeeders: DemoSeeder[] = [
  organizationModule,
  systemModule,
  accessControlModule,
  garageModule,
].map((m) => m.demo!);
