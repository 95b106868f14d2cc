import {
  DOOR_DELAY_DEFAULT,
  LOCKDOWN_DOOR_MODE,
  dayNumber,
  dayText,
  fromLocalTime,
  isoWeekday,
  localDateKey,
  minuteOfDay,
  weekdaysOf,
  type LockdownMode,
} from '@gatehouse/shared';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import type { Trx } from '../common.ts';

/**
 * What a lockdown asks of one controller (docs/access-control.md, "Lockdown and evacuation"), read by the rules
 * plan (access-control-device/rules.ts) and written over the wire by the gateway's rules pass: while it lasts,
 * every door held in the lockdown's mode; once released, each door it may have changed given back its own mode
 * and delay, once. Only the area's latest lockdown counts: a newer one takes over the doors of an older one.
 */

/** The door actions of a schedule that set a door mode (doorScheduleAction 1, 2, 3 = 0x80 modes 1, 2, 3). */
export const MODE_ACTIONS: readonly number[] = [1, 2, 3];

/** Controlled, the mode a door is in when nothing else is known (a controller's own default). */
const CONTROLLED = 3;

export interface LockdownDoorPlan {
  door: number;
  /** The mode to hold (the lockdown's) or to give back (the door's own). */
  mode: number;
  /** The delay to write with it; null: keep the controller's own (read back first). */
  delay: number | null;
  /** `hold` while the lockdown lasts, `restore` once released and not yet confirmed. */
  phase: 'hold' | 'restore';
  /** Whether the door's mode before the lockdown was read back already (it is read before the first write). */
  priorRead: boolean;
}

export interface LockdownPlan {
  lockdownId: number;
  mode: LockdownMode;
  inForce: boolean;
  doors: LockdownDoorPlan[];
}

/** The area's latest lockdown (in force or not), if any. */
export async function latestLockdown(db: Trx, areaId: number) {
  return db
    .selectFrom('AreaLockdown')
    .select(['Id', 'AreaId', 'Mode', 'StartedAt', 'ReleasedAt'])
    .where('AreaId', '=', areaId)
    .orderBy('Id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A door schedule of a controller, as the restore reads it. */
export interface ScheduleRow {
  DoorNumber: number;
  Action: number;
  Time: string;
  Weekdays: number;
  StartDate: string;
  EndDate: string;
}

/**
 * The mode the door's schedules last set between `from` (excluded) and `to` (included), in the area's zone, or
 * null when none came due: what the door would be in had the lockdown not held it (a schedule sets a mode until
 * another schedule or an operator changes it). Days are walked back from `to`, so the first day with a due
 * schedule holds the latest one.
 */
export function scheduleModeDuring(
  schedules: readonly ScheduleRow[],
  door: number,
  from: number,
  to: number,
  zone: string,
): number | null {
  const mine = schedules.filter((s) => s.DoorNumber === door && MODE_ACTIONS.includes(s.Action));
  if (mine.length === 0 || to <= from) return null;
  const first = dayNumber(localDateKey(from, zone));
  const last = dayNumber(localDateKey(to, zone));
  // A lockdown of more than a year is not a case the site meets; the walk stays bounded anyway.
  for (let day = last; day >= Math.max(first, last - 400); day--) {
    const date = dayText(day);
    const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
    let best: { at: number; action: number } | null = null;
    for (const s of mine) {
      if (date < s.StartDate || date > s.EndDate) continue;
      if (!weekdaysOf(s.Weekdays).includes(isoWeekday(day))) continue;
      const minute = minuteOfDay(s.Time);
      const at = fromLocalTime(
        {
          year,
          month,
          day: dayOfMonth,
          hour: Math.floor(minute / 60),
          minute: minute % 60,
          second: 0,
          millisecond: 0,
        },
        zone,
      );
      if (at <= from || at > to) continue;
      if (!best || at >= best.at) best = { at, action: s.Action };
    }
    if (best) return best.action;
  }
  return null;
}

/** A door's row of a lockdown, as the plan and the screens read it. */
export interface LockdownDoorRow {
  DeviceId: number;
  DoorNumber: number;
  PriorMode: number | null;
  PriorDelay: number | null;
  PriorReadAt: number | null;
  ReadMode: number | null;
  ReadDelay: number | null;
  ReadAt: number | null;
  HeldAt: number | null;
  RestoredAt: number | null;
}

/** The mode and delay an operator set for a door (0x80, kept to give back), by device and door. */
export type DoorRules = Map<string, { Mode: number | null; Delay: number | null }>;

export const doorKey = (deviceId: number, door: number) => `${deviceId}:${door}`;

/**
 * A door's own mode and delay after a lockdown: the mode its schedules set while the lockdown held it, else the
 * mode an operator set for it, else the one its controller held before; the delay an operator set, else the one
 * it held before; controlled with the default delay when nothing is known.
 */
export function ownMode(
  row: Pick<LockdownDoorRow, 'DeviceId' | 'DoorNumber' | 'PriorMode' | 'PriorDelay'>,
  rules: DoorRules,
  scheduled: number | null,
): { mode: number; delay: number } {
  const rule = rules.get(doorKey(row.DeviceId, row.DoorNumber));
  return {
    mode: scheduled ?? rule?.Mode ?? row.PriorMode ?? CONTROLLED,
    delay: rule?.Delay ?? row.PriorDelay ?? DOOR_DELAY_DEFAULT,
  };
}

/** The doors' rules (mode and delay) and schedules of these controllers, for ownMode and scheduleModeDuring. */
export async function restoreInputs(db: Trx, deviceIds: number[]) {
  const ids = deviceIds.length ? deviceIds : [0];
  const [rules, schedules] = await Promise.all([
    db
      .selectFrom('AccessControlDoorRule')
      .select(['DeviceId', 'DoorNumber', 'Mode', 'Delay'])
      .where('DeviceId', 'in', ids)
      .execute(),
    db
      .selectFrom('DoorSchedule')
      .select(['DeviceId', 'DoorNumber', 'Action', 'Time', 'Weekdays', 'StartDate', 'EndDate'])
      .where('DeviceId', 'in', ids)
      .execute(),
  ]);
  const doorRules: DoorRules = new Map(
    rules.map((r) => [doorKey(r.DeviceId, r.DoorNumber), { Mode: r.Mode, Delay: r.Delay }]),
  );
  return {
    rules: doorRules,
    schedulesOf: (deviceId: number) => schedules.filter((s) => s.DeviceId === deviceId),
  };
}

/**
 * What the area's latest lockdown asks of this controller now, or null when nothing: every door held in the
 * lockdown's mode while it lasts (a door rule's delay kept, else the controller's own); once released, the doors
 * it may have changed (their mode before was read) and whose own mode is not confirmed yet, each given back.
 */
export async function lockdownPlan(
  db: Trx,
  device: { Id: number; AreaId: number },
  doors: number,
): Promise<LockdownPlan | null> {
  const lockdown = await latestLockdown(db, device.AreaId);
  if (!lockdown) return null;
  const rows = await db
    .selectFrom('AreaLockdownDoor')
    .selectAll()
    .where('LockdownId', '=', lockdown.Id)
    .where('DeviceId', '=', device.Id)
    .where('DoorNumber', '<=', doors)
    .execute();
  const { rules, schedulesOf } = await restoreInputs(db, [device.Id]);
  const mode = lockdown.Mode as LockdownMode;
  const head = { lockdownId: lockdown.Id, mode };
  if (lockdown.ReleasedAt === null) {
    const byDoor = new Map(rows.map((r) => [r.DoorNumber, r]));
    return {
      ...head,
      inForce: true,
      doors: Array.from({ length: doors }, (_, i) => {
        const row = byDoor.get(i + 1);
        return {
          door: i + 1,
          mode: LOCKDOWN_DOOR_MODE[mode],
          delay: rules.get(doorKey(device.Id, i + 1))?.Delay ?? row?.PriorDelay ?? null,
          phase: 'hold' as const,
          priorRead: row?.PriorReadAt != null,
        };
      }),
    };
  }
  const zone = await areaTimeZone(db, device.AreaId);
  const schedules = schedulesOf(device.Id);
  const open = rows.filter((r) => r.PriorReadAt !== null && r.RestoredAt === null);
  if (open.length === 0) return null;
  return {
    ...head,
    inForce: false,
    doors: open.map((r) => {
      const scheduled = scheduleModeDuring(
        schedules,
        r.DoorNumber,
        Number(lockdown.StartedAt),
        Number(lockdown.ReleasedAt),
        zone,
      );
      const own = ownMode(r, rules, scheduled);
      return { door: r.DoorNumber, ...own, phase: 'restore' as const, priorRead: true };
    }),
  };
}

/**
 * The mode every door of the controller's area must hold now, or null when the area is under no lockdown: what
 * the gateway's session compares each door with at every poll, so a controller that reset (or a door set by
 * another tool) gets the mode again at once rather than at the next check for a reset.
 */
export async function lockdownHoldMode(db: Trx, areaId: number): Promise<number | null> {
  const lockdown = await latestLockdown(db, areaId);
  return lockdown && lockdown.ReleasedAt === null ? LOCKDOWN_DOOR_MODE[lockdown.Mode as LockdownMode] : null;
}
