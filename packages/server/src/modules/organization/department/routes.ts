import { DepartmentApi } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { changedDepartment, departmentQuery, departmentRow, newDepartment } from './service.ts';
import { departmentTree } from './tree.ts';
import './members.ts';

export const departmentRoutes = [
  route(DepartmentApi.tree, (_input, ctx) => departmentTree(ctx.db.kysely, ctx.areaId)),
  ...implementResource(DepartmentApi, {
    table: 'Department',
    query: departmentQuery,
    toItem: departmentRow,
    where: { Name: match.like('Department.Name'), ParentId: match.equals('Department.ParentId') },
    sorts: { Sort: 'Department.Sort', Name: 'Department.Name', CreatedAt: 'Department.CreatedAt' },
    timestamps: true,
    unique: [{ fields: ['ParentId', 'Name'], key: 'error.nameTaken' }],
    create: { values: newDepartment },
    update: { values: changedDepartment },
    remove: { check: (ctx, row, trx) => assertNoDependents('Department', trx, row.Id as number, ctx.lang) },
    export: {
      titleKey: 'admin.title.department',
      columns: exportColumns('admin.field', {
        Name: 24,
        ParentName: { header: 'ParentDepartment', width: 24 },
        Sort: 'number',
        CreatedAt: 'instant',
      }),
    },
  }),
];
