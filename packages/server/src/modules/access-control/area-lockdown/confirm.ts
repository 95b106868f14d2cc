import type { AreaLockdownDoor, LockdownMode } from '@gatehouse/shared';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';
import { areaNames, emitEvents } from '../../../platform/outbox/outbox.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import { lockdownDoorItems, lockdownRow } from './items.ts';

/**
 * What the controllers answered under a lockdown (docs/access-control.md, "Lockdown and evacuation"), stored for
 * the gateway's rules pass (gateways/wg/rules-sync.ts) behind its lease on the controller: the mode a door held
 * before anything was written, and what each door answered when read back after the writes. The one other
 * writer of AreaLockdownDoor besides service.ts, in the same feature.
 */

/**
 * A door's mode and delay as its controller held them before the lockdown wrote its own (read back first): kept
 * once, so the release gives them back; a later read (the lockdown's own mode) never replaces it. A door of a
 * controller that joined the area during the lockdown gets its row here.
 */
export async function lockdownPriorRead(
  ctx: ServiceContext,
  deviceId: number,
  lockdownId: number,
  read: { door: number; mode: number; delay: number },
): Promise<void> {
  const now = ctx.clock.now();
  const prior = { PriorMode: read.mode, PriorDelay: read.delay, PriorReadAt: now };
  await fencedWrite(ctx, (trx) =>
    trx
      .insertInto('AreaLockdownDoor')
      .values({ LockdownId: lockdownId, DeviceId: deviceId, DoorNumber: read.door, ...prior })
      .onConflict((oc) =>
        oc
          .columns(['LockdownId', 'DeviceId', 'DoorNumber'])
          .doUpdateSet(prior)
          .where('AreaLockdownDoor.PriorReadAt', 'is', null),
      )
      .execute(),
  );
}

/** A door read back (0x82) after a rules pass wrote it, and whether it answered what was asked. */
export interface LockdownDoorRead {
  door: number;
  mode: number;
  delay: number;
  phase: 'hold' | 'restore';
  /** The controller answered the mode (and delay) asked for. */
  confirmed: boolean;
}

/** A door whose state changed (held, or restored), as the hub's LockdownDoor carries it. */
export type ConfirmedDoor = AreaLockdownDoor & { LockdownId: number };

/**
 * Stores what the controller's doors answered: the mode last read, and, when it is what was asked, the door held
 * (while the lockdown lasts) or restored (once it was released; a hold read after a release confirms nothing, the
 * next pass gives the door back). Returns the doors whose state changed, each also written as a
 * `door.lockdown_confirmed` event in the same transaction, for the gateway to announce.
 */
export async function lockdownDoorsRead(
  ctx: ServiceContext,
  deviceId: number,
  lockdownId: number,
  reads: readonly LockdownDoorRead[],
): Promise<{ areaId: number; doors: ConfirmedDoor[] }> {
  const now = ctx.clock.now();
  return fencedWrite(ctx, async (trx) => {
    const lockdown = await lockdownRow(trx, lockdownId);
    if (!lockdown || reads.length === 0) return { areaId: lockdown?.AreaId ?? 0, doors: [] };
    const inForce = lockdown.ReleasedAt === null;
    const changed = new Set<number>();
    for (const read of reads) {
      const before = await trx
        .selectFrom('AreaLockdownDoor')
        .select(['HeldAt', 'RestoredAt'])
        .where('LockdownId', '=', lockdownId)
        .where('DeviceId', '=', deviceId)
        .where('DoorNumber', '=', read.door)
        .executeTakeFirst();
      const held = read.confirmed && read.phase === 'hold' && inForce && before?.HeldAt == null;
      const restored = read.confirmed && read.phase === 'restore' && !inForce && before?.RestoredAt == null;
      const values = {
        ReadMode: read.mode,
        ReadDelay: read.delay,
        ReadAt: now,
        ...(held ? { HeldAt: now } : {}),
        ...(restored ? { RestoredAt: now } : {}),
      };
      await trx
        .insertInto('AreaLockdownDoor')
        .values({ LockdownId: lockdownId, DeviceId: deviceId, DoorNumber: read.door, ...values })
        .onConflict((oc) => oc.columns(['LockdownId', 'DeviceId', 'DoorNumber']).doUpdateSet(values))
        .execute();
      if (held || restored) changed.add(read.door);
    }
    if (changed.size === 0) return { areaId: lockdown.AreaId, doors: [] };
    const doors = (await lockdownDoorItems(trx, lockdown, deviceId))
      .filter((d) => changed.has(d.DoorNumber))
      .map((d) => ({ ...d, LockdownId: lockdownId }));
    const names = await areaNames(trx, [lockdown.AreaId]);
    await emitEvents(
      trx,
      doors.map((d) => ({
        type: 'door.lockdown_confirmed' as const,
        at: now,
        data: {
          ...d,
          AreaId: lockdown.AreaId,
          AreaName: names.get(lockdown.AreaId) ?? '',
          LockdownMode: lockdown.Mode as LockdownMode,
        },
      })),
    );
    return { areaId: lockdown.AreaId, doors };
  });
}

/**
 * A controller of a locked-down area found with a door out of the lockdown's mode (gateways/wg/session.ts). One
 * whose rules Gatehouse never set (it joined the area since the lockdown started, so the start did not mark it)
 * would be left as it is by the rules pass: its rules are marked changed, through their owner, so the next pass
 * holds its doors too.
 */
export async function holdController(ctx: ServiceContext, deviceId: number): Promise<void> {
  const row = await ctx.db.kysely
    .selectFrom('AccessControlRuleSync')
    .select('Revision')
    .where('DeviceId', '=', deviceId)
    .executeTakeFirst();
  if (Number(row?.Revision ?? 0) > 0) return;
  await markRulesChanged(ctx.db.kysely, { deviceIds: [deviceId] }, ctx.clock.now());
}
