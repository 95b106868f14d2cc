import { SettingsApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { changeSettings } from './service.ts';

export const settingsRoutes = [
  route(SettingsApi.public, async (_input, ctx) => ({ SiteTitle: ctx.platform.settings.get('SiteTitle') })),
  route(SettingsApi.get, async (_input, ctx) => ({ ...ctx.platform.settings.all() })),
  route(SettingsApi.update, ({ body }, ctx) => changeSettings(ctx, ctx.platform.settings, body)),
];
