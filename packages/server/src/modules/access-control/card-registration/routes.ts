import { CardRegistrationApi } from '@gatehouse/shared';
import type { UserContext } from '../../../platform/context.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { cardExportColumns, cardSorts, cardWhere, toCardItem } from '../card/items.ts';
import { isSet } from '../common.ts';
import {
  assertPoolCardRemovable,
  assignCards,
  poolCardQuery,
  registerCardsReply,
  unassignCards,
} from './service.ts';

const api = CardRegistrationApi;

/** Card registration (SuperAdmin): the card pool, registering, assigning to an area and taking back. */
export const cardRegistrationRoutes = [
  ...implementResource<typeof api, UserContext>(api, {
    table: 'Card',
    query: poolCardQuery,
    toItem: toCardItem,
    where: { ...cardWhere, AreaId: match.equals<number>('Card.AreaId'), Assigned: isSet('Card.AreaId') },
    sorts: cardSorts,
    remove: { check: async (_ctx, row) => assertPoolCardRemovable(row) },
    export: { titleKey: 'accessControl.title.cardRegistration', columns: cardExportColumns },
  }),
  route(api.register, ({ body }, ctx) => registerCardsReply(ctx, body)),
  route(api.assign, ({ body }, ctx) => assignCards(ctx, body.Ids, body.AreaId)),
  route(api.unassign, ({ body }, ctx) => unassignCards(ctx, body.Ids)),
];
