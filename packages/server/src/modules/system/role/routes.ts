import { ROLE_ADMIN, SUPER_ADMIN, roleItem } from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { assertNoDependents, registerDependent, rowsWhere } from '../../../platform/dependents.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { ADMIN_CODE, hasAnyCode } from '../../../platform/principal.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { UserContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type Item = z.infer<typeof roleItem>;

const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9/_-]{1,49}$/, { message: 'validation.roleCode' })
  .refine((v) => v !== ADMIN_CODE, { message: 'validation.roleCode' });
const fields = {
  Name: z.string().trim().min(1).max(50),
  Description: z.string().trim().max(200).nullable().optional(),
};

/** A role held by users stays (called by the system face). */
export function registerRoleDependents(): void {
  registerDependent('Role', { labelKey: 'admin.entity.AppUser', count: rowsWhere('UserRole', 'RoleId') });
}

function assertNotBuiltIn(row: { BuiltIn: number }) {
  if (row.BuiltIn) throw new AppError(409, 'error.builtInRole');
}

/** Checks a set of resource ids: all exist, and SuperAdmin only from those who hold it. */
async function checkResources(ctx: UserContext, trx: Kysely<Database>, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await trx.selectFrom('Resource').select(['Id', 'Code']).where('Id', 'in', unique).execute();
  if (found.length !== unique.length) throw fieldError('ResourceIds', 'error.notFound');
  // Only SuperAdmin holders may put the SuperAdmin code into a role: nobody grants more than they hold.
  if (found.some((r) => r.Code === 'SuperAdmin') && !hasAnyCode(ctx.user, SUPER_ADMIN))
    throw new AppError(403, 'error.grantBeyondOwn');
  return unique.sort((a, b) => a - b);
}

/** Replaces a role's resources; the caller invalidates cached principals after it commits. */
export async function setRoleResources(
  ctx: UserContext,
  roleId: number,
  resourceIds: number[],
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const role = await trx
      .selectFrom('Role')
      .select(['Id', 'BuiltIn'])
      .where('Id', '=', roleId)
      .executeTakeFirst();
    if (!role) throw notFound();
    assertNotBuiltIn(role);
    const ids = await checkResources(ctx, trx, resourceIds);
    const before = await trx
      .selectFrom('RoleResource')
      .select('ResourceId')
      .where('RoleId', '=', roleId)
      .orderBy('ResourceId')
      .execute();
    await trx.deleteFrom('RoleResource').where('RoleId', '=', roleId).execute();
    if (ids.length)
      await trx
        .insertInto('RoleResource')
        .values(ids.map((ResourceId) => ({ RoleId: roleId, ResourceId })))
        .execute();
    await audit(
      ctx,
      {
        action: 'setResources',
        entity: 'Role',
        entityId: roleId,
        before: { ResourceIds: before.map((r) => r.ResourceId) },
        after: { ResourceIds: ids },
      },
      trx,
    );
  });
}

export const roleRoutes = [
  ...defineResource({
    name: 'Role',
    table: 'Role',
    area: false,
    read: ROLE_ADMIN,
    write: ROLE_ADMIN,
    item: roleItem,
    query: (db) =>
      db.selectFrom('Role').select((eb) => [
        'Role.Id',
        'Role.Code',
        'Role.Name',
        'Role.Description',
        'Role.BuiltIn',
        'Role.CreatedAt',
        'Role.UpdatedAt',
        eb
          .selectFrom('UserRole')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('UserRole.RoleId', '=', 'Role.Id')
          .as('UserCount'),
      ]),
    toItem: (row) => ({
      ...rowMapper<Item>({ flags: ['BuiltIn'] })(row),
      UserCount: Number(row.UserCount ?? 0),
      ResourceIds: [],
    }),
    async enrich(ctx, items) {
      const links = await ctx.db.kysely
        .selectFrom('RoleResource')
        .select(['RoleId', 'ResourceId'])
        .where(
          'RoleId',
          'in',
          items.map((i) => i.Id),
        )
        .orderBy('ResourceId')
        .execute();
      return items.map((i) => ({
        ...i,
        ResourceIds: links.filter((l) => l.RoleId === i.Id).map((l) => l.ResourceId),
      }));
    },
    filters: { Keyword: filter.keyword(['Role.Code', 'Role.Name']) },
    sorts: { Id: 'Role.Id', Code: 'Role.Code', Name: 'Role.Name', CreatedAt: 'Role.CreatedAt' },
    timestamps: true,
    unique: [{ fields: ['Code'], key: 'error.roleCodeTaken' }],
    create: {
      body: z.strictObject({ Code: code, ...fields, ResourceIds: z.array(id).max(500).optional() }),
      values: (input) => ({
        Code: input.Code,
        Name: input.Name,
        Description: input.Description ?? null,
        BuiltIn: 0,
      }),
      async after(input, ctx: UserContext, trx, roleId) {
        const ids = await checkResources(ctx, trx, input.ResourceIds ?? []);
        if (ids.length)
          await trx
            .insertInto('RoleResource')
            .values(ids.map((ResourceId) => ({ RoleId: roleId, ResourceId })))
            .execute();
      },
    },
    update: {
      body: z.strictObject({ Id: id, ...fields }),
      values(input, _ctx, _trx, existing) {
        assertNotBuiltIn(existing as { BuiltIn: number });
        return {
          Name: input.Name,
          ...(input.Description !== undefined ? { Description: input.Description } : {}),
        };
      },
    },
    remove: {
      async check(ctx, row, trx) {
        assertNotBuiltIn(row as { BuiltIn: number });
        await assertNoDependents('Role', trx, row.Id as number, ctx.lang);
      },
    },
    afterWrite: (ctx) => ctx.platform.sessions.invalidate(),
    export: {
      titleKey: 'admin.title.role',
      columns: [
        { key: 'Code', labelKey: 'admin.field.Code', width: 24 },
        { key: 'Name', labelKey: 'admin.field.Name', width: 20 },
        { key: 'Description', labelKey: 'admin.field.Description', width: 36 },
        { key: 'UserCount', labelKey: 'admin.field.UserCount', kind: 'number' },
        { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
      ],
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/Role/SetResources',
    summary: "Replace a role's resources (permission codes and menus)",
    tag: 'Role',
    access: ROLE_ADMIN,
    body: z.strictObject({ Id: id, ResourceIds: z.array(id).max(500) }),
    async handler({ body }, ctx) {
      await setRoleResources(ctx, body.Id, body.ResourceIds);
      ctx.platform.sessions.invalidate();
      return null;
    },
  }),
];
