import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { registerDependent } from '../../../platform/dependents.ts';

/**
 * Who belongs to a department: system users bound to it, and (from the access-control module) card
 * holders. Each kind registers a bulk counter for the tree's member counts and a dependent that keeps a
 * department with members from being deleted.
 */
export interface MemberCounter {
  labelKey: string;
  /** Members per department id, for the departments of one area. */
  countByDepartment(db: Kysely<Database>, areaId: number): Promise<Map<number, number>>;
  /** Members of one department. */
  count(db: Kysely<Database>, departmentId: number): Promise<number>;
}

const counters: MemberCounter[] = [];

export function registerDepartmentMembers(counter: MemberCounter): void {
  if (counters.some((c) => c.labelKey === counter.labelKey)) return;
  counters.push(counter);
  registerDependent('Department', { labelKey: counter.labelKey, count: counter.count });
}

export async function memberCounts(db: Kysely<Database>, areaId: number): Promise<Map<number, number>> {
  const total = new Map<number, number>();
  for (const counter of counters) {
    for (const [id, n] of await counter.countByDepartment(db, areaId))
      total.set(id, (total.get(id) ?? 0) + n);
  }
  return total;
}

/** System users as department members, and child departments, keep a department (called by the organization face). */
export function registerDepartmentDependents(): void {
  registerDepartmentMembers({
    labelKey: 'admin.entity.AppUser',
    async countByDepartment(db, areaId) {
      const rows = await db
        .selectFrom('AppUser')
        .innerJoin('Department', 'Department.Id', 'AppUser.DepartmentId')
        .select((eb) => ['AppUser.DepartmentId', eb.fn.countAll().as('n')])
        .where('Department.AreaId', '=', areaId)
        .groupBy('AppUser.DepartmentId')
        .execute();
      return new Map(rows.map((r) => [Number(r.DepartmentId), Number(r.n)]));
    },
    async count(db, departmentId) {
      const row = await db
        .selectFrom('AppUser')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('DepartmentId', '=', departmentId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  });

  registerDependent('Department', {
    labelKey: 'admin.entity.ChildDepartment',
    async count(db, departmentId) {
      const row = await db
        .selectFrom('Department')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('ParentId', '=', departmentId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  });
}
