import { z } from 'zod';
import { resourceApi } from '../operation.ts';
import { PEOPLE_GROUP_ADMIN } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';

// People groups and people types: named lists per area, managed by PeopleGroup/Admin.
export const peopleGroupItem = z.object({
  Id: z.number(),
  Name: z.string(),
  Remark: z.string().nullable(),
  Sort: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type PeopleGroupItem = z.output<typeof peopleGroupItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  Remark: z.string().trim().max(200).nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

/** The two named lists share one shape; each is its own resource. */
function namedList<const N extends 'PeopleGroup' | 'PeopleType'>(name: N) {
  return resourceApi({
    name,
    tag: 'Organization',
    area: true,
    read: PEOPLE_GROUP_ADMIN,
    write: PEOPLE_GROUP_ADMIN,
    item: peopleGroupItem,
    filters: { Name: filterSchema.text() },
    sorts: ['Sort', 'Name', 'CreatedAt', 'Id'],
    create: z.strictObject(fields),
    update: z.strictObject({ Id: id, ...fields }),
    remove: true,
  });
}

export const PeopleGroupApi = namedList('PeopleGroup');
export const PeopleTypeApi = namedList('PeopleType');
