import { z } from 'zod';
import { operation, peopleOnly, resourceApi } from '../operation.ts';
import { RESOURCE_MANAGERS, RESOURCE_READERS } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';

/** A resource (menu or permission code) as its list and detail return it. */
export const resourceItem = z.object({
  Id: z.number(),
  Code: z.string(),
  Name: z.string(),
  ParentId: z.number().nullable(),
  Type: z.enum(['menu', 'permission']),
  Sort: z.number(),
  BuiltIn: z.boolean(),
  RoleCount: z.number(),
});
export type ResourceItem = z.output<typeof resourceItem>;

export type ResourceNode = ResourceItem & { Children: ResourceNode[] };

/** One node of GET /api/Resource/Tree (named for OpenAPI: see departmentNode). */
export const resourceNode: z.ZodType<ResourceNode> = resourceItem
  .extend({
    get Children() {
      return z.array(resourceNode);
    },
  })
  .meta({ id: 'ResourceNode' });

const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9/:_-]{1,59}$/, { message: 'validation.resourceCode' });
const fields = {
  Name: z.string().trim().min(1).max(50),
  ParentId: id.nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

/** Resource managers edit the tree; role managers read it to assign resources to roles. */
export const ResourceApi = peopleOnly({
  tree: operation({
    method: 'GET',
    path: '/api/Resource/Tree',
    summary: 'Every resource as a tree (menus and permission codes)',
    tag: 'Resource',
    access: RESOURCE_READERS,
    reply: z.array(resourceNode),
  }),
  ...resourceApi({
    name: 'Resource',
    area: false,
    read: RESOURCE_READERS,
    write: RESOURCE_MANAGERS,
    item: resourceItem,
    filters: { Keyword: filterSchema.text(), ParentId: filterSchema.id() },
    sorts: ['Sort', 'Code', 'Name'],
    create: z.strictObject({ Code: code, Type: z.enum(['menu', 'permission']), ...fields }),
    update: z.strictObject({ Id: id, ...fields }),
    remove: true,
  }),
});
