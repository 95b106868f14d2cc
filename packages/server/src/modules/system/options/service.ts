import type { DepartmentOption, Option, RoleOption, UserOption } from '@gatehouse/shared';
import type { AreaContext, ServiceContext, UserContext } from '../../../platform/context.ts';
import { contains } from '../../../platform/filters.ts';
import { departmentTree, type DepartmentNode } from '../../organization/index.ts';

/**
 * Choices for forms of other screens: a user administrator picks roles and a department, a card-holder
 * form picks a department, group and type, an area administrator picks users. Each list carries only ids
 * and names.
 */

export function roleOptions(ctx: ServiceContext): Promise<RoleOption[]> {
  return ctx.db.kysely.selectFrom('Role').select(['Id', 'Code', 'Name']).orderBy('Id').execute();
}

function strip(nodes: DepartmentNode[]): DepartmentOption[] {
  return nodes.map((n) => ({ Id: n.Id, Name: n.Name, Children: strip(n.Children) }));
}

export async function departmentOptions(ctx: AreaContext): Promise<DepartmentOption[]> {
  return strip(await departmentTree(ctx.db.kysely, ctx.areaId));
}

/** The named lists of the current area (people groups, people types), in their order. */
export function namedListOptions(ctx: AreaContext, table: 'PeopleGroup' | 'PeopleType'): Promise<Option[]> {
  return ctx.db.kysely
    .selectFrom(table)
    .select(['Id', 'Name'])
    .where('AreaId', '=', ctx.areaId)
    .orderBy('Sort')
    .orderBy('Name')
    .execute();
}

/** Users to authorise for an area: those of the areas the caller operates (every user for admins). */
export async function userOptions(ctx: UserContext, keyword: string | undefined): Promise<UserOption[]> {
  let q = ctx.db.kysely
    .selectFrom('AppUser')
    .select(['AppUser.Id', 'AppUser.UserName', 'AppUser.Name'])
    .where('AppUser.Disabled', '=', 0);
  if (!ctx.user.isAdmin) {
    const areas = [...ctx.user.areaIds];
    if (areas.length === 0) return [];
    q = q.where('AppUser.Id', 'in', (eb) =>
      eb.selectFrom('UserArea').select('UserArea.UserId').where('UserArea.AreaId', 'in', areas),
    );
  }
  if (keyword)
    q = q.where((eb) =>
      eb.or([contains(eb, 'AppUser.UserName', keyword), contains(eb, 'AppUser.Name', keyword)]),
    );
  return q.orderBy('AppUser.UserName').limit(500).execute();
}
