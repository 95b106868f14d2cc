import { z } from 'zod';
import { operation } from '../operation.ts';
import {
  AREA_MANAGERS,
  DEPARTMENT_OPTION_READERS,
  PEOPLE_GROUP_OPTION_READERS,
  ROLE_OPTION_READERS,
} from '../permissions.ts';

/** An id and a name: the shape of most choices in GET /api/Options/…. */
export const option = z.object({ Id: z.number(), Name: z.string() });
export type Option = z.output<typeof option>;

/** A role to assign (GET /api/Options/Roles). */
export const roleOption = option.extend({ Code: z.string() });
export type RoleOption = z.output<typeof roleOption>;

/** A user to authorise for an area (GET /api/Options/Users). */
export const userOption = option.extend({ UserName: z.string() });
export type UserOption = z.output<typeof userOption>;

// Type aliases rather than interfaces, so that a tree row is assignable to the web's indexed rows.
export type DepartmentOption = {
  Id: number;
  Name: string;
  Children: DepartmentOption[];
};

/** The department tree as a choice (GET /api/Options/Departments): ids and names only. */
export const departmentOption: z.ZodType<DepartmentOption> = z
  .object({
    Id: z.number(),
    Name: z.string(),
    get Children() {
      return z.array(departmentOption);
    },
  })
  .meta({ id: 'DepartmentOption' });

const TAG = 'Options';

/** The named lists of the current area (people groups, people types), in their order. */
const namedList = (table: 'PeopleGroup' | 'PeopleType') =>
  operation({
    method: 'GET',
    path: `/api/Options/${table}s`,
    summary: `The current area's ${table === 'PeopleGroup' ? 'people groups' : 'people types'}`,
    tag: TAG,
    access: PEOPLE_GROUP_OPTION_READERS,
    area: true,
    reply: z.array(option),
  });

/**
 * Choices for forms of other screens: a user administrator picks roles and a department, a card-holder
 * form picks a department, group and type, an area administrator picks users. Each list is readable by
 * the codes whose screens need it, and carries only ids and names.
 */
export const OptionsApi = {
  roles: operation({
    method: 'GET',
    path: '/api/Options/Roles',
    summary: 'Roles to choose from when assigning them to a user',
    tag: TAG,
    access: ROLE_OPTION_READERS,
    reply: z.array(roleOption),
  }),
  departments: operation({
    method: 'GET',
    path: '/api/Options/Departments',
    summary: "The current area's departments as a tree of names",
    tag: TAG,
    access: DEPARTMENT_OPTION_READERS,
    area: true,
    reply: z.array(departmentOption),
  }),
  peopleGroups: namedList('PeopleGroup'),
  peopleTypes: namedList('PeopleType'),
  users: operation({
    method: 'GET',
    path: '/api/Options/Users',
    summary: 'Users to authorise for an area: those of the areas the caller operates (every user for admins)',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({ Keyword: z.string().trim().min(1).max(64).optional() }),
    reply: z.array(userOption),
  }),
};
