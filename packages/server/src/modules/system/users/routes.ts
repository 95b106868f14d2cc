import { z } from 'zod';
import { defineRoute } from '../../../platform/route.ts';
import { idParams, pageOf, paging, queryBool, id } from '../../../platform/schemas.ts';
import { listAreaUsers, modifyPassword, setUserStatus, updateOwnInfo, userInfo } from './service.ts';
import { passwordSchema, userProfileFields } from './schemas.ts';

const tag = 'AppUser';
const ADMIN = ['AppUser/Admin'] as const;

export const userRoutes = [
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
    handler: (_input, ctx) => userInfo(ctx),
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
      await updateOwnInfo(ctx, params.Id, body);
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
      await modifyPassword(ctx, params.Id, body);
      return null;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/AppUser',
    summary: 'Users who operate the current area',
    tag,
    access: ADMIN,
    area: true,
    query: z.object({
      ...paging,
      Keyword: z.string().trim().max(64).optional(),
      Disabled: queryBool.optional(),
    }),
    response: pageOf(
      z.object({
        Id: z.number(),
        UserName: z.string(),
        Name: z.string(),
        Avatar: z.string().nullable(),
        Phone: z.string().nullable(),
        Email: z.string().nullable(),
        DepartmentId: z.number().nullable(),
        Disabled: z.boolean(),
        CreatedAt: z.string(),
      }),
    ),
    handler: ({ query }, ctx) => listAreaUsers(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AppUser/SetStatus',
    summary: 'Enable or disable a user of the current area (disabling ends their sessions)',
    tag,
    access: ADMIN,
    area: true,
    query: z.object({ Id: id, Disabled: queryBool }),
    async handler({ query }, ctx) {
      await setUserStatus(ctx, query.Id, query.Disabled);
      return null;
    },
  }),
];
