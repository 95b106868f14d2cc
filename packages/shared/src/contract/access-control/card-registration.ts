import { z } from 'zod';
import { CARD_BATCH_MAX } from '../../access-control-rules.ts';
import { cardType } from '../../enums/access-control.ts';
import { operation, resourceApi } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { cardFilters, cardItem, CARD_SORTS } from './card.ts';
import { ACCESS_CONTROL_TAG, poolMoves } from './common.ts';

/** How cards are registered: one number, a comma-separated list, or a range. */
export const CARD_MODES = ['Single', 'List', 'Range'] as const;
export type CardMode = (typeof CARD_MODES)[number];

export const registerCardsBody = z.strictObject({
  Mode: z.enum(CARD_MODES),
  CardNumber: z.string().trim().max(10).optional(),
  CardNumbers: z.string().trim().max(12_000).optional(),
  StartNumber: z.string().trim().max(10).optional(),
  EndNumber: z.string().trim().max(10).optional(),
  CardType: enumNumber(cardType),
  AreaId: id.optional(),
  Remark: optionalText(200),
});
export type RegisterCardsInput = z.output<typeof registerCardsBody>;

/**
 * Card registration (SuperAdmin): card stock enters a pool by one number, a list or a range, and is
 * assigned to one of the caller's areas. Numbers are stored in their printed 10-digit form. The list shows
 * cards still in the pool and those of the caller's own areas.
 */
export const CardRegistrationApi = {
  ...resourceApi({
    name: 'CardRegistration',
    tag: ACCESS_CONTROL_TAG,
    area: false,
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    item: cardItem,
    filters: { ...cardFilters, AreaId: filterSchema.id(), Assigned: filterSchema.flag() },
    sorts: CARD_SORTS,
    remove: true,
  }),
  /** Its reply is `{ Count, Ids }`: a range can register thousands. */
  register: operation({
    method: 'POST',
    path: '/api/CardRegistration',
    summary:
      'Register cards: Mode Single (CardNumber), List (CardNumbers, comma-separated) or Range (StartNumber..EndNumber); all or none',
    tag: ACCESS_CONTROL_TAG,
    access: SUPER_ADMIN,
    body: registerCardsBody,
    reply: z.object({ Count: z.number(), Ids: z.array(z.number()) }),
  }),
  ...poolMoves('CardRegistration', CARD_BATCH_MAX, {
    assign: "Assign pool cards to one of the caller's areas",
    unassign: 'Return cards to the pool (refused for a card given to a holder)',
  }),
};
