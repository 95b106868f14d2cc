import type { GarageDaily, GarageFigures, GarageSummary } from '@gatehouse/shared';

/** `GET /api/GarageDashboard` and `GET /api/GarageDashboard/Daily`. */
export type DayFigures = GarageFigures;
export type { GarageDaily, GarageSummary };

/** Days the charts cover. */
export const CHART_DAYS = 30;
