import { z } from 'zod';
import { defineRoute, WithToken } from '../../../platform/route.ts';
import { login, logout, permittedResources } from './service.ts';

const tag = 'Auth';

export const authRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/Auth/login',
    summary: 'Log in with username and password; returns a bearer token',
    tag,
    access: 'public',
    // A user name and a password: a few hundred bytes; anything near this limit is not a login.
    bodyLimit: 4 * 1024,
    body: z.strictObject({
      username: z.string().trim().min(1).max(64),
      password: z.string().min(1).max(128),
    }),
    response: z.object({ token: z.string() }),
    async handler({ body }, ctx) {
      const result = await login(ctx.platform, body, { ip: ctx.meta.ip, userAgent: ctx.meta.userAgent });
      return new WithToken(result, result.token);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/Auth/logout',
    summary: 'Revoke the calling session',
    tag,
    access: 'authenticated',
    async handler(_input, ctx) {
      await logout(ctx);
      return null;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/Auth/Resource',
    summary: "The caller's permitted resources (permission codes and menus)",
    tag,
    access: 'authenticated',
    response: z.array(
      z.object({
        Id: z.number(),
        Code: z.string(),
        Name: z.string(),
        ParentId: z.number().nullable(),
        Type: z.enum(['menu', 'permission']),
        Sort: z.number(),
      }),
    ),
    handler: (_input, ctx) => permittedResources(ctx.platform, ctx.user),
  }),
];
