import { AccessCheckApi, AccessCheckWhoApi } from '@gatehouse/shared';
import { route } from '../../../platform/route.ts';
import { accessCheck } from './service.ts';
import { whoExport, whoPage } from './who.ts';

/**
 * The access check and its reverse question (AccessControl/Admin or User, or an API key holding either code, in
 * the area; docs/access-control.md, "Access check"): reads only, the controller's side read live.
 */
export const accessCheckRoutes = [
  route(AccessCheckApi.check, ({ query }, ctx) => accessCheck(ctx, query)),
  route(AccessCheckWhoApi.list, ({ query }, ctx) => whoPage(ctx, query), { exportable: whoExport }),
];
