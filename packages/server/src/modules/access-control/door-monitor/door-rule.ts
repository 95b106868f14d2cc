import type { OpenDoorAlarm } from '@gatehouse/shared';
import { iso, type Trx } from '../common.ts';
import { ALARM } from '../door-alarm/service.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/**
 * What the system knows of a door from its controller's records and status, in one place
 * (docs/access-control.md, "Door monitor and alarms"): the door watch writes it into the door's state (the
 * monitor's tiles, the alarms it raises and clears), and the dashboard's doors in alarm follow the same rule.
 */

/** Record types a controller reports (docs/devices.md, "Record"); records not read from a controller have none. */
export const RECORD = { swipe: 1, door: 2, alarm: 3 } as const;
/** The controller's reason codes (doorEventReason) that say something about the door. */
export const REASON = { doorOpened: 23, doorClosed: 24, openTooLong: 37, forcedOpen: 38 } as const;

/** What is known of a door (AccessControlDoorState). */
export interface DoorFacts {
  Open: number | null;
  Unlocked: number | null;
  Alarm: number | null;
  OpenSince: number | null;
}

export type DoorPatch = Partial<DoorFacts>;

/** What a controller's record says of its door, or null when it says nothing (swipes, buttons, power-on…). */
export function recordPatch(
  r: { EventType: number | null; EventReason: number | null },
  at: number,
): DoorPatch | null {
  if (r.EventType === RECORD.alarm && r.EventReason === REASON.forcedOpen)
    return { Open: 1, Alarm: ALARM.forced };
  if (r.EventType === RECORD.alarm && r.EventReason === REASON.openTooLong)
    return { Open: 1, Alarm: ALARM.heldOpen };
  if (r.EventType === RECORD.door && r.EventReason === REASON.doorOpened) return { Open: 1, OpenSince: at };
  if (r.EventType === RECORD.door && r.EventReason === REASON.doorClosed) return { Open: 0 };
  return null;
}

/** A door's facts after a patch: a door that opens is open since then; a door that closes is in no alarm. */
export function mergeDoor(before: DoorFacts | undefined, patch: DoorPatch, at: number): DoorFacts {
  const merged: DoorFacts = {
    Open: before?.Open ?? null,
    Unlocked: before?.Unlocked ?? null,
    Alarm: before?.Alarm ?? null,
    OpenSince: before?.OpenSince ?? null,
    ...patch,
  };
  if (patch.Open === 1 && before?.Open !== 1) merged.OpenSince = patch.OpenSince ?? at;
  if (patch.Open === 0) Object.assign(merged, { OpenSince: null, Alarm: null });
  return merged;
}

/** How far back an alarm that nothing cleared still counts as open. */
export const ALARM_WINDOW_MS = 24 * 3_600_000;

/**
 * Doors in alarm: per door, its newest alarm record since `since` that is still open. An alarm is over once the
 * system knows the door closed after it:
 * - a door-closed record of the door later than the alarm: later in time; within one instant, later in the ring,
 *   or stored later where a record has no ring index (a ring that started over leaves the records before it
 *   without one, so ring indexes alone do not order them);
 * - or the door's state from the controller's status says closed and the door watch has already taken the alarm
 *   in (its watermark is past it): the state is then newer than the alarm. This is what clears the door
 *   monitor's forced and held-open alarms too (a door that closes, by record or by status, clears them), so
 *   the dashboard, the monitor and the alarm list agree; a controller without door-sensor records (special
 *   events off) or a restart between the alarm and the closing no longer leaves a closed door in alarm.
 */
export async function doorsInAlarm(db: Trx, areaId: number, since: number): Promise<OpenDoorAlarm[]> {
  const alarms = await db
    .selectFrom('DoorOpeningRecord as A')
    .leftJoin('AccessControlDoorState as S', (j) =>
      j.onRef('S.DeviceId', '=', 'A.DeviceId').onRef('S.DoorNumber', '=', 'A.DoorNumber'),
    )
    .leftJoin('AccessControlRuleSync as W', 'W.DeviceId', 'A.DeviceId')
    .select(['A.Id', 'A.At', 'A.DeviceId', 'A.DeviceName', 'A.DoorNumber', 'A.ChannelName', 'A.EventReason'])
    .where('A.AreaId', '=', areaId)
    .where('A.At', '>=', since)
    .where('A.EventType', '=', RECORD.alarm)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('DoorOpeningRecord as C')
            .select('C.Id')
            .whereRef('C.DeviceId', '=', 'A.DeviceId')
            .whereRef('C.DoorNumber', '=', 'A.DoorNumber')
            .where('C.EventType', '=', RECORD.door)
            .where('C.EventReason', '=', REASON.doorClosed)
            .where(({ eb, and, or }) =>
              or([
                eb('C.At', '>', eb.ref('A.At')),
                and([
                  eb('C.At', '=', eb.ref('A.At')),
                  or([
                    and([
                      eb('C.RecordIndex', 'is not', null),
                      eb('A.RecordIndex', 'is not', null),
                      eb('C.RecordIndex', '>', eb.ref('A.RecordIndex')),
                    ]),
                    and([
                      or([eb('C.RecordIndex', 'is', null), eb('A.RecordIndex', 'is', null)]),
                      eb('C.Id', '>', eb.ref('A.Id')),
                    ]),
                  ]),
                ]),
              ]),
            ),
        ),
      ),
    )
    // Not known closed since: no status, the door open, or a status older than the alarm (the watch is behind).
    .where(({ eb, or }) =>
      or([
        eb('S.Open', 'is', null),
        eb('S.Open', '!=', 0),
        eb('W.RecordWatermark', 'is', null),
        eb('W.RecordWatermark', '<', eb.ref('A.Id')),
      ]),
    )
    .orderBy('A.At', 'desc')
    .orderBy('A.Id', 'desc')
    .execute();
  const doors = new Map<string, OpenDoorAlarm>();
  for (const a of alarms) {
    const key = `${a.DeviceId}:${a.DoorNumber}`;
    if (doors.has(key)) continue;
    doors.set(key, {
      Id: a.Id,
      At: iso(a.At)!,
      DeviceId: a.DeviceId,
      DeviceName: a.DeviceName,
      DoorNumber: a.DoorNumber,
      ChannelName: a.ChannelName,
      EventReason: numberOrNull(a.EventReason),
    });
  }
  return [...doors.values()];
}
