import { z } from 'zod';
import { operation, resourceApi } from '../operation.ts';
import { DEPARTMENT_READ, DEPARTMENT_WRITE } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';

const TAG = 'Organization';

/** A department as its list and detail return it. */
export const departmentItem = z.object({
  Id: z.number(),
  ParentId: z.number().nullable(),
  ParentName: z.string().nullable(),
  Name: z.string(),
  Sort: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type DepartmentItem = z.output<typeof departmentItem>;

// A type alias rather than an interface, so that a tree row is assignable to the web's indexed rows.
export type DepartmentNode = {
  Id: number;
  ParentId: number | null;
  Name: string;
  Sort: number;
  /** Members of this department itself. */
  MemberCount: number;
  /** Members of this department and everything under it. */
  TotalMemberCount: number;
  Children: DepartmentNode[];
};

/**
 * One node of GET /api/Department/Tree. Recursive schemas carry an OpenAPI component name (`meta.id`):
 * the document defines them once under components.schemas and refers to them by that name.
 */
export const departmentNode: z.ZodType<DepartmentNode> = z
  .object({
    Id: z.number(),
    ParentId: z.number().nullable(),
    Name: z.string(),
    Sort: z.number(),
    MemberCount: z.number(),
    TotalMemberCount: z.number(),
    get Children() {
      return z.array(departmentNode);
    },
  })
  .meta({ id: 'DepartmentNode' });

const fields = {
  Name: z.string().trim().min(1).max(50),
  ParentId: id.nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

/** Departments of an area: a tree (with member counts) and the list, form and export over it. */
export const DepartmentApi = {
  tree: operation({
    method: 'GET',
    path: '/api/Department/Tree',
    summary: "The area's departments as a tree with member counts",
    tag: TAG,
    access: DEPARTMENT_READ,
    area: true,
    reply: z.array(departmentNode),
  }),
  ...resourceApi({
    name: 'Department',
    tag: TAG,
    area: true,
    read: DEPARTMENT_READ,
    write: DEPARTMENT_WRITE,
    item: departmentItem,
    filters: { Name: filterSchema.text(), ParentId: filterSchema.id() },
    sorts: ['Sort', 'Name', 'CreatedAt'],
    create: z.strictObject(fields),
    update: z.strictObject({ Id: id, ...fields }),
    remove: true,
  }),
};
