import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY, cardUserItem } from '@gatehouse/shared';
import { z } from 'zod';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { defineResource, getResource } from '../../../platform/resource.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id, queryBool } from '../../../platform/schemas.ts';
import { TAG, bodyInstant, idList, optionalText } from '../common.ts';
import { importHolders, importTemplate } from './import.ts';
import {
  enrichHolders,
  holderExportColumns,
  holderFilters,
  holderQuery,
  holderSorts,
  toHolderItem,
  type HolderItem,
} from './items.ts';
import { createHolderBody, updateHolderBody } from './schemas.ts';
import { createHolder, extendHolders, setHolderStatus, updateHolder } from './service.ts';

/**
 * Card holders (Admin or User). List, detail and export come from the resource helper; writes are
 * services that record changes. A holder with nothing depending on it (no card, authorisation, swipe or
 * vehicle) may be deleted, a mistaken entry for instance; otherwise 409 names what remains (disable it).
 */
const holders = {
  name: 'CardUser',
  table: 'CardUser',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: cardUserItem,
  query: (db) => holderQuery(db),
  toItem: toHolderItem,
  enrich: enrichHolders,
  filters: holderFilters,
  sorts: holderSorts,
  defaultOrder: 'desc',
  export: { titleKey: 'accessControl.title.userManagement', columns: holderExportColumns },
  remove: {
    async check(ctx, row, trx) {
      const holderId = row.Id as number;
      await assertNoDependents('CardUser', trx, holderId, ctx.lang);
      // Its change and renewal records describe only this holder: they go with it, in the same transaction
      // (the delete's audit entry keeps the holder as it was).
      await trx.deleteFrom('ChangeRecord').where('CardUserId', '=', holderId).execute();
      await trx.deleteFrom('RenewalRecord').where('CardUserId', '=', holderId).execute();
    },
  },
} satisfies Parameters<typeof defineResource<HolderItem, z.ZodType, z.ZodType, true>>[0];

export const cardUserRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/CardUser/ImportTemplate',
    summary: "The .xlsx import template, headers in the caller's language, with the area's accepted values",
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    handler: (_input, ctx) => importTemplate(ctx),
  }),
  ...defineResource(holders),
  defineRoute({
    method: 'POST',
    url: '/api/CardUser',
    summary: 'Add a card holder with cards (writes an "add user" change record)',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: createHolderBody,
    response: cardUserItem,
    handler: async ({ body }, ctx) => getResource(holders, ctx, await createHolder(ctx, body)),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/CardUser',
    summary: 'Edit a card holder (change record; a later ValidTo is an extension with a renewal record)',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: updateHolderBody,
    response: cardUserItem,
    async handler({ body }, ctx) {
      await updateHolder(ctx, body.Id, body);
      return getResource(holders, ctx, body.Id);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/CardUser/SetStatus',
    summary: 'Disable or enable a card holder (change record; authorisations pending deletion / issue)',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    query: z.object({
      Id: id,
      Disabled: queryBool,
    }),
    async handler({ query }, ctx) {
      await setHolderStatus(ctx, query.Id, query.Disabled);
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/CardUser/Extend',
    summary: 'Extend card holders to a later end of validity (change and renewal records; all or none)',
    tag: TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    body: z.strictObject({ Ids: idList(500), ValidTo: bodyInstant, Remark: optionalText(200) }),
    async handler({ body }, ctx) {
      await extendHolders(ctx, body.Ids, body.ValidTo, body.Remark ?? null);
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/CardUser/Import',
    summary:
      'Import card holders from the template (.xlsx as base64). All or none: any bad row answers 400 with data.RowErrors [{ Row, Field, Message }]',
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({
      FileName: z.string().trim().max(200).optional(),
      Content: z.string().min(1).max(2_000_000),
    }),
    response: z.object({ Imported: z.number() }),
    handler: ({ body }, ctx) => importHolders(ctx, body.Content),
  }),
];
