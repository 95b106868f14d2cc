import { AreaInfoApi } from '@gatehouse/shared';
import { changesGrants, route } from '../../../platform/route.ts';
import {
  areaDetail,
  areaUsers,
  createArea,
  deleteArea,
  hubUrl,
  listAreas,
  setAreaCustom,
  setAreaDisabled,
  setAreaUsers,
  updateArea,
} from './service.ts';

export const areaInfoRoutes = [
  route(AreaInfoApi.list, ({ query }, ctx) => listAreas(ctx, query)),
  route(AreaInfoApi.hubUrl, async ({ query }, ctx) => hubUrl(ctx, query.Id)),
  route(AreaInfoApi.users, ({ query }, ctx) => areaUsers(ctx, query.Id)),
  route(AreaInfoApi.get, ({ params }, ctx) => areaDetail(ctx, params.Id)),
  route(AreaInfoApi.create, ({ body }, ctx) => changesGrants(ctx, createArea(ctx, body))),
  route(AreaInfoApi.remove, ({ query }, ctx) =>
    changesGrants(ctx, deleteArea(ctx, query.Id)).then(() => null),
  ),
  route(AreaInfoApi.setDisabled, ({ query }, ctx) =>
    changesGrants(ctx, setAreaDisabled(ctx, query.Id, query.Disabled)).then(() => null),
  ),
  route(AreaInfoApi.update, ({ body }, ctx) => changesGrants(ctx, updateArea(ctx, body))),
  route(AreaInfoApi.setAuth, ({ query }, ctx) =>
    changesGrants(
      ctx,
      setAreaUsers(ctx, query.Id, query.UserIds ? query.UserIds.split(',').map(Number) : []),
    ).then(() => null),
  ),
  route(AreaInfoApi.setCustom, ({ query }, ctx) =>
    changesGrants(ctx, setAreaCustom(ctx, query.Id, query.Custom)).then(() => null),
  ),
];
