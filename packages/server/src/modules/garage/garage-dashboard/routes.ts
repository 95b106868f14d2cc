import { GarageDashboardApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { dashboardDaily, dashboardSummary } from './service.ts';

/** The garage's figures on the dashboard: today's and per day for the charts. */
export const garageDashboardRoutes = [
  route(GarageDashboardApi.summary, (_input, ctx) => dashboardSummary(ctx)),
  route(GarageDashboardApi.daily, ({ query }, ctx) => dashboardDaily(ctx, query.Days)),
];
