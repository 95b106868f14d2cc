import { DoorMonitorApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { doorMonitor } from './service.ts';

/** The live door monitor (Admin or User); the hub keeps it current. */
export const doorMonitorRoutes = [route(DoorMonitorApi.state, (_input, ctx) => doorMonitor(ctx))];
