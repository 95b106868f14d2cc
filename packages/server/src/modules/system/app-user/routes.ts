import { AppUserApi } from '@gatehouse/shared';
import type { ServiceContext } from '../../../platform/context.ts';
import { getItem, implementResource } from '../../../platform/resource.ts';
import { changesGrants, route } from '../../../platform/route.ts';
import { usersList } from './list.ts';
import {
  bindDepartment,
  createUser,
  deleteUsers,
  lockedUsers,
  modifyPassword,
  resetPassword,
  setUserStatus,
  unlockUser,
  updateOwnInfo,
  updateUser,
  userInfo,
} from './service.ts';

// The list and detail come from the resource helper; the writes are the module's own operations.
const [listRoute, detailRoute] = implementResource(AppUserApi, usersList);
/** A user of the current area as the list shows it (what create and update answer). */
const shown = (ctx: ServiceContext, id: number) => getItem(AppUserApi, usersList, ctx, id);

export const appUserRoutes = [
  route(AppUserApi.info, (_input, ctx) => userInfo(ctx, ctx.platform.settings.get('ImageBaseUrl'))),
  route(AppUserApi.updateOwnInfo, ({ params, body }, ctx) =>
    changesGrants(ctx, updateOwnInfo(ctx, params.Id, body)).then(() => null),
  ),
  route(AppUserApi.modifyPassword, ({ params, body }, ctx) =>
    changesGrants(ctx, modifyPassword(ctx, params.Id, body)).then(() => null),
  ),
  // Declared before GET /api/AppUser/:Id so the static paths stay unambiguous in the docs.
  listRoute!,
  detailRoute!,
  route(AppUserApi.create, async ({ body }, ctx) =>
    shown(ctx, await changesGrants(ctx, createUser(ctx, body))),
  ),
  route(AppUserApi.update, async ({ body }, ctx) => {
    await changesGrants(ctx, updateUser(ctx, body));
    return shown(ctx, body.Id);
  }),
  route(AppUserApi.remove, ({ params }, ctx) =>
    changesGrants(ctx, deleteUsers(ctx, [params.Id])).then(() => null),
  ),
  route(AppUserApi.batchRemove, ({ body }, ctx) =>
    changesGrants(ctx, deleteUsers(ctx, body.Ids)).then(() => null),
  ),
  route(AppUserApi.setStatus, ({ query }, ctx) =>
    changesGrants(ctx, setUserStatus(ctx, query.Id, query.Disabled)).then(() => null),
  ),
  route(AppUserApi.locks, async (_input, ctx) => lockedUsers(ctx, await ctx.platform.throttle.nameLocks())),
  route(AppUserApi.unlock, ({ query }, ctx) =>
    unlockUser(ctx, query.Id, (name) => ctx.platform.throttle.unlock(name)),
  ),
  route(AppUserApi.bindDepartment, ({ body }, ctx) =>
    bindDepartment(ctx, body.Id, body.DepartmentId).then(() => null),
  ),
  route(AppUserApi.resetPassword, ({ body }, ctx) =>
    changesGrants(ctx, resetPassword(ctx, body.Id, body.NewPassword)).then(() => null),
  ),
];
