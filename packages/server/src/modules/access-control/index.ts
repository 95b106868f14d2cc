import type { AnyRoute } from '../../platform/route.ts';
import './dependents.ts';
import { authorizationRoutes } from './authorizations/routes.ts';
import { areaCardRoutes } from './cards/area-cards.ts';
import { cardRegistrationRoutes } from './cards/registration.ts';
import { channelRoutes } from './channels/routes.ts';
import { deviceManagementRoutes } from './devices/management.ts';
import { deviceRegistrationRoutes } from './devices/registration.ts';
import { holderRoutes } from './holders/routes.ts';
import { optionRoutes } from './options.ts';
import { doorRecordRoutes } from './records/door-records.ts';
import { faultRoutes } from './records/faults.ts';
import { changeRecordRoutes, renewalRecordRoutes } from './records/holder-records.ts';

/** Every route of the access-control module (the ten screens under /accesscontrol). */
export const accessControlRoutes: AnyRoute[] = [
  ...deviceRegistrationRoutes,
  ...cardRegistrationRoutes,
  ...deviceManagementRoutes,
  ...channelRoutes,
  ...areaCardRoutes,
  ...holderRoutes,
  ...authorizationRoutes,
  ...doorRecordRoutes,
  ...changeRecordRoutes,
  ...renewalRecordRoutes,
  ...faultRoutes,
  ...optionRoutes,
];
