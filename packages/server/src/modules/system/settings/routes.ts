import { url, zodRule, SUPER_ADMIN, settingsValues } from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { defineRoute } from '../../../platform/route.ts';

/** Bounds keep an operator from locking everyone out (a 10-second session) or keeping files forever. */
const changes = z.strictObject({
  SiteTitle: z.string().trim().max(50).optional(),
  ImageBaseUrl: z.string().trim().max(300).superRefine(zodRule(url)).optional(),
  SessionTtlSeconds: z
    .number()
    .int()
    .min(300)
    .max(30 * 86_400)
    .optional(),
  LoginMaxFailures: z.number().int().min(3).max(50).optional(),
  LoginLockMinutes: z.number().int().min(1).max(1440).optional(),
  ExportRetentionDays: z.number().int().min(1).max(365).optional(),
});

export const settingsRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/Settings/Public',
    summary: 'Settings the login page needs before anyone signs in (site title)',
    tag: 'Settings',
    access: 'public',
    response: z.object({ SiteTitle: z.string() }),
    handler: async (_input, ctx) => ({ SiteTitle: ctx.platform.settings.get('SiteTitle') }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/Settings',
    summary: 'System settings',
    tag: 'Settings',
    access: SUPER_ADMIN,
    response: settingsValues,
    handler: async (_input, ctx) => ({ ...ctx.platform.settings.all() }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/Settings',
    summary: 'Change system settings; effective at once, without a restart',
    tag: 'Settings',
    access: SUPER_ADMIN,
    body: changes,
    response: settingsValues,
    async handler({ body }, ctx) {
      const before = { ...ctx.platform.settings.all() };
      const set = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      await ctx.platform.settings.set(set);
      await audit(ctx, { action: 'update', entity: 'Settings', before, after: ctx.platform.settings.all() });
      return { ...ctx.platform.settings.all() };
    },
  }),
];
