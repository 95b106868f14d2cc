import { z } from 'zod';
import { operation, peopleOnly, resourceApi } from '../operation.ts';
import { ADMIN_CODE, ROLE_ADMIN } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';

/** A Role row, as GET /api/Role lists it and GET /api/Role/{Id} returns it. */
export const roleItem = z.object({
  Id: z.number(),
  Code: z.string(),
  Name: z.string(),
  Description: z.string().nullable(),
  BuiltIn: z.boolean(),
  UserCount: z.number(),
  ResourceIds: z.array(z.number()),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type RoleItem = z.output<typeof roleItem>;

const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9/_-]{1,49}$/, { message: 'validation.roleCode' })
  .refine((v) => v !== ADMIN_CODE, { message: 'validation.roleCode' });
const fields = {
  Name: z.string().trim().min(1).max(50),
  Description: z.string().trim().max(200).nullable().optional(),
};

export const RoleApi = peopleOnly({
  ...resourceApi({
    name: 'Role',
    area: false,
    read: ROLE_ADMIN,
    write: ROLE_ADMIN,
    item: roleItem,
    filters: { Keyword: filterSchema.text() },
    sorts: ['Id', 'Code', 'Name', 'CreatedAt'],
    create: z.strictObject({ Code: code, ...fields, ResourceIds: z.array(id).max(500).optional() }),
    update: z.strictObject({ Id: id, ...fields }),
    remove: true,
  }),
  setResources: operation({
    method: 'PUT',
    path: '/api/Role/SetResources',
    summary: "Replace a role's resources (permission codes and menus)",
    tag: 'Role',
    access: ROLE_ADMIN,
    body: z.strictObject({ Id: id, ResourceIds: z.array(id).max(500) }),
  }),
});
