import { z } from 'zod';
import { email, phone, url, zodRule } from '../../validators/index.ts';
import { operation, peopleOnly, resourceApi } from '../operation.ts';
import { APP_USER_ADMIN } from '../permissions.ts';
import { filterSchema, id, idList, idParams, idText, optionalText, queryBool } from '../wire.ts';
import { areaInfoDetail } from './area-info.ts';

/** A AppUser row, as GET /api/AppUser lists it and GET /api/AppUser/{Id} returns it. */
export const appUserItem = z.object({
  Id: z.number(),
  UserName: z.string(),
  Name: z.string(),
  Avatar: z.string().nullable(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  Disabled: z.boolean(),
  BuiltIn: z.boolean(),
  Roles: z.array(z.object({ Id: z.number(), Code: z.string(), Name: z.string() })),
  Areas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AppUserItem = z.output<typeof appUserItem>;

/** The signed-in user as the web app needs it (spec: userinfo); roles is never empty. */
export const userInfo = z.object({
  Id: z.number(),
  UserName: z.string(),
  Name: z.string(),
  Avatar: z.string().nullable(),
  ImageBaseUrl: z.string(),
  roles: z.array(z.string()).min(1),
  AreaInfos: z.array(areaInfoDetail),
});
export type UserInfo = z.output<typeof userInfo>;

/** A user locked out by the login throttle: until when, and from which address (null: every address). */
export const lockedUser = z.object({
  Id: z.number(),
  UserName: z.string(),
  Locks: z.array(z.object({ Address: z.string().nullable(), LockedUntil: z.string() })),
});
export type LockedUser = z.output<typeof lockedUser>;

/**
 * An avatar the web shows as an image source: an http(s) address or a path relative to the app. Other
 * schemes (javascript:, data:, file:) and protocol-relative //host addresses are refused.
 */
const avatar = optionalText(500).refine(
  (v) => !v || url(v) === null || /^(?![a-z][a-z0-9+.-]*:)(?![\\/]{2})[^\s\\]+$/i.test(v),
  { message: 'validation.url' },
);

export const passwordSchema = z.string().min(8).max(64);

/** What a user may change of their own profile. */
export const userProfileFields = {
  Name: z.string().trim().min(1).max(50).optional(),
  Avatar: avatar,
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
};

const userName = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, { message: 'validation.userName' });

/** What an administrator sets on a system user (besides password and status, which have their own calls). */
const accountFields = {
  Name: z.string().trim().min(1).max(50),
  Avatar: avatar,
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
  DepartmentId: id.nullable().optional(),
  RoleIds: z.array(id).max(50).default([]),
  /** Areas the user operates, among the caller's own; the current area is always included. */
  AreaIds: z.array(id).max(200).default([]),
};

export const createUserBody = z.strictObject({
  UserName: userName,
  Password: passwordSchema,
  ...accountFields,
});
export const updateUserBody = z.strictObject({ Id: id, ...accountFields });
export type CreateUserInput = z.output<typeof createUserBody>;
export type UpdateUserInput = z.output<typeof updateUserBody>;

const TAG = 'AppUser';
const admin = { tag: TAG, access: APP_USER_ADMIN, area: true } as const;

/** The area's users: list, detail and export from the resource shape; every write is its own operation. */
const users = resourceApi({
  name: 'AppUser',
  area: true,
  read: APP_USER_ADMIN,
  write: APP_USER_ADMIN,
  item: appUserItem,
  filters: {
    Keyword: filterSchema.text(),
    Disabled: filterSchema.flag(),
    DepartmentId: filterSchema.id(),
    RoleId: filterSchema.id(),
  },
  sorts: ['Id', 'UserName', 'Name', 'CreatedAt'],
});

export const AppUserApi = peopleOnly({
  info: operation({
    method: 'GET',
    path: '/api/AppUser/Info',
    summary: 'The signed-in user: roles, name, avatar, image base URL and operable areas',
    tag: TAG,
    access: 'authenticated',
    reply: userInfo,
  }),
  updateOwnInfo: operation({
    method: 'PATCH',
    path: '/api/AppUser/UserUpdateInfo/:Id',
    summary: "Update the caller's own name, avatar and contact details",
    tag: TAG,
    access: 'authenticated',
    params: idParams,
    body: z.strictObject(userProfileFields),
  }),
  modifyPassword: operation({
    method: 'PATCH',
    path: '/api/AppUser/ModifyPassword/:Id',
    summary: 'Change a password: own account with the old password, or any account as admin',
    tag: TAG,
    access: 'authenticated',
    params: idParams,
    body: z.strictObject({ OldPassword: z.string().max(128).optional(), NewPassword: passwordSchema }),
  }),
  ...users,
  create: operation({
    ...admin,
    method: 'POST',
    path: '/api/AppUser',
    summary: 'Create a system user in the current area, with roles and areas',
    body: createUserBody,
    reply: appUserItem,
  }),
  update: operation({
    ...admin,
    method: 'PUT',
    path: '/api/AppUser',
    summary: "Update a user of the current area (name, contacts, department, roles, the caller's areas)",
    body: updateUserBody,
    reply: appUserItem,
  }),
  remove: operation({
    ...admin,
    method: 'DELETE',
    path: '/api/AppUser/:Id',
    summary: 'Delete a user of the current area',
    params: idParams,
  }),
  batchRemove: operation({
    ...admin,
    method: 'POST',
    path: '/api/AppUser/BatchDelete',
    summary: 'Delete several users of the current area (all or none)',
    body: z.strictObject({ Ids: idList() }),
  }),
  setStatus: operation({
    ...admin,
    method: 'POST',
    path: '/api/AppUser/SetStatus',
    summary: 'Enable or disable a user of the current area (disabling ends their sessions)',
    query: z.object({ Id: idText, Disabled: queryBool }),
  }),
  locks: operation({
    ...admin,
    method: 'GET',
    path: '/api/AppUser/Locks',
    summary:
      'Users of the current area locked out by the login throttle now: until when, and from which address (null: every address)',
    reply: z.array(lockedUser),
  }),
  unlock: operation({
    ...admin,
    method: 'POST',
    path: '/api/AppUser/Unlock',
    summary: 'Lift every login lock on a user of the current area (audited)',
    query: z.object({ Id: idText }),
    reply: z.object({ Unlocked: z.boolean() }),
  }),
  bindDepartment: operation({
    ...admin,
    method: 'PUT',
    path: '/api/AppUser/BindDepartment',
    summary: 'Bind a user of the current area to one of its departments (null unbinds)',
    body: z.strictObject({ Id: id, DepartmentId: id.nullable() }),
  }),
  resetPassword: operation({
    ...admin,
    method: 'POST',
    path: '/api/AppUser/ResetPassword',
    summary: "Set a user's password (their sessions end)",
    body: z.strictObject({ Id: id, NewPassword: passwordSchema }),
  }),
});
