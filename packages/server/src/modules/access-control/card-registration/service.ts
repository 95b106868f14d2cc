import { randomInt } from 'node:crypto';
import {
  CARD_VALUE_MAX,
  expandCardRange,
  parseCardNumber,
  parseCardNumberList,
  type RegisterCardsInput,
  type RuleResult,
} from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import type { UserContext } from '../../../platform/context.ts';
import { assertOwnArea, inChunks, type Trx } from '../common.ts';
import { cardQuery } from '../card/items.ts';
import { inPoolOrOwnAreas } from '../pool.ts';

/**
 * Card registration (SuperAdmin): card stock enters a pool by one number, a list or a range, and is
 * assigned to one of the caller's areas. Numbers are stored in their printed 10-digit form.
 */

/** The pool's list: cards still in the pool and those of the caller's own areas. */
export const poolCardQuery = (db: Trx, ctx: UserContext) =>
  cardQuery(db).where(inPoolOrOwnAreas(ctx, 'Card.AreaId'));

function numbersOf(input: RegisterCardsInput): string[] {
  const check = (field: string, result: RuleResult<string[]>) => {
    if (!result.ok) throw fieldError(field, result.error.key, result.error.params);
    return result.value;
  };
  switch (input.Mode) {
    case 'Single': {
      const one = parseCardNumber(input.CardNumber ?? '');
      return check('CardNumber', one.ok ? { ok: true, value: [one.value] } : one);
    }
    case 'List':
      return check('CardNumbers', parseCardNumberList(input.CardNumbers ?? ''));
    case 'Range': {
      const start = parseCardNumber(input.StartNumber ?? '');
      if (!start.ok) throw fieldError('StartNumber', start.error.key);
      const end = parseCardNumber(input.EndNumber ?? '');
      if (!end.ok) throw fieldError('EndNumber', end.error.key);
      return check('EndNumber', expandCardRange(input.StartNumber, input.EndNumber));
    }
  }
}

/** Registers cards (all or none; a number already registered refuses the whole batch). */
export async function registerCards(ctx: UserContext, input: RegisterCardsInput): Promise<number[]> {
  const numbers = numbersOf(input);
  if (input.AreaId !== undefined) assertOwnArea(ctx, input.AreaId);
  const now = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const byNumber = <K extends 'Id' | 'CardNumber'>(column: K) =>
      inChunks(numbers, (chunk) =>
        trx.selectFrom('Card').select(column).where('CardNumber', 'in', chunk).execute(),
      );
    const taken = (await byNumber('CardNumber')).map((r) => r.CardNumber);
    if (taken.length) {
      taken.sort();
      throw new AppError(409, 'accessControl.error.cardRegistered', {
        card: taken.slice(0, 5).join(', ') + (taken.length > 5 ? ' …' : ''),
        count: taken.length,
      });
    }
    const values = numbers.map((CardNumber) => ({
      AreaId: input.AreaId ?? null,
      CardNumber,
      CardType: input.CardType,
      CardUserId: null,
      Remark: input.Remark ?? null,
      CreatedAt: now,
      UpdatedAt: now,
    }));
    await inChunks(values, (chunk) => trx.insertInto('Card').values(chunk).execute(), 200);
    const ids = (await byNumber('Id')).map((r) => r.Id).sort((a, b) => a - b);
    await audit(
      ctx,
      {
        action: 'register',
        entity: 'Card',
        entityId: ids.length === 1 ? ids[0] : null,
        after: { ...input, Count: ids.length, First: numbers[0], Last: numbers[numbers.length - 1] },
      },
      trx,
    );
    return ids;
  });
}

async function poolCard(ctx: UserContext, trx: Trx, cardId: number) {
  const card = await trx.selectFrom('Card').selectAll().where('Id', '=', cardId).executeTakeFirst();
  if (!card || (card.AreaId !== null && !ctx.user.areaIds.has(card.AreaId))) throw notFound();
  return card;
}

export async function assignCards(ctx: UserContext, ids: number[], areaId: number): Promise<void> {
  assertOwnArea(ctx, areaId);
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const cardId of new Set(ids)) {
      const card = await poolCard(ctx, trx, cardId);
      if (card.AreaId !== null)
        throw new AppError(409, 'accessControl.error.cardAssigned', { card: card.CardNumber });
      await trx
        .updateTable('Card')
        .set({ AreaId: areaId, UpdatedAt: now })
        .where('Id', '=', cardId)
        .execute();
    }
    await audit(ctx, { action: 'assign', entity: 'Card', after: { Ids: ids, AreaId: areaId } }, trx);
  });
}

/** Cards return to the pool; refused for a card still given to a holder. */
export async function unassignCards(ctx: UserContext, ids: number[]): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const cardId of new Set(ids)) {
      const card = await poolCard(ctx, trx, cardId);
      if (card.CardUserId !== null)
        throw new AppError(409, 'accessControl.error.cardHeld', { card: card.CardNumber });
      await trx.updateTable('Card').set({ AreaId: null, UpdatedAt: now }).where('Id', '=', cardId).execute();
    }
    await audit(ctx, { action: 'unassign', entity: 'Card', after: { Ids: ids } }, trx);
  });
}

/**
 * Gives the holder exactly these cards: free cards of the area are taken (a card another holder has is
 * refused, and the conditional update keeps two concurrent requests from both taking it); cards left out
 * become free. True when the set changed. The card registry is the one writer of `Card`: the card-holder
 * service calls this in its create's and edit's transaction.
 */
export async function setHolderCards(
  trx: Trx,
  areaId: number,
  holderId: number,
  cardIds: number[],
  now: number,
): Promise<boolean> {
  const wanted = new Set(cardIds);
  const current = await trx.selectFrom('Card').select('Id').where('CardUserId', '=', holderId).execute();
  const held = new Set(current.map((c) => c.Id));
  const removed = [...held].filter((c) => !wanted.has(c));
  const added = [...wanted].filter((c) => !held.has(c));
  if (removed.length)
    await trx
      .updateTable('Card')
      .set({ CardUserId: null, UpdatedAt: now })
      .where('Id', 'in', removed)
      .execute();
  for (const cardId of added) {
    const card = await trx
      .selectFrom('Card')
      .select(['Id', 'CardNumber', 'CardUserId'])
      .where('Id', '=', cardId)
      .where('AreaId', '=', areaId)
      .executeTakeFirst();
    if (!card) throw fieldError('CardIds', 'accessControl.error.cardMissing');
    const taken = await trx
      .updateTable('Card')
      .set({ CardUserId: holderId, UpdatedAt: now })
      .where('Id', '=', cardId)
      .where('CardUserId', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1)
      throw new AppError(409, 'accessControl.error.cardTaken', { card: card.CardNumber });
  }
  return removed.length > 0 || added.length > 0;
}

/** The printed numbers a visitor pass's card is drawn from: ten digits without leading zeros, about 3.3 billion. */
const VISITOR_CARD_FIRST = 1_000_000_000;
const VISITOR_CARD_LAST = CARD_VALUE_MAX;

/**
 * Registers the card of a visitor pass, held by the pass's holder row, in the caller's transaction: a number
 * drawn at random among those no card has (registered anywhere, pool included), so it collides with no card
 * and cannot be guessed from another pass's. It is never handed out again: a QR code kept after its pass
 * opens nothing. Null when ten draws all hit registered numbers (a registry of billions of cards).
 */
export async function registerVisitorCard(
  trx: Trx,
  areaId: number,
  holderId: number,
  now: number,
): Promise<{ Id: number; CardNumber: string } | null> {
  for (let draw = 0; draw < 10; draw++) {
    const CardNumber = String(randomInt(VISITOR_CARD_FIRST, VISITOR_CARD_LAST + 1));
    const taken = await trx
      .selectFrom('Card')
      .select('Id')
      .where('CardNumber', '=', CardNumber)
      .executeTakeFirst();
    if (taken) continue;
    const card = await trx
      .insertInto('Card')
      .values({
        AreaId: areaId,
        CardNumber,
        CardType: 0,
        CardUserId: holderId,
        Remark: null,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    return { Id: card.Id, CardNumber };
  }
  return null;
}

/** A card leaves the registry only from the pool. */
export function assertPoolCardRemovable(row: Record<string, unknown>): void {
  if (row.AreaId !== null)
    throw new AppError(409, 'accessControl.error.cardAssigned', { card: row.CardNumber as string });
}

/** Registers cards and answers how many and their ids (a range can register thousands). */
export async function registerCardsReply(
  ctx: UserContext,
  input: RegisterCardsInput,
): Promise<{ Count: number; Ids: number[] }> {
  const ids = await registerCards(ctx, input);
  return { Count: ids.length, Ids: ids };
}
