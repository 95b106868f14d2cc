import { z } from 'zod';

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
