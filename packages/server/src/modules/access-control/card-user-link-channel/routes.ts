import { CardUserLinkChannelApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { standardOperations } from '../common.ts';
import {
  authorizationExportColumns,
  authorizationQuery,
  authorizationSorts,
  authorizationWhere,
  enrichAuthorizations,
  toAuthorizationItem,
} from './items.ts';
import {
  batchGrant,
  changeValidity,
  deviceStatusCounts,
  grantToHolder,
  revoke,
  termsOf,
  validityOf,
} from './service.ts';

const api = CardUserLinkChannelApi;

/**
 * Authorisations (Admin or User): the list and its export from the resource helper; grants, validity changes
 * and revokes are services that move the issue status (docs/access-control.md, "Issue status").
 */
export const cardUserLinkChannelRoutes = [
  route(api.deviceStatusCounts, (_input, ctx) => deviceStatusCounts(ctx)),
  ...implementResource(standardOperations(api), {
    table: 'CardUserLinkChannel',
    query: authorizationQuery,
    toItem: toAuthorizationItem,
    enrich: enrichAuthorizations,
    where: authorizationWhere,
    sorts: authorizationSorts,
    defaultOrder: 'desc',
    export: { titleKey: 'accessControl.title.cardUserLinkChannel', columns: authorizationExportColumns },
  }),
  route(api.grant, ({ body }, ctx) => grantToHolder(ctx, body.CardUserId, body.ChannelIds, termsOf(body))),
  route(api.batchGrant, ({ body }, ctx) => batchGrant(ctx, body)),
  route(api.update, ({ body }, ctx) => changeValidity(ctx, body.Id, validityOf(body), body.TimeProfileId)),
  route(api.revoke, ({ body }, ctx) => revoke(ctx, body.Ids)),
];
