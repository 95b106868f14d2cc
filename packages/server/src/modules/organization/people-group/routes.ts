import { PEOPLE_GROUP_ADMIN, peopleGroupItem } from '@gatehouse/shared';
import { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';

type Item = z.infer<typeof peopleGroupItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  Remark: z.string().trim().max(200).nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

function namedList(name: 'PeopleGroup' | 'PeopleType', titleKey: string) {
  return defineResource({
    name,
    table: name,
    tag: 'Organization',
    area: true,
    read: PEOPLE_GROUP_ADMIN,
    write: PEOPLE_GROUP_ADMIN,
    item: peopleGroupItem,
    query: (db) => db.selectFrom(name).select(['Id', 'Name', 'Remark', 'Sort', 'CreatedAt', 'UpdatedAt']),
    toItem: rowMapper<Item>({}),
    filters: { Name: filter.like(`${name}.Name`) },
    sorts: { Sort: `${name}.Sort`, Name: `${name}.Name`, CreatedAt: `${name}.CreatedAt`, Id: `${name}.Id` },
    timestamps: true,
    unique: [{ fields: ['Name'], key: 'error.nameTaken' }],
    create: {
      body: z.strictObject(fields),
      values: (input) => ({ Name: input.Name, Remark: input.Remark ?? null, Sort: input.Sort ?? 0 }),
    },
    update: {
      body: z.strictObject({ Id: z.number().int().min(1), ...fields }),
      values: (input) => ({
        Name: input.Name,
        ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
        ...(input.Sort !== undefined ? { Sort: input.Sort } : {}),
      }),
    },
    remove: { check: (ctx, row, trx) => assertNoDependents(name, trx, row.Id as number, ctx.lang) },
    export: {
      titleKey,
      columns: [
        { key: 'Name', labelKey: 'admin.field.Name', width: 24 },
        { key: 'Remark', labelKey: 'admin.field.Remark', width: 32 },
        { key: 'Sort', labelKey: 'admin.field.Sort', kind: 'number' },
        { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
      ],
    },
  });
}

export const peopleGroupRoutes = namedList('PeopleGroup', 'admin.title.peopleGroup');
export const peopleTypeRoutes = namedList('PeopleType', 'admin.title.peopleType');
