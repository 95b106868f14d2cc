import type { PortableMigration } from '../db/migration.ts';
import type { AnyRoute } from './route.ts';

/**
 * What a module's face (`modules/<name>/index.ts`) hands the application: everything the route table, the
 * migrator need (its demo data lives in src/demo), and one explicit `register` for the registries it fills (dependents), so
 * nothing depends on which file happened to be imported first.
 */
export interface ServerModule {
  name: string;
  /** Its routes, in the order they are registered (and appear in the OpenAPI document). */
  routes: AnyRoute[];
  /** Its migrations, by key; keys are global and applied in key order with the platform's. */
  migrations?: Record<string, PortableMigration>;
  /** Fills the platform registries (dependents); idempotent, called once per app build. */
  register?(): void;
}
