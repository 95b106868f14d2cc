import { AuthApi } from '@gatehouse/shared';
import { route, WithToken } from '../../../platform/route.ts';
import { login, logout, permittedResources } from './service.ts';

export const authRoutes = [
  route(AuthApi.login, async ({ body }, ctx) => {
    const result = await login(ctx.platform, body, { ip: ctx.meta.ip, userAgent: ctx.meta.userAgent });
    return new WithToken(result, result.token);
  }),
  route(AuthApi.logout, async (_input, ctx) => {
    await logout(ctx);
    return null;
  }),
  route(AuthApi.resources, (_input, ctx) => permittedResources(ctx.platform, ctx.user)),
];
