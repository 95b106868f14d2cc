import { registerDependent } from '../../platform/dependents.ts';
import { registerDepartmentDependents } from './department/members.ts';

/**
 * What keeps organisation rows (a department's members and children) and areas (organisation data) from
 * being deleted; called by the organization face.
 */
export function registerOrganizationDependents(): void {
  registerDepartmentDependents();
  for (const [table, labelKey] of [
    ['Department', 'admin.entity.Department'],
    ['PeopleGroup', 'admin.entity.PeopleGroup'],
    ['PeopleType', 'admin.entity.PeopleType'],
  ] as const) {
    registerDependent('AreaInfo', {
      labelKey,
      async count(db, areaId) {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('AreaId', '=', areaId)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
    });
  }
}
