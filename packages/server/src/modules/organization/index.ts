import type { ServerModule } from '../../platform/module.ts';
import { departmentRoutes } from './department/routes.ts';
import { registerOrganizationDependents } from './dependents.ts';
import { peopleGroupRoutes, peopleTypeRoutes } from './people-group/routes.ts';

/** The organization module's face: departments (tree and members), people groups and people types. */
export const organizationModule: ServerModule = {
  name: 'organization',
  routes: [...departmentRoutes, ...peopleGroupRoutes, ...peopleTypeRoutes],
  register: registerOrganizationDependents,
};

// What other modules use: the department tree (choice lists), the member counters (card holders) and the
// check of a department chosen in a form (system users).
export { departmentTree, type DepartmentNode } from './department/tree.ts';
export { registerDepartmentMembers, type MemberCounter } from './department/members.ts';
export { departmentInArea } from './department/service.ts';
