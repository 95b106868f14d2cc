import { AccessControlOptionsApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { cardUserOptions, channelOptions, deviceOptions } from './service.ts';

const api = AccessControlOptionsApi;

/** Choices of the access-control screens: the area's controllers, channels and card holders. */
export const accessControlOptionsRoutes = [
  route(api.devices, (_input, ctx) => deviceOptions(ctx)),
  route(api.channels, (_input, ctx) => channelOptions(ctx)),
  route(api.cardUsers, ({ query }, ctx) => cardUserOptions(ctx, query.Keyword)),
];
