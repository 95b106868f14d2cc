import { OptionsApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { departmentOptions, namedListOptions, roleOptions, userOptions } from './service.ts';

export const optionsRoutes = [
  route(OptionsApi.roles, (_input, ctx) => roleOptions(ctx)),
  route(OptionsApi.departments, (_input, ctx) => departmentOptions(ctx)),
  route(OptionsApi.peopleGroups, (_input, ctx) => namedListOptions(ctx, 'PeopleGroup')),
  route(OptionsApi.peopleTypes, (_input, ctx) => namedListOptions(ctx, 'PeopleType')),
  route(OptionsApi.users, ({ query }, ctx) => userOptions(ctx, query.Keyword)),
];
