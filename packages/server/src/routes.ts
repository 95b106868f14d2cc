import { accessControlModule } from './modules/access-control/index.ts';
import { garageModule } from './modules/garage/index.ts';
import { organizationModule } from './modules/organization/index.ts';
import { systemModule } from './modules/system/index.ts';
import type { ServerModule } from './platform/module.ts';
import type { AnyRoute } from './platform/route.ts';

/**
 * Every module, through its face, in dependency order: the route table, the registries (dependents, whose
 * order is the order a 409 names them in) and the demo seed follow this list.
 */
export const serverModules: ServerModule[] = [
  systemModule,
  organizationModule,
  accessControlModule,
  garageModule,
];

/** Every declared API route, module by module. */
export const routeTable: AnyRoute[] = serverModules.flatMap((m) => m.routes);

/** Fills the platform registries from every module; idempotent (each app build calls it). */
export function registerModules(): void {
  for (const m of serverModules) m.register?.();
}
