import { z } from 'zod';
import { cardType } from '../../enums/access-control.ts';
import { resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * A card: CardNumber is the stored form, the 10-digit number printed on the card; CardValue is the same
 * card as a controller reports it (the four bytes reversed).
 */
export const cardItem = z.object({
  Id: z.number(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardType: z.number(),
  CardUserId: z.number().nullable(),
  HolderName: z.string().nullable(),
  Remark: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardItem = z.output<typeof cardItem>;

/** The filters of both card lists (the area's cards and the registration pool). */
export const cardFilters = {
  /** Digits typed anywhere in the printed number. */
  Keyword: filterSchema.text(),
  CardType: filterSchema.oneOf(cardType),
  /** Given to a holder or free. */
  Held: filterSchema.flag(),
  CardUserId: filterSchema.id(),
};

/** The sort keys of both card lists; the first is the default. */
export const CARD_SORTS = ['CardNumber', 'Id', 'CreatedAt'] as const;

/**
 * The current area's cards, read-only, for both access-control codes: the holder form picks free cards
 * here (`Held=false`). Registering and assigning cards is SuperAdmin's (CardRegistration).
 */
export const CardApi = resourceApi({
  name: 'Card',
  tag: ACCESS_CONTROL_TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: cardItem,
  filters: cardFilters,
  sorts: CARD_SORTS,
});
