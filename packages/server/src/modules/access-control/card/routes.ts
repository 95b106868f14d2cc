import { CardApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { cardQuery, cardSorts, cardWhere, toCardItem } from './items.ts';

/** The current area's cards, read-only: the holder form picks free cards here (`Held=false`). */
export const cardRoutes = implementResource(CardApi, {
  table: 'Card',
  query: cardQuery,
  toItem: toCardItem,
  where: cardWhere,
  sorts: cardSorts,
});
