import { registerDependent, rowsWhere } from '../../platform/dependents.ts';

/**
 * What the system module's rows keep from being deleted (registered by its face): a role held by users, a
 * resource with children or roles, an area with operator staff.
 */
export function registerSystemDependents(): void {
  registerDependent('Role', { labelKey: 'admin.entity.AppUser', count: rowsWhere('UserRole', 'RoleId') });
  registerDependent('Resource', {
    labelKey: 'admin.entity.ChildResource',
    count: rowsWhere('Resource', 'ParentId'),
  });
  registerDependent('Resource', {
    labelKey: 'admin.entity.Role',
    count: rowsWhere('RoleResource', 'ResourceId'),
  });
  registerDependent('AreaInfo', {
    labelKey: 'admin.entity.OperatorStaff',
    count: rowsWhere('OperatorStaff', 'AreaId'),
  });
}
