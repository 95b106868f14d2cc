import { disabledFlag, enumLabel, APP_USER_ADMIN, appUserItem } from '@gatehouse/shared';
import { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, getResource, rowMapper } from '../../../platform/resource.ts';
import { changesGrants, defineRoute } from '../../../platform/route.ts';
import { id, idParams, queryBool } from '../../../platform/schemas.ts';
import {
  bindDepartment,
  createUser,
  deleteUsers,
  enrichUsers,
  modifyPassword,
  resetPassword,
  lockedUsers,
  setUserStatus,
  unlockUser,
  updateOwnInfo,
  updateUser,
  userInfo,
} from './service.ts';
import {
  createUserBody,
  passwordSchema,
  updateUserBody,
  userProfileFields,
  type UserItem,
} from './schemas.ts';

const tag = 'AppUser';

/** List, detail and export of the current area's users come from the resource helper; writes are custom. */
const users = {
  name: 'AppUser',
  table: 'AppUser',
  tag,
  area: true,
  areaColumn: false,
  read: APP_USER_ADMIN,
  write: APP_USER_ADMIN,
  item: appUserItem,
  query: (db, ctx) =>
    db
      .selectFrom('AppUser')
      .innerJoin('UserArea', (join) =>
        join.onRef('UserArea.UserId', '=', 'AppUser.Id').on('UserArea.AreaId', '=', ctx.areaId),
      )
      .leftJoin('Department', 'Department.Id', 'AppUser.DepartmentId')
      .select([
        'AppUser.Id',
        'AppUser.UserName',
        'AppUser.Name',
        'AppUser.Avatar',
        'AppUser.Phone',
        'AppUser.Email',
        'AppUser.DepartmentId',
        'Department.Name as DepartmentName',
        'AppUser.Disabled',
        'AppUser.BuiltIn',
        'AppUser.CreatedAt',
        'AppUser.UpdatedAt',
      ]),
  toItem: (row) => ({
    ...rowMapper<UserItem>({ flags: ['Disabled', 'BuiltIn'] })(row),
    Roles: [],
    Areas: [],
  }),
  // The area's user ids in order come straight from the UserArea (AreaId, UserId) index.
  idColumn: 'UserArea.UserId',
  enrich: enrichUsers,
  filters: {
    Keyword: filter.keyword(['AppUser.UserName', 'AppUser.Name', 'AppUser.Phone']),
    Disabled: filter.flag('AppUser.Disabled'),
    DepartmentId: filter.id('AppUser.DepartmentId'),
    RoleId: {
      schema: id,
      where: (eb, roleId: number) =>
        eb(
          'AppUser.Id',
          'in',
          eb.selectFrom('UserRole').select('UserRole.UserId').where('UserRole.RoleId', '=', roleId),
        ),
    },
  },
  sorts: {
    Id: 'UserArea.UserId',
    UserName: 'AppUser.UserName',
    Name: 'AppUser.Name',
    CreatedAt: 'AppUser.CreatedAt',
  },
  export: {
    titleKey: 'admin.title.appUser',
    columns: [
      { key: 'UserName', labelKey: 'admin.field.UserName' },
      { key: 'Name', labelKey: 'admin.field.Name' },
      { key: 'Phone', labelKey: 'admin.field.Phone' },
      { key: 'Email', labelKey: 'admin.field.Email', width: 26 },
      { key: 'DepartmentName', labelKey: 'admin.field.Department', width: 20 },
      {
        key: 'Roles',
        labelKey: 'admin.field.Roles',
        width: 30,
        label: (roles: UserItem['Roles']) => roles.map((r) => r.Name).join(', '),
      },
      {
        key: 'Disabled',
        labelKey: 'admin.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
      { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
    ],
  },
} satisfies Parameters<typeof defineResource<UserItem>>[0];

export const appUserRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/AppUser/Info',
    summary: 'The signed-in user: roles, name, avatar, image base URL and operable areas',
    tag,
    access: 'authenticated',
    response: z.object({
      Id: z.number(),
      UserName: z.string(),
      Name: z.string(),
      Avatar: z.string().nullable(),
      ImageBaseUrl: z.string(),
      roles: z.array(z.string()).min(1),
      AreaInfos: z.array(z.object({ Id: z.number(), Name: z.string(), Custom: z.string().nullable() })),
    }),
    handler: (_input, ctx) => userInfo(ctx, ctx.platform.settings.get('ImageBaseUrl')),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/AppUser/UserUpdateInfo/:Id',
    summary: "Update the caller's own name, avatar and contact details",
    tag,
    access: 'authenticated',
    params: idParams,
    body: z.strictObject(userProfileFields),
    async handler({ params, body }, ctx) {
      await changesGrants(ctx, updateOwnInfo(ctx, params.Id, body));
      return null;
    },
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/AppUser/ModifyPassword/:Id',
    summary: 'Change a password: own account with the old password, or any account as admin',
    tag,
    access: 'authenticated',
    params: idParams,
    body: z.strictObject({ OldPassword: z.string().max(128).optional(), NewPassword: passwordSchema }),
    async handler({ params, body }, ctx) {
      await changesGrants(ctx, modifyPassword(ctx, params.Id, body));
      return null;
    },
  }),
  // Declared before the helper's GET /api/AppUser/:Id so the static paths stay unambiguous in the docs.
  ...defineResource(users),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser',
    summary: 'Create a system user in the current area, with roles and areas',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    body: createUserBody,
    response: appUserItem,
    handler: async ({ body }, ctx) =>
      getResource(users, ctx, await changesGrants(ctx, createUser(ctx, body))),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/AppUser',
    summary: "Update a user of the current area (name, contacts, department, roles, the caller's areas)",
    tag,
    access: APP_USER_ADMIN,
    area: true,
    body: updateUserBody,
    response: appUserItem,
    async handler({ body }, ctx) {
      await changesGrants(ctx, updateUser(ctx, body));
      return getResource(users, ctx, body.Id);
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/AppUser/:Id',
    summary: 'Delete a user of the current area',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    params: idParams,
    async handler({ params }, ctx) {
      await changesGrants(ctx, deleteUsers(ctx, [params.Id]));
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser/BatchDelete',
    summary: 'Delete several users of the current area (all or none)',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    body: z.strictObject({ Ids: z.array(id).min(1).max(500) }),
    async handler({ body }, ctx) {
      await changesGrants(ctx, deleteUsers(ctx, body.Ids));
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser/SetStatus',
    summary: 'Enable or disable a user of the current area (disabling ends their sessions)',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    query: z.object({ Id: id, Disabled: queryBool }),
    async handler({ query }, ctx) {
      await changesGrants(ctx, setUserStatus(ctx, query.Id, query.Disabled));
      return null;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/AppUser/Locks',
    summary:
      'Users of the current area locked out by the login throttle now: until when, and from which address (null: every address)',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    response: z.array(
      z.object({
        Id: z.number(),
        UserName: z.string(),
        Locks: z.array(z.object({ Address: z.string().nullable(), LockedUntil: z.string() })),
      }),
    ),
    handler: (_input, ctx) => lockedUsers(ctx, ctx.platform.throttle.nameLocks()),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser/Unlock',
    summary: 'Lift every login lock on a user of the current area (audited)',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    query: z.object({ Id: id }),
    response: z.object({ Unlocked: z.boolean() }),
    handler: ({ query }, ctx) => unlockUser(ctx, query.Id, (name) => ctx.platform.throttle.unlock(name)),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/AppUser/BindDepartment',
    summary: 'Bind a user of the current area to one of its departments (null unbinds)',
    tag,
    access: APP_USER_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, DepartmentId: id.nullable() }),
    async handler({ body }, ctx) {
      await bindDepartment(ctx, body.Id, body.DepartmentId);
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser/ResetPassword',
    summary: "Set a user's password (their sessions end)",
    tag,
    access: APP_USER_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, NewPassword: passwordSchema }),
    async handler({ body }, ctx) {
      await changesGrants(ctx, resetPassword(ctx, body.Id, body.NewPassword));
      return null;
    },
  }),
];
