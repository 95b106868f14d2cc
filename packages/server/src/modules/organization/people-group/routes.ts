import { PeopleGroupApi, PeopleTypeApi } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource, rowMapper } from '../../../platform/resource.ts';

/** People groups and people types: the same named list, each its own table and resource. */
function namedList(api: typeof PeopleGroupApi | typeof PeopleTypeApi, titleKey: string) {
  const name = api.name;
  return implementResource(api, {
    table: name,
    query: (db) => db.selectFrom(name).select(['Id', 'Name', 'Remark', 'Sort', 'CreatedAt', 'UpdatedAt']),
    toItem: rowMapper({}),
    where: { Name: match.like(`${name}.Name`) },
    sorts: { Sort: `${name}.Sort`, Name: `${name}.Name`, CreatedAt: `${name}.CreatedAt`, Id: `${name}.Id` },
    timestamps: true,
    unique: [{ fields: ['Name'], key: 'error.nameTaken' }],
    create: {
      values: (input) => ({ Name: input.Name, Remark: input.Remark ?? null, Sort: input.Sort ?? 0 }),
    },
    update: {
      values: (input) => ({
        Name: input.Name,
        ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
        ...(input.Sort !== undefined ? { Sort: input.Sort } : {}),
      }),
    },
    remove: { check: (ctx, row, trx) => assertNoDependents(name, trx, row.Id as number, ctx.lang) },
    export: {
      titleKey,
      columns: exportColumns('admin.field', {
        Name: 24,
        Remark: 32,
        Sort: 'number',
        CreatedAt: 'instant',
      }),
    },
  });
}

export const peopleGroupRoutes = namedList(PeopleGroupApi, 'admin.title.peopleGroup');
export const peopleTypeRoutes = namedList(PeopleTypeApi, 'admin.title.peopleType');
