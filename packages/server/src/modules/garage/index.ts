import type { AnyRoute } from '../../platform/route.ts';
import { chargeOrderRoutes } from './charge-orders.ts';
import { chargeRecordRoutes } from './charge-records.ts';
import { dashboardRoutes } from './dashboard.ts';
import './dependents.ts';
import { forcedOutageRoutes } from './forced-outage.ts';
import { hostRoutes } from './hosts.ts';
import { parkOrderRoutes } from './park-orders.ts';
import { passRoutes } from './passes.ts';
import { ruleRoutes } from './rules.ts';
import { socketRoutes } from './sockets.ts';
import { vehicleRoutes } from './vehicles.ts';
import { zoneRoutes } from './zones.ts';

/** Every route of the garage module (docs/garage.md lists them with their permission codes). */
export const garageRoutes: AnyRoute[] = [
  ...zoneRoutes,
  ...ruleRoutes,
  ...hostRoutes,
  ...socketRoutes,
  ...chargeRecordRoutes,
  ...chargeOrderRoutes,
  ...parkOrderRoutes,
  ...forcedOutageRoutes,
  ...vehicleRoutes,
  ...passRoutes,
  ...dashboardRoutes,
];
