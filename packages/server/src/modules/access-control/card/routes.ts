import { ACCESS_CONTROL_ANY, cardItem } from '@gatehouse/shared';
import { defineResource } from '../../../platform/resource.ts';
import { TAG } from '../common.ts';
import { cardFilters, cardQuery, cardSorts, toCardItem } from './items.ts';

/**
 * The current area's cards, read-only, for both access-control codes: the holder form picks free cards
 * here (`Held=false`). Registering and assigning cards is SuperAdmin's (CardRegistration).
 */
export const cardRoutes = defineResource({
  name: 'Card',
  table: 'Card',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: cardItem,
  query: (db) => cardQuery(db),
  toItem: toCardItem,
  filters: cardFilters,
  sorts: cardSorts,
});
