import type { ServerModule } from '../../platform/module.ts';
import { apiKeyRoutes } from './api-key/routes.ts';
import { webhookRoutes } from './webhook/routes.ts';
import { appUserRoutes } from './app-user/routes.ts';
import { areaInfoRoutes } from './area-info/routes.ts';
import { auditLogRoutes } from './audit-log/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { exportJobRoutes } from './export-job/routes.ts';
import { operatorStaffRoutes } from './operator-staff/routes.ts';
import { optionsRoutes } from './options/routes.ts';
import { resourceRoutes } from './resource/routes.ts';
import { roleRoutes } from './role/routes.ts';
import { registerSystemDependents } from './dependents.ts';
import { settingsRoutes } from './settings/routes.ts';

/**
 * The system module's face: sign-in, users, areas, roles, API keys, resources, operator staff, settings, the
 * audit log, exports and the shared choice lists. Its tables are the platform's (db/migrations).
 */
export const systemModule: ServerModule = {
  name: 'system',
  routes: [
    ...authRoutes,
    ...appUserRoutes,
    ...areaInfoRoutes,
    ...roleRoutes,
    ...apiKeyRoutes,
    ...webhookRoutes,
    ...resourceRoutes,
    ...operatorStaffRoutes,
    ...settingsRoutes,
    ...auditLogRoutes,
    ...exportJobRoutes,
    ...optionsRoutes,
  ],
  register: registerSystemDependents,
};

// What other layers use: the settings store (app.ts builds it).
export { SettingsService, type SettingValues } from './settings/service.ts';
export { resetAdminPassword } from './app-user/reset-admin.ts';
export { seedSystem } from './seed.ts';
