import { SUPER_ADMIN, type RoleApi, type RoleItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import { insertLinks, linkedIds, replaceLinksAudited } from '../../../platform/links.ts';
import type { ServiceContext, UserContext } from '../../../platform/context.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { hasAnyCode } from '../../../platform/principal.ts';
import { rowMapper } from '../../../platform/resource.ts';

type Trx = Kysely<Database>;
type Row = Record<string, unknown>;

/** A role with the number of users holding it; its resource ids come from `withResourceIds`. */
export const roleQuery = (db: Trx) =>
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
  ]);

const mapRole = rowMapper<RoleItem>({ flags: ['BuiltIn'] });
export const roleRow = (row: Row): RoleItem => ({
  ...mapRole(row),
  UserCount: Number(row.UserCount ?? 0),
  ResourceIds: [],
});

/** A page of roles with each one's resource ids, in one query. */
export async function withResourceIds(ctx: ServiceContext, items: RoleItem[]): Promise<RoleItem[]> {
  const resourcesOf = await linkedIds(
    ctx.db.kysely,
    { table: 'RoleResource', owner: 'RoleId', linked: 'ResourceId' },
    items.map((i) => i.Id),
  );
  return items.map((i) => ({ ...i, ResourceIds: resourcesOf.get(i.Id) ?? [] }));
}

function assertNotBuiltIn(row: Row) {
  if (row.BuiltIn) throw new AppError(409, 'error.builtInRole');
}

/** Checks a set of resource ids: all exist, and SuperAdmin only from those who hold it. */
async function checkResources(ctx: UserContext, trx: Trx, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await trx.selectFrom('Resource').select(['Id', 'Code']).where('Id', 'in', unique).execute();
  if (found.length !== unique.length) throw fieldError('ResourceIds', 'error.notFound');
  // Only SuperAdmin holders may put the SuperAdmin code into a role: nobody grants more than they hold.
  if (found.some((r) => r.Code === 'SuperAdmin') && !hasAnyCode(ctx.user, SUPER_ADMIN))
    throw new AppError(403, 'error.grantBeyondOwn');
  return unique.sort((a, b) => a - b);
}

/** A role's rows in RoleResource. */
const resourcesOf = (roleId: number) =>
  ({ table: 'RoleResource', owner: 'RoleId', ownerId: roleId, linked: 'ResourceId' }) as const;

type CreateBody = z.output<typeof RoleApi.create.body>;
type UpdateBody = z.output<typeof RoleApi.update.body>;

export const newRole = (input: CreateBody) => ({
  Code: input.Code,
  Name: input.Name,
  Description: input.Description ?? null,
  BuiltIn: 0,
});

/** After the role's row: its resources, checked as SetResources checks them. */
export async function newRoleResources(input: CreateBody, ctx: UserContext, trx: Trx, roleId: number) {
  await insertLinks(trx, resourcesOf(roleId), await checkResources(ctx, trx, input.ResourceIds ?? []));
}

export function changedRole(input: UpdateBody, _ctx: unknown, _trx: unknown, existing: Row) {
  assertNotBuiltIn(existing);
  return {
    Name: input.Name,
    ...(input.Description !== undefined ? { Description: input.Description } : {}),
  };
}

export async function checkRoleDelete(ctx: ServiceContext, row: Row, trx: Trx) {
  assertNotBuiltIn(row);
  await assertNoDependents('Role', trx, row.Id as number, ctx.lang);
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
    await replaceLinksAudited(ctx, trx, 'setResources', 'Role', resourcesOf(roleId), ids);
  });
}
