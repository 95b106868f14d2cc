import { CardUserApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { standardOperations } from '../common.ts';
import { importHolders, importTemplate } from './import.ts';
import {
  enrichHolders,
  holderExportColumns,
  holderQuery,
  holderSorts,
  holderWhere,
  toHolderItem,
} from './items.ts';
import {
  createHolder,
  extendHolders,
  holderById,
  removeHolderRecords,
  setHolderStatus,
  updateHolder,
} from './service.ts';

const api = CardUserApi;

/**
 * Card holders (Admin or User). List, detail, export and delete come from the resource helper; the other
 * writes are services that record what changed.
 */
export const cardUserRoutes = [
  route(api.importTemplate, (_input, ctx) => importTemplate(ctx)),
  ...implementResource(standardOperations(api), {
    table: 'CardUser',
    query: holderQuery,
    toItem: toHolderItem,
    enrich: enrichHolders,
    where: holderWhere,
    sorts: holderSorts,
    defaultOrder: 'desc',
    remove: { check: (ctx, row, trx) => removeHolderRecords(ctx, trx, row.Id as number) },
    export: { titleKey: 'accessControl.title.userManagement', columns: holderExportColumns },
  }),
  route(api.create, async ({ body }, ctx) => holderById(ctx, await createHolder(ctx, body))),
  route(api.update, async ({ body }, ctx) => {
    await updateHolder(ctx, body.Id, body);
    return holderById(ctx, body.Id);
  }),
  route(api.setStatus, ({ query }, ctx) => setHolderStatus(ctx, query.Id, query.Disabled)),
  route(api.extend, ({ body }, ctx) => extendHolders(ctx, body.Ids, body.ValidTo, body.Remark ?? null)),
  route(api.import, ({ body }, ctx) => importHolders(ctx, body.Content)),
];
