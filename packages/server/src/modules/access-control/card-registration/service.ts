import {
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
