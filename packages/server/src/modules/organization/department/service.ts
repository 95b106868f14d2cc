import type { DepartmentApi, DepartmentItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { subtreeIds } from './tree.ts';

type Trx = Kysely<Database>;
type CreateBody = z.output<typeof DepartmentApi.create.body>;
type UpdateBody = z.output<typeof DepartmentApi.update.body>;

/** The list and detail query: a department with its parent's name. */
export const departmentQuery = (db: Trx) =>
  db
    .selectFrom('Department')
    .leftJoin('Department as Parent', 'Parent.Id', 'Department.ParentId')
    .select([
      'Department.Id',
      'Department.ParentId',
      'Parent.Name as ParentName',
      'Department.Name',
      'Department.Sort',
      'Department.CreatedAt',
      'Department.UpdatedAt',
    ]);

export const departmentRow = rowMapper<DepartmentItem>({});

/** Whether a department of this id is in the area (what a department chosen in a form must be). */
export async function departmentInArea(db: Trx, areaId: number, departmentId: number): Promise<boolean> {
  const found = await db
    .selectFrom('Department')
    .select('Id')
    .where('Id', '=', departmentId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  return found !== undefined;
}

async function assertParentInArea(trx: Trx, ctx: AreaContext, parentId: number) {
  if (!(await departmentInArea(trx, ctx.areaId, parentId)))
    throw fieldError('ParentId', 'error.departmentParentMissing');
}

/** A new department: its parent, if any, must be in the area. */
export async function newDepartment(input: CreateBody, ctx: AreaContext, trx: Trx) {
  if (input.ParentId) await assertParentInArea(trx, ctx, input.ParentId);
  return { Name: input.Name, ParentId: input.ParentId ?? null, Sort: input.Sort ?? 0 };
}

/** Rename and move: the new parent must be in the area and not the department or one of its descendants. */
export async function changedDepartment(input: UpdateBody, ctx: AreaContext, trx: Trx) {
  if (input.ParentId) {
    await assertParentInArea(trx, ctx, input.ParentId);
    if ((await subtreeIds(trx, ctx.areaId, input.Id)).has(input.ParentId))
      throw fieldError('ParentId', 'error.departmentCycle');
  }
  return {
    Name: input.Name,
    ...(input.ParentId !== undefined ? { ParentId: input.ParentId } : {}),
    ...(input.Sort !== undefined ? { Sort: input.Sort } : {}),
  };
}
