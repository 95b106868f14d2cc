import { defineResource } from '../../../platform/resource.ts';
import { AC_ALL, TAG } from '../common.ts';
import { cardFilters, cardItem, cardQuery, cardSorts, toCardItem } from './items.ts';

/**
 * The current area's cards, read-only, for both access-control codes: the holder form picks free cards
 * here (`Held=false`). Registering and assigning cards is SuperAdmin's (CardRegistration).
 */
export const areaCardRoutes = defineResource({
  name: 'Card',
  table: 'Card',
  tag: TAG,
  area: true,
  read: AC_ALL,
  write: AC_ALL,
  item: cardItem,
  query: (db) => cardQuery(db),
  toItem: toCardItem,
  filters: cardFilters,
  sorts: cardSorts,
});
