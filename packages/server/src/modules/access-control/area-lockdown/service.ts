import { PROTOCOL_WG, doorCount, type AreaLockdownItem, type LockdownMode } from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { actorDisplayName, actorUserId, type Actor, type AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import type { Trx } from '../common.ts';
import { doorState, lockdownItem, lockdownRow } from './items.ts';
import { latestLockdown } from './plan.ts';

/**
 * An area's lockdown or evacuation (docs/access-control.md, "Lockdown and evacuation"; issue 31): the one writer
 * of AreaLockdown and AreaLockdownDoor (with confirm.ts, the controllers' answers). Starting stores the lockdown
 * with one row per door of the area's controllers and raises every controller's rules revision in the same
 * transaction; the instance driving each controller (any instance: the revision is in the database) brings it in
 * line at its next sync round, reading each door back (gateways/wg/rules-sync.ts). Releasing does the same the
 * other way. Both are audited (who, mode, reason or note), told to the area's browsers on every instance (hub
 * `Lockdown`) and to other systems (`area.lockdown_started`, `area.lockdown_released`).
 */

const actorKind = (actor: Actor) => (actor.kind === 'user' || actor.kind === 'key' ? actor.kind : 'system');

const inForce = () => new AppError(409, 'accessControl.error.lockdownInForce');

/** The lockdown in force in the area, if any. */
export async function lockdownInForce(db: Trx, areaId: number): Promise<number | null> {
  const row = await db
    .selectFrom('AreaLockdown')
    .select('Id')
    .where('AreaId', '=', areaId)
    .where('ReleasedAt', 'is', null)
    .executeTakeFirst();
  return row?.Id ?? null;
}

/**
 * Refuses what would change a door's mode by hand while the area is locked down or evacuated (the lockdown holds
 * every door; a door set by hand would leave it).
 */
export async function assertDoorModesFree(db: Trx, areaId: number): Promise<void> {
  if ((await lockdownInForce(db, areaId)) !== null)
    throw new AppError(409, 'accessControl.error.lockdownHoldsDoors');
}

/** The area named in the body is the one of X-Area-Id: any other is not found from here. */
async function areaOf(trx: Trx, ctx: AreaContext, areaId: number): Promise<string> {
  if (areaId !== ctx.areaId) throw notFound();
  const area = await trx.selectFrom('AreaInfo').select('Name').where('Id', '=', areaId).executeTakeFirst();
  if (!area) throw notFound();
  return area.Name;
}

/**
 * One row per door of the area's WG controllers: what the lockdown holds. A door an earlier lockdown changed
 * and whose own mode its controller has not confirmed since keeps the mode it had before that one, so the release
 * of this one gives back the door's own mode, never the earlier lockdown's.
 */
async function storeDoors(
  trx: Trx,
  areaId: number,
  lockdownId: number,
  previous: number | null,
): Promise<number> {
  const devices = await trx
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Type'])
    .where('AreaId', '=', areaId)
    .where('Protocol', '=', PROTOCOL_WG)
    .where('Disabled', '=', 0)
    .execute();
  const carried = previous
    ? await trx
        .selectFrom('AreaLockdownDoor')
        .select(['DeviceId', 'DoorNumber', 'PriorMode', 'PriorDelay', 'PriorReadAt'])
        .where('LockdownId', '=', previous)
        .where('PriorReadAt', 'is not', null)
        .where('RestoredAt', 'is', null)
        .execute()
    : [];
  const before = new Map(carried.map((r) => [`${r.DeviceId}:${r.DoorNumber}`, r]));
  const rows = devices.flatMap((d) =>
    Array.from({ length: doorCount(d.Type) }, (_, i) => {
      const prior = before.get(`${d.Id}:${i + 1}`);
      return {
        LockdownId: lockdownId,
        DeviceId: d.Id,
        DoorNumber: i + 1,
        PriorMode: prior?.PriorMode ?? null,
        PriorDelay: prior?.PriorDelay ?? null,
        PriorReadAt: prior?.PriorReadAt ?? null,
      };
    }),
  );
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('AreaLockdownDoor')
      .values(rows.slice(i, i + 200))
      .execute();
  return rows.length;
}

/** The outward event of a start or a release, in the transaction that stored it. */
async function emitLockdown(
  trx: Trx,
  type: 'area.lockdown_started' | 'area.lockdown_released',
  item: AreaLockdownItem,
  at: number,
): Promise<void> {
  const names = await areaNames(trx, [item.AreaId]);
  await emitEvent(trx, { type, at, data: { ...item, AreaName: names.get(item.AreaId) ?? '' } });
}

/** Tells the area's browsers (every instance: the hub fans out over the cluster bus). */
function announce(ctx: AreaContext, item: AreaLockdownItem): void {
  ctx.seams?.live.publish(item.AreaId, { Type: 'Lockdown', ...item });
}

/**
 * Locks the area down (every door normally closed) or evacuates it (every door normally open): 404 for an area
 * other than the caller's current one, 409 while one is in force. Stored, audited and announced at once; the
 * controllers follow within a sync round and each door's read-back arrives live (LockdownDoor).
 */
export async function startLockdown(
  ctx: AreaContext,
  input: { Id: number; Mode: LockdownMode; Reason: string },
): Promise<AreaLockdownItem> {
  const now = ctx.clock.now();
  const item = await ctx.db.kysely
    .transaction()
    .execute(async (trx) => {
      const name = await areaOf(trx, ctx, input.Id);
      if ((await lockdownInForce(trx, ctx.areaId)) !== null) throw inForce();
      const previous = await latestLockdown(trx, ctx.areaId);
      const row = await trx
        .insertInto('AreaLockdown')
        .values({
          AreaId: ctx.areaId,
          Mode: input.Mode,
          Reason: input.Reason,
          StartedAt: now,
          StartedById: actorUserId(ctx.actor),
          StartedBy: actorDisplayName(ctx.actor),
          StartedByKind: actorKind(ctx.actor),
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const doors = await storeDoors(trx, ctx.areaId, row.Id, previous?.Id ?? null);
      await markRulesChanged(trx, { areaId: ctx.areaId }, now);
      await audit(
        ctx,
        {
          // Named, not passed through: the operation log's words are looked up by these literal actions.
          action: input.Mode === 'lockdown' ? 'lockdown' : 'evacuate',
          entity: 'AreaLockdown',
          entityId: row.Id,
          before: { Name: name },
          after: { Name: name, LockdownMode: input.Mode, Reason: input.Reason, DoorCount: doors },
        },
        trx,
      );
      const stored = await lockdownItem(trx, (await lockdownRow(trx, row.Id))!);
      await emitLockdown(trx, 'area.lockdown_started', stored, now);
      return stored;
    })
    .catch(async (error: unknown) => {
      // Two starts at once: the index on the lockdowns in force lets one in; the other, refused by it, is told
      // the area is locked down already.
      if (error instanceof AppError) throw error;
      if ((await lockdownInForce(ctx.db.kysely, ctx.areaId)) !== null) throw inForce();
      throw error;
    });
  announce(ctx, item);
  return item;
}

/**
 * Releases the area's lockdown or evacuation with a note: 409 when none is in force. Each door its controller
 * changed is given back its own mode, delay and schedule at the controller's next sync round.
 */
export async function releaseLockdown(
  ctx: AreaContext,
  input: { Id: number; Note: string },
): Promise<AreaLockdownItem> {
  const now = ctx.clock.now();
  const item = await ctx.db.kysely.transaction().execute(async (trx) => {
    const name = await areaOf(trx, ctx, input.Id);
    const id = await lockdownInForce(trx, ctx.areaId);
    if (id === null) throw new AppError(409, 'accessControl.error.lockdownNone');
    // Conditional on still being in force: of two releases at once, one releases and the other is told so.
    const released = await trx
      .updateTable('AreaLockdown')
      .set({
        ReleasedAt: now,
        ReleasedById: actorUserId(ctx.actor),
        ReleasedBy: actorDisplayName(ctx.actor),
        ReleasedByKind: actorKind(ctx.actor),
        Note: input.Note,
      })
      .where('Id', '=', id)
      .where('ReleasedAt', 'is', null)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) === 0) throw new AppError(409, 'accessControl.error.lockdownNone');
    await markRulesChanged(trx, { areaId: ctx.areaId }, now);
    const row = (await lockdownRow(trx, id))!;
    await audit(
      ctx,
      {
        action: 'releaseLockdown',
        entity: 'AreaLockdown',
        entityId: id,
        before: { Name: name, LockdownMode: row.Mode },
        after: { Name: name, LockdownMode: row.Mode, ReleaseNote: input.Note },
      },
      trx,
    );
    const stored = await lockdownItem(trx, row);
    await emitLockdown(trx, 'area.lockdown_released', stored, now);
    return stored;
  });
  announce(ctx, item);
  return item;
}

/**
 * The area's lockdown in force, else its last one while a door of it is still being given back its own mode
 * (the door monitor shows that too); null otherwise.
 */
export async function currentLockdown(ctx: AreaContext): Promise<{ Lockdown: AreaLockdownItem | null }> {
  const k = ctx.db.kysely;
  const latest = await latestLockdown(k, ctx.areaId);
  if (!latest) return { Lockdown: null };
  const row = (await lockdownRow(k, latest.Id))!;
  if (row.ReleasedAt !== null) {
    const doors = await k
      .selectFrom('AreaLockdownDoor')
      .select(['HeldAt', 'RestoredAt', 'PriorReadAt'])
      .where('LockdownId', '=', row.Id)
      .execute();
    if (!doors.some((d) => doorState(false, d) === 'restoring')) return { Lockdown: null };
  }
  return { Lockdown: await lockdownItem(k, row) };
}
