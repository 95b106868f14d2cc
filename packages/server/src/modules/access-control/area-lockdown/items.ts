import {
  LOCKDOWN_DOOR_MODE,
  type AreaLockdownDoor,
  type AreaLockdownItem,
  type LockdownDoorState,
  type LockdownMode,
} from '@gatehouse/shared';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import { isoOrNull, numberOrNull } from '../../../platform/instants.ts';
import type { Trx } from '../common.ts';
import { ownMode, restoreInputs, scheduleModeDuring, type LockdownDoorRow } from './plan.ts';

/** A lockdown as stored, the head of its item. */
export interface LockdownRow {
  Id: number;
  AreaId: number;
  Mode: string;
  Reason: string;
  StartedAt: number;
  StartedBy: string;
  StartedByKind: string;
  ReleasedAt: number | null;
  ReleasedBy: string | null;
  ReleasedByKind: string | null;
  Note: string | null;
}

const LOCKDOWN_COLUMNS = [
  'Id',
  'AreaId',
  'Mode',
  'Reason',
  'StartedAt',
  'StartedBy',
  'StartedByKind',
  'ReleasedAt',
  'ReleasedBy',
  'ReleasedByKind',
  'Note',
] as const;

export async function lockdownRow(db: Trx, id: number): Promise<LockdownRow | undefined> {
  const row = await db
    .selectFrom('AreaLockdown')
    .select(LOCKDOWN_COLUMNS)
    .where('Id', '=', id)
    .executeTakeFirst();
  return row && { ...row, StartedAt: Number(row.StartedAt), ReleasedAt: numberOrNull(row.ReleasedAt) };
}

/** Where a door stands under its lockdown (LOCKDOWN_DOOR_STATES). */
export function doorState(
  inForce: boolean,
  row: Pick<LockdownDoorRow, 'HeldAt' | 'RestoredAt' | 'PriorReadAt'>,
): LockdownDoorState {
  if (inForce) return row.HeldAt !== null ? 'held' : 'pending';
  if (row.RestoredAt !== null) return 'restored';
  return row.PriorReadAt === null ? 'unreached' : 'restoring';
}

/** The door as the screens and events show it. */
async function doorsOf(
  db: Trx,
  lockdown: LockdownRow,
  only?: { deviceId: number },
): Promise<AreaLockdownDoor[]> {
  let query = db
    .selectFrom('AreaLockdownDoor as L')
    .innerJoin('AccessControlDevice as D', 'D.Id', 'L.DeviceId')
    .selectAll('L')
    .select(['D.Name as DeviceName', 'D.SerialNumber'])
    .where('L.LockdownId', '=', lockdown.Id);
  if (only) query = query.where('L.DeviceId', '=', only.deviceId);
  const rows = (await query.orderBy('D.Name').orderBy('D.Id').orderBy('L.DoorNumber').execute()).map((r) => ({
    ...r,
    PriorReadAt: numberOrNull(r.PriorReadAt),
    ReadAt: numberOrNull(r.ReadAt),
    HeldAt: numberOrNull(r.HeldAt),
    RestoredAt: numberOrNull(r.RestoredAt),
  }));
  const deviceIds = [...new Set(rows.map((r) => r.DeviceId))];
  const channels = await db
    .selectFrom('AccessControlChannel')
    .select(['DeviceId', 'DoorNumber', 'Name'])
    .where('DeviceId', 'in', deviceIds.length ? deviceIds : [0])
    .orderBy('Direction')
    .execute();
  const inForce = lockdown.ReleasedAt === null;
  const { rules, schedulesOf } = await restoreInputs(db, deviceIds);
  const zone = inForce ? '' : await areaTimeZone(db, lockdown.AreaId);
  return rows.map((r) => {
    const names = channels.filter((c) => c.DeviceId === r.DeviceId && c.DoorNumber === r.DoorNumber);
    const state = doorState(inForce, r);
    const own = () =>
      ownMode(
        r,
        rules,
        scheduleModeDuring(
          schedulesOf(r.DeviceId),
          r.DoorNumber,
          lockdown.StartedAt,
          lockdown.ReleasedAt!,
          zone,
        ),
      ).mode;
    return {
      DeviceId: r.DeviceId,
      DeviceName: r.DeviceName,
      SerialNumber: r.SerialNumber,
      DoorNumber: r.DoorNumber,
      DoorName: names.length ? names.map((c) => c.Name).join(' / ') : null,
      State: state,
      Wanted: inForce
        ? LOCKDOWN_DOOR_MODE[lockdown.Mode as LockdownMode]
        : state === 'unreached'
          ? null
          : own(),
      Mode: r.ReadMode,
      Delay: r.ReadDelay,
      ReadAt: isoOrNull(r.ReadAt),
    };
  });
}

/** One door of a lockdown as the screens show it (after its controller answered). */
export async function lockdownDoorItems(
  db: Trx,
  lockdown: LockdownRow,
  deviceId: number,
): Promise<AreaLockdownDoor[]> {
  return doorsOf(db, lockdown, { deviceId });
}

/** The lockdown as its banner, the door monitor, the hub and the outward events show it. */
export async function lockdownItem(db: Trx, lockdown: LockdownRow): Promise<AreaLockdownItem> {
  const doors = await doorsOf(db, lockdown);
  const confirmed = doors.filter((d) => ['held', 'restored', 'unreached'].includes(d.State)).length;
  return {
    Id: lockdown.Id,
    AreaId: lockdown.AreaId,
    Mode: lockdown.Mode as LockdownMode,
    Reason: lockdown.Reason,
    StartedAt: isoOrNull(lockdown.StartedAt)!,
    StartedBy: lockdown.StartedBy,
    StartedByKind: lockdown.StartedByKind as AreaLockdownItem['StartedByKind'],
    ReleasedAt: isoOrNull(lockdown.ReleasedAt),
    ReleasedBy: lockdown.ReleasedBy,
    ReleasedByKind: lockdown.ReleasedByKind as AreaLockdownItem['ReleasedByKind'],
    Note: lockdown.Note,
    Doors: doors,
    Confirmed: confirmed,
    Total: doors.length,
  };
}
