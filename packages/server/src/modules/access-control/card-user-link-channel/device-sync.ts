import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';
import { emitAuthorisations } from './events.ts';
import { ISSUE, PENDING_SYNC } from './lifecycle.ts';

/**
 * The device sync's side of the issue-status lifecycle (lifecycle.ts): what the WG gateway (gateways/wg/sync.ts)
 * reports as it brings a controller in line with the authorisations. Here, beside the statuses' other
 * moves, so authorisations have one writer (packages/server/test/writers.test.ts); the plan of what a
 * controller must hold is read in access-control-device/controllers.ts.
 */

/** An authorisation as the sync reads it: enough to confirm it later only if nothing changed meanwhile. */
export interface SyncRow {
  Id: number;
  CardUserId: number;
  IssueStatus: number;
  UpdatedAt: number;
}

/**
 * A sync pass is about to write the device's pending authorisations: from here the controller may hold them,
 * so revoking one must wait for the controller to confirm its removal. Called before the pass reads its plan,
 * so a row revoked meanwhile is either marked (and waits for the deletion) or left out of the plan.
 */
export async function markSending(ctx: ServiceContext, deviceId: number): Promise<void> {
  await fencedWrite(ctx, (trx) =>
    trx
      .updateTable('CardUserLinkChannel')
      .set({ SentToDevice: 1 })
      .where('DeviceId', '=', deviceId)
      .where('IssueStatus', 'in', [ISSUE.pendingIssue, ISSUE.pendingUpdate])
      .where('SentToDevice', '=', 0)
      .execute(),
  );
}

/** Devices with authorisations waiting for the controller whose back-off has passed. */
export async function devicesDueForSync(ctx: ServiceContext): Promise<number[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.kysely
    .selectFrom('CardUserLinkChannel')
    .select('DeviceId')
    .distinct()
    .where('IssueStatus', 'in', PENDING_SYNC)
    .where((eb) => eb.or([eb('NextSyncAt', 'is', null), eb('NextSyncAt', '<=', now)]))
    .execute();
  return rows.map((r) => r.DeviceId);
}

/**
 * How many authorisations wait for their controller (to be written, changed or removed), across the database:
 * the metrics' sync backlog (platform/metrics.ts). A backlog that grows is a controller that does not take them.
 */
export async function syncBacklog(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('CardUserLinkChannel')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('IssueStatus', 'in', PENDING_SYNC)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The controller now holds what these authorisations ask: 1/2 → 3 issue succeeded, -1 → -2 deletion
 * succeeded, with one audit entry by the device actor and one `authorisation.changed` (`updated`, events.ts) per
 * row moved, in the same transaction. A row changed since the sync read it (status or UpdatedAt differ) is left
 * alone: its change waits for the next pass. In batches, so a controller of 10,000 cards never holds the
 * database for long. Returns how many rows moved.
 */
export async function confirmSync(
  ctx: ServiceContext,
  rows: SyncRow[],
): Promise<{ issued: number; deleted: number }> {
  const now = ctx.clock.now();
  let issued = 0;
  let deleted = 0;
  const pending = rows.filter((r) => r.IssueStatus !== ISSUE.issueSucceeded);
  // Rows already at 3 only lose a failure note, if they had one.
  for (let i = 0; i < pending.length; i += 500) {
    const batch = pending.slice(i, i + 500);
    await fencedWrite(ctx, async (trx) => {
      const moved: { Id: number; AreaId: number; IssueStatus: number }[] = [];
      for (const r of batch) {
        const next = r.IssueStatus === ISSUE.pendingDeletion ? ISSUE.deletionSucceeded : ISSUE.issueSucceeded;
        const result = await trx
          .updateTable('CardUserLinkChannel')
          .set({
            IssueStatus: next,
            SyncAttempts: 0,
            NextSyncAt: null,
            SyncError: null,
            SyncedAt: now,
            SentToDevice: next === ISSUE.deletionSucceeded ? 0 : 1,
          })
          .where('Id', '=', r.Id)
          .where('IssueStatus', '=', r.IssueStatus)
          .where('UpdatedAt', '=', r.UpdatedAt)
          .returning('AreaId')
          .executeTakeFirst();
        if (result) moved.push({ Id: r.Id, AreaId: result.AreaId, IssueStatus: next });
      }
      if (moved.length === 0) return;
      const issuedIds = moved.filter((m) => m.IssueStatus === ISSUE.issueSucceeded).map((m) => m.Id);
      const deletedIds = moved.filter((m) => m.IssueStatus === ISSUE.deletionSucceeded).map((m) => m.Id);
      issued += issuedIds.length;
      deleted += deletedIds.length;
      await audit(
        ctx,
        {
          action: 'sync',
          entity: 'CardUserLinkChannel',
          after: { Issued: issuedIds, Deleted: deletedIds },
        },
        trx,
      );
      // A controller's authorisations are of its area; grouped all the same, as each event names its area.
      for (const areaId of new Set(moved.map((m) => m.AreaId)))
        await emitAuthorisations(
          { ...ctx, areaId },
          trx,
          moved.filter((m) => m.AreaId === areaId).map((m) => m.Id),
          'updated',
        );
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { issued, deleted };
}

/**
 * The controller could not be brought in line for these authorisations: count the attempt, store why, and
 * wait before the next one (doubling from `baseMs` up to `maxMs`). Only pending rows carry a failure.
 */
export async function failSync(
  ctx: ServiceContext,
  rows: SyncRow[],
  reason: 'offline' | 'refused' | 'timeout',
  backoff: { baseMs: number; maxMs: number },
): Promise<void> {
  const ids = rows.filter((r) => r.IssueStatus !== ISSUE.issueSucceeded).map((r) => r.Id);
  const now = ctx.clock.now();
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    // Attempts grow per row; the delay follows the row's own count (capped), computed in SQL on both databases.
    const rowsNow = await ctx.db.kysely
      .selectFrom('CardUserLinkChannel')
      .select(['Id', 'SyncAttempts'])
      .where('Id', 'in', batch)
      .execute();
    const byAttempts = new Map<number, number[]>();
    for (const r of rowsNow) {
      const list = byAttempts.get(r.SyncAttempts) ?? [];
      list.push(r.Id);
      byAttempts.set(r.SyncAttempts, list);
    }
    await fencedWrite(ctx, async (trx) => {
      for (const [attempts, idsAt] of byAttempts) {
        const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempts, 20));
        await trx
          .updateTable('CardUserLinkChannel')
          .set({
            SyncAttempts: sql<number>`"SyncAttempts" + 1`,
            NextSyncAt: now + delay,
            SyncError: reason,
          })
          .where('Id', 'in', idsAt)
          .execute();
      }
    });
  }
}

/** Lets every pending authorisation of a device be tried again now ("sync now"). */
export async function clearSyncBackoff(ctx: ServiceContext, deviceId: number): Promise<void> {
  await ctx.db.kysely
    .updateTable('CardUserLinkChannel')
    .set({ NextSyncAt: null })
    .where('DeviceId', '=', deviceId)
    .where('NextSyncAt', 'is not', null)
    .execute();
}
