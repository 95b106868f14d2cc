import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  grantResult,
  deviceStatusCount,
  cardUserLinkChannelItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { defineResource } from '../../../platform/resource.ts';
import { defineRoute } from '../../../platform/route.ts';
import { endAfterStart, id } from '../../../platform/schemas.ts';
import { TAG, bodyInstant, idList } from '../common.ts';
import {
  authorizationExportColumns,
  authorizationFilters,
  authorizationQuery,
  authorizationSorts,
  enrichAuthorizations,
  toAuthorizationItem,
  type AuthorizationItem,
} from './items.ts';
import { batchGrant, changeValidity, deviceStatusCounts, grantToHolder, revoke } from './service.ts';

/**
 * Authorisation list (Admin or User). Both codes grant to one holder, change validity and revoke; a batch
 * grant over a department or people group is AccessControl/Admin's. No call here sets the success states
 * (3, -2): they belong to the device sync.
 */
const validity = {
  ValidFrom: bodyInstant.nullable().optional(),
  ValidTo: bodyInstant.nullable().optional(),
};
const validityOrder = endAfterStart('ValidFrom', 'ValidTo');

export const cardUserLinkChannelRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/CardUserLinkChannel/DeviceStatusCounts',
    summary: "Per controller of the area: authorisations in each issue status (Counts['-2'] … Counts['3'])",
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    response: z.array(deviceStatusCount),
    handler: (_input, ctx) => deviceStatusCounts(ctx),
  }),
  ...defineResource({
    name: 'CardUserLinkChannel',
    table: 'CardUserLinkChannel',
    tag: TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: cardUserLinkChannelItem,
    query: (db) => authorizationQuery(db),
    toItem: toAuthorizationItem,
    enrich: enrichAuthorizations,
    filters: authorizationFilters,
    sorts: authorizationSorts,
    defaultOrder: 'desc',
    export: { titleKey: 'accessControl.title.cardUserLinkChannel', columns: authorizationExportColumns },
  } satisfies Parameters<typeof defineResource<AuthorizationItem, z.ZodType, z.ZodType, true>>[0]),
  defineRoute({
    method: 'POST',
    url: '/api/CardUserLinkChannel/Grant',
    summary: "Grant one holder's cards onto channels (pending issue; on a no-sync device no issue needed)",
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: z.strictObject({ CardUserId: id, ChannelIds: idList(200), ...validity }).superRefine(validityOrder),
    response: grantResult,
    handler: ({ body }, ctx) =>
      grantToHolder(ctx, body.CardUserId, body.ChannelIds, {
        ValidFrom: body.ValidFrom ?? null,
        ValidTo: body.ValidTo ?? null,
      }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/CardUserLinkChannel/BatchGrant',
    summary:
      'Grant a department (sub-departments included unless IncludeSubDepartments is false) or a people group onto channels',
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z
      .strictObject({
        DepartmentId: id.optional(),
        IncludeSubDepartments: z.boolean().optional(),
        PeopleGroupId: id.optional(),
        ChannelIds: idList(200),
        ...validity,
      })
      .superRefine(validityOrder),
    response: grantResult.extend({
      Holders: z.number(),
      SkippedDisabled: z.number(),
      SkippedNoCard: z.number(),
    }),
    handler: ({ body }, ctx) =>
      batchGrant(ctx, { ...body, ValidFrom: body.ValidFrom ?? null, ValidTo: body.ValidTo ?? null }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/CardUserLinkChannel',
    summary: "Change an authorisation's own validity (null: follow the holder's); pending update",
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: z
      .strictObject({ Id: id, ValidFrom: bodyInstant.nullable(), ValidTo: bodyInstant.nullable() })
      .superRefine(validityOrder),
    async handler({ body }, ctx) {
      await changeValidity(ctx, body.Id, { ValidFrom: body.ValidFrom, ValidTo: body.ValidTo });
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/CardUserLinkChannel/Revoke',
    summary: 'Revoke authorisations (pending deletion; removed at once on a no-sync device); all or none',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: z.strictObject({ Ids: idList(500) }),
    response: z.object({ Revoked: z.number(), Removed: z.number() }),
    handler: ({ body }, ctx) => revoke(ctx, body.Ids),
  }),
];
