import {
  AREA_MANAGERS,
  DEPARTMENT_OPTION_READERS,
  PEOPLE_GROUP_OPTION_READERS,
  ROLE_OPTION_READERS,
  departmentOption,
  option,
  roleOption,
  userOption,
  type DepartmentOption,
} from '@gatehouse/shared';
import { z } from 'zod';
import { contains } from '../../../platform/filters.ts';
import { defineRoute } from '../../../platform/route.ts';
import { departmentTree, type DepartmentNode } from '../../organization/index.ts';

/**
 * Choices for forms of other screens: a user administrator picks roles and a department, a card-holder
 * form picks a department, group and type, an area administrator picks users. Each list is readable by
 * the codes whose screens need it, and carries only ids and names.
 */
function strip(nodes: DepartmentNode[]): DepartmentOption[] {
  return nodes.map((n) => ({ Id: n.Id, Name: n.Name, Children: strip(n.Children) }));
}

/** The named lists of the current area (people groups, people types), in their order. */
function namedListOptions(table: 'PeopleGroup' | 'PeopleType') {
  return defineRoute({
    method: 'GET',
    url: `/api/Options/${table}s`,
    summary: `The current area's ${table === 'PeopleGroup' ? 'people groups' : 'people types'}`,
    tag: 'Options',
    access: PEOPLE_GROUP_OPTION_READERS,
    area: true,
    response: z.array(option),
    handler: (_input, ctx) =>
      ctx.db.kysely
        .selectFrom(table)
        .select(['Id', 'Name'])
        .where('AreaId', '=', ctx.areaId)
        .orderBy('Sort')
        .orderBy('Name')
        .execute(),
  });
}

export const optionsRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/Options/Roles',
    summary: 'Roles to choose from when assigning them to a user',
    tag: 'Options',
    access: ROLE_OPTION_READERS,
    response: z.array(roleOption),
    handler: (_input, ctx) =>
      ctx.db.kysely.selectFrom('Role').select(['Id', 'Code', 'Name']).orderBy('Id').execute(),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/Options/Departments',
    summary: "The current area's departments as a tree of names",
    tag: 'Options',
    access: DEPARTMENT_OPTION_READERS,
    area: true,
    response: z.array(departmentOption),
    handler: async (_input, ctx) => strip(await departmentTree(ctx.db.kysely, ctx.areaId)),
  }),
  ...(['PeopleGroup', 'PeopleType'] as const).map((table) => namedListOptions(table)),
  defineRoute({
    method: 'GET',
    url: '/api/Options/Users',
    summary: 'Users to authorise for an area: those of the areas the caller operates (every user for admins)',
    tag: 'Options',
    access: AREA_MANAGERS,
    query: z.object({ Keyword: z.string().trim().min(1).max(64).optional() }),
    response: z.array(userOption),
    handler: ({ query }, ctx) => {
      let q = ctx.db.kysely
        .selectFrom('AppUser')
        .select(['AppUser.Id', 'AppUser.UserName', 'AppUser.Name'])
        .where('AppUser.Disabled', '=', 0);
      if (!ctx.user.isAdmin) {
        const areas = [...ctx.user.areaIds];
        if (areas.length === 0) return Promise.resolve([]);
        q = q.where('AppUser.Id', 'in', (eb) =>
          eb.selectFrom('UserArea').select('UserArea.UserId').where('UserArea.AreaId', 'in', areas),
        );
      }
      if (query.Keyword) {
        const keyword = query.Keyword;
        q = q.where((eb) =>
          eb.or([contains(eb, 'AppUser.UserName', keyword), contains(eb, 'AppUser.Name', keyword)]),
        );
      }
      return q.orderBy('AppUser.UserName').limit(500).execute();
    },
  }),
];
