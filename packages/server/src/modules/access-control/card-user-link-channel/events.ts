import type { AUTHORISATION_CHANGES, CardUserLinkChannelItem } from '@gatehouse/shared';
import type { AreaContext } from '../../../platform/context.ts';
import { areaNames, emitEvents } from '../../../platform/outbox/outbox.ts';
import { inChunks, type Trx } from '../common.ts';
import { authorizationQuery, enrichAuthorizations, toAuthorizationItem } from './items.ts';

/**
 * Authorisations granted, changed or revoked as events of the outbox (platform/outbox), in the transaction
 * that writes them: each as the authorisation list shows it (holder, cards, door, validity, profile, issue
 * status), read in that transaction so with the change, and `Change` saying what happened.
 */

/** What happened to an authorisation (the event's `Change`). */
export type AuthorisationChange = (typeof AUTHORISATION_CHANGES)[number];

/** Authorisations of the area by id, as the list shows them, read in the change's transaction. */
export async function authorisationItems(
  ctx: AreaContext,
  trx: Trx,
  ids: number[],
): Promise<Map<number, CardUserLinkChannelItem>> {
  if (ids.length === 0) return new Map();
  const rows = await inChunks([...new Set(ids)], (chunk) =>
    authorizationQuery(trx)
      .where('CardUserLinkChannel.Id', 'in', chunk)
      .where('CardUserLinkChannel.AreaId', '=', ctx.areaId)
      .execute(),
  );
  const items = await enrichAuthorizations(
    { ...ctx, db: { ...ctx.db, kysely: trx } },
    rows.map(toAuthorizationItem),
  );
  return new Map(items.map((i) => [i.Id, i]));
}

/** The ids of the authorisations of these holders on these channels (a grant's rows, new ones included). */
export async function authorisationIds(
  trx: Trx,
  pairs: { holderId: number; channelId: number }[],
): Promise<number[]> {
  if (pairs.length === 0) return [];
  const wanted = new Set(pairs.map((p) => `${p.holderId}:${p.channelId}`));
  const channelIds = [...new Set(pairs.map((p) => p.channelId))];
  const rows = await inChunks([...new Set(pairs.map((p) => p.holderId))], (chunk) =>
    trx
      .selectFrom('CardUserLinkChannel')
      .select(['Id', 'CardUserId', 'ChannelId'])
      .where('CardUserId', 'in', chunk)
      .where('ChannelId', 'in', channelIds)
      .execute(),
  );
  return rows.filter((r) => wanted.has(`${r.CardUserId}:${r.ChannelId}`)).map((r) => r.Id);
}

/** Writes one `authorisation.changed` per item, in the change's transaction. */
export async function emitAuthorisationChanges(
  ctx: AreaContext,
  trx: Trx,
  changes: { item: CardUserLinkChannelItem; change: AuthorisationChange }[],
): Promise<void> {
  if (changes.length === 0) return;
  const names = await areaNames(trx, [ctx.areaId]);
  const at = ctx.clock.now();
  await emitEvents(
    trx,
    changes.map(({ item, change }) => ({
      type: 'authorisation.changed' as const,
      at,
      data: { ...item, AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '', Change: change },
    })),
  );
}

/** Reads the authorisations (by id) in the transaction and writes one event each with the same change. */
export async function emitAuthorisations(
  ctx: AreaContext,
  trx: Trx,
  ids: number[],
  change: AuthorisationChange,
): Promise<void> {
  const items = await authorisationItems(ctx, trx, ids);
  await emitAuthorisationChanges(
    ctx,
    trx,
    [...items.values()].map((item) => ({ item, change })),
  );
}
