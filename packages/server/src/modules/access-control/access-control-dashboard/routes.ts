import { AccessControlDashboardApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { accessControlSummary } from './service.ts';

export const accessControlDashboardRoutes = [
  route(AccessControlDashboardApi.summary, (_input, ctx) => accessControlSummary(ctx)),
];
