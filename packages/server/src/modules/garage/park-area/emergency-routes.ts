import { ParkAreaEmergencyApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { emergencyStopsInForce } from './emergency-state.ts';
import { emergencyRelease, emergencyStop } from './emergency-stop.ts';

/** A zone's emergency stop and its release (docs/garage.md "Emergency stop"), and the stops in force. */
export const emergencyStopRoutes = [
  route(ParkAreaEmergencyApi.stop, ({ body }, ctx) => emergencyStop(ctx, body.Id, body.Reason)),
  route(ParkAreaEmergencyApi.release, ({ body }, ctx) => emergencyRelease(ctx, body.Id, body.Note)),
  route(ParkAreaEmergencyApi.active, (_input, ctx) => emergencyStopsInForce(ctx)),
];
