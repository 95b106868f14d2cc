import { DEPARTMENT_READ, DEPARTMENT_WRITE, departmentItem, departmentNode } from '@gatehouse/shared';
import { z } from 'zod';
import { fieldError } from '../../../platform/errors.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { departmentTree, subtreeIds } from './tree.ts';
import './members.ts';

const fields = {
  Name: z.string().trim().min(1).max(50),
  ParentId: id.nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

async function assertParentInArea(trx: Kysely<Database>, ctx: AreaContext, parentId: number) {
  const parent = await trx
    .selectFrom('Department')
    .select('Id')
    .where('Id', '=', parentId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!parent) throw fieldError('ParentId', 'error.departmentParentMissing');
}

export const departmentRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/Department/Tree',
    summary: "The area's departments as a tree with member counts",
    tag: 'Organization',
    access: DEPARTMENT_READ,
    area: true,
    response: z.array(departmentNode),
    handler: (_input, ctx) => departmentTree(ctx.db.kysely, ctx.areaId),
  }),
  ...defineResource({
    name: 'Department',
    table: 'Department',
    tag: 'Organization',
    area: true,
    read: DEPARTMENT_READ,
    write: DEPARTMENT_WRITE,
    item: departmentItem,
    query: (db) =>
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
        ]),
    toItem: rowMapper({}),
    filters: { Name: filter.like('Department.Name'), ParentId: filter.id('Department.ParentId') },
    sorts: { Sort: 'Department.Sort', Name: 'Department.Name', CreatedAt: 'Department.CreatedAt' },
    timestamps: true,
    unique: [{ fields: ['ParentId', 'Name'], key: 'error.nameTaken' }],
    create: {
      body: z.strictObject(fields),
      async values(input, ctx, trx) {
        if (input.ParentId) await assertParentInArea(trx, ctx, input.ParentId);
        return { Name: input.Name, ParentId: input.ParentId ?? null, Sort: input.Sort ?? 0 };
      },
    },
    update: {
      body: z.strictObject({ Id: id, ...fields }),
      /** Rename and move: the new parent must be in the area and not the department or one of its descendants. */
      async values(input, ctx, trx) {
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
      },
    },
    remove: { check: (ctx, row, trx) => assertNoDependents('Department', trx, row.Id as number, ctx.lang) },
    export: {
      titleKey: 'admin.title.department',
      columns: [
        { key: 'Name', labelKey: 'admin.field.Name', width: 24 },
        { key: 'ParentName', labelKey: 'admin.field.ParentDepartment', width: 24 },
        { key: 'Sort', labelKey: 'admin.field.Sort', kind: 'number' },
        { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
      ],
    },
  }),
];
