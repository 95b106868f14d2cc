import { ACCESS_CONTROL_ANY, accessControlSummary as summarySchema } from '@gatehouse/shared';
import { defineRoute } from '../../../platform/route.ts';
import { TAG } from '../common.ts';
import { accessControlSummary } from './service.ts';

export const accessControlDashboardRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/AccessControlDashboard',
    summary:
      "Access control at a glance for the current area: controllers online, today's swipes, authorisations waiting for sync, doors in alarm",
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    response: summarySchema,
    handler: (_input, ctx) => accessControlSummary(ctx),
  }),
];
