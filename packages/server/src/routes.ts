import { authRoutes } from './modules/system/auth/routes.ts';
import { userRoutes } from './modules/system/users/routes.ts';
import { areaRoutes } from './modules/system/areas/routes.ts';
import { roleRoutes } from './modules/system/roles/routes.ts';
import { resourceRoutes } from './modules/system/resources/routes.ts';
import { operatorStaffRoutes } from './modules/system/operator-staff/resource.ts';
import { settingsRoutes } from './modules/system/settings/routes.ts';
import { auditLogRoutes } from './modules/system/audit-log/routes.ts';
import { exportRoutes } from './modules/system/exports/routes.ts';
import { optionRoutes } from './modules/system/options/routes.ts';
import { departmentRoutes } from './modules/organization/departments/routes.ts';
import { peopleGroupRoutes, peopleTypeRoutes } from './modules/organization/people-groups/resources.ts';
import './modules/organization/area-dependents.ts';
import { accessControlRoutes } from './modules/access-control/routes.ts';
import { garageRoutes } from './modules/garage/routes.ts';
import type { AnyRoute } from './platform/route.ts';

/** Every declared API route; modules add their lists here. */
export const routeTable: AnyRoute[] = [
  ...authRoutes,
  ...userRoutes,
  ...areaRoutes,
  ...roleRoutes,
  ...resourceRoutes,
  ...operatorStaffRoutes,
  ...settingsRoutes,
  ...auditLogRoutes,
  ...exportRoutes,
  ...optionRoutes,
  ...departmentRoutes,
  ...peopleGroupRoutes,
  ...peopleTypeRoutes,
  ...accessControlRoutes,
  ...garageRoutes,
];
