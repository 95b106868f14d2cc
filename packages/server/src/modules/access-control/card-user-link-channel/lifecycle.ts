import { protocolNeedsSync } from '@gatehouse/shared';
import { sql, type RawBuilder } from 'kysely';
import type { AreaContext } from '../../../platform/context.ts';
import type { Trx } from '../common.ts';
import { emitAuthorisations } from './events.ts';

/**
 * The issue-status lifecycle of an authorisation (enumeration issueStatus). The operators' changes move rows
 * only into the "pending" states; 3 (issue succeeded) and -2 (deletion succeeded) are set by the device sync
 * (device-sync.ts, called by the WG gateway), which no API offers.
 *
 *   grant                       → 1 pending issue      (0 on a device whose protocol needs no sync)
 *   change of card / validity   → 2 pending update     (live rows 1, 2, 3; rows at 0 stay 0)
 *   holder disabled             → -1 pending deletion  (live rows 1, 2, 3; -2 if never sent to the device)
 *   holder enabled              → 1 pending issue      (rows withdrawn by the disable: -1, -2, not revoked)
 *   revoke                      → -1 pending deletion  (-2 if never sent to the device, and -2 stays -2; on a
 *                                                        no-sync device the row is removed)
 *   grant again after a revoke  → 1 pending issue
 *
 * "Never sent" is SentToDevice = 0: no sync pass has begun writing it since the controller last confirmed it
 * absent. Such a row needs no deletion on the device, so waiting for one would show a state that is not true.
 *
 * Every move that follows another change (a holder's or a channel's, below; the sync's, device-sync.ts) is told as
 * `authorisation.changed` (`updated`) for each row it moved, in the change's transaction: the authorisation list
 * shows the new status, so a receiver keeping its own copy of that list must learn it too.
 */
export const ISSUE = {
  deletionSucceeded: -2,
  pendingDeletion: -1,
  noIssueNeeded: 0,
  pendingIssue: 1,
  pendingUpdate: 2,
  issueSucceeded: 3,
} as const;

/** Statuses waiting for the device sync: pending issue, update and deletion. */
export const PENDING_SYNC: number[] = [ISSUE.pendingIssue, ISSUE.pendingUpdate, ISSUE.pendingDeletion];

/** Statuses of an authorisation the controller has or is about to have. */
export const LIVE = [ISSUE.pendingIssue, ISSUE.pendingUpdate, ISSUE.issueSucceeded] as const;

export function grantedStatus(protocol: number): number {
  return protocolNeedsSync(protocol) ? ISSUE.pendingIssue : ISSUE.noIssueNeeded;
}

/** A change the controller must learn: live rows become pending update; anything else keeps its status. */
export function changedStatus(current: number): number {
  return (LIVE as readonly number[]).includes(current) ? ISSUE.pendingUpdate : current;
}

/**
 * Revoking or withdrawing, as SQL evaluated on the row itself in the UPDATE: the controller must forget it,
 * unless it never got it or has forgotten it already (-2). One statement, so a sync pass that marks the row
 * sent at the same moment is ordered by the row lock, never interleaved with a read of it.
 */
export function removedStatusSql() {
  // Literals, not parameters: PostgreSQL cannot type a bare parameter in a CASE result (it would be text).
  const deleted = sql.lit(ISSUE.deletionSucceeded);
  return sql<number>`case when "IssueStatus" = ${deleted} or "SentToDevice" = 0 then ${deleted} else ${sql.lit(ISSUE.pendingDeletion)} end`;
}

/** A status move: the authorisations of these holders or this channel in one of `from` go to `to`. */
interface StatusMove {
  by: 'CardUserId' | 'ChannelId';
  ids: readonly number[];
  from: readonly number[];
  to: number | RawBuilder<number>;
  /** Leave revoked rows where they are (an enable issues again only what the disable withdrew). */
  unrevoked?: boolean;
}

/** Moves the rows and tells outside which moved (authorisation.changed), in the caller's transaction. */
async function moveStatus(ctx: AreaContext, trx: Trx, now: number, move: StatusMove): Promise<void> {
  if (move.ids.length === 0) return;
  let query = trx
    .updateTable('CardUserLinkChannel')
    .set({ IssueStatus: move.to, UpdatedAt: now })
    .where(move.by, 'in', [...move.ids])
    .where('IssueStatus', 'in', [...move.from]);
  if (move.unrevoked) query = query.where('Revoked', '=', 0);
  const moved = await query.returning('Id').execute();
  await emitAuthorisations(ctx, trx, ids(moved), 'updated');
}

/**
 * The holders' cards or validity changed: their live authorisations wait for an update. Called after the holder's
 * row and cards are written, so each event carries the holder's new cards and validity.
 */
export function markHoldersChanged(
  ctx: AreaContext,
  trx: Trx,
  holderIds: number[],
  now: number,
): Promise<void> {
  return moveStatus(ctx, trx, now, { by: 'CardUserId', ids: holderIds, from: LIVE, to: ISSUE.pendingUpdate });
}

/** The holder was disabled: every live authorisation must be removed from its controller. */
export function withdrawHolder(ctx: AreaContext, trx: Trx, holderId: number, now: number): Promise<void> {
  return moveStatus(ctx, trx, now, { by: 'CardUserId', ids: [holderId], from: LIVE, to: removedStatusSql() });
}

/** The holder was enabled again: what the disable withdrew (not what was revoked) is issued anew. */
export function restoreHolder(ctx: AreaContext, trx: Trx, holderId: number, now: number): Promise<void> {
  return moveStatus(ctx, trx, now, {
    by: 'CardUserId',
    ids: [holderId],
    from: [ISSUE.pendingDeletion, ISSUE.deletionSucceeded],
    to: ISSUE.pendingIssue,
    unrevoked: true,
  });
}

/**
 * A channel's door or direction changed: the controller's door bits for its live authorisations change. Called
 * after the channel's row is written, so each event names the channel's new door.
 */
export function markChannelChanged(
  ctx: AreaContext,
  trx: Trx,
  channelId: number,
  now: number,
): Promise<void> {
  return moveStatus(ctx, trx, now, {
    by: 'ChannelId',
    ids: [channelId],
    from: LIVE,
    to: ISSUE.pendingUpdate,
  });
}

const ids = (rows: { Id: number }[]) => rows.map((r) => r.Id);

/** Authorisations a controller still holds or has to act on: everything but confirmed deletions. */
export async function openAuthorizations(
  trx: Trx,
  where: { channelId: number } | { deviceId: number },
): Promise<number> {
  const row = await trx
    .selectFrom('CardUserLinkChannel')
    .select(sql<number>`count(*)`.as('n'))
    .where(
      'channelId' in where ? 'ChannelId' : 'DeviceId',
      '=',
      'channelId' in where ? where.channelId : where.deviceId,
    )
    .where('IssueStatus', '!=', ISSUE.deletionSucceeded)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
