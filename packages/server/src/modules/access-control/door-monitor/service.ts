import {
  HELD_OPEN_DEFAULT_SECONDS,
  doorCount,
  type DoorLiveItem,
  type DoorMonitorReply,
} from '@gatehouse/shared';
import { sql } from 'kysely';
import type { AreaContext, ServiceContext } from '../../../platform/context.ts';
import { isoOrNull } from '../../../platform/instants.ts';
import { areaNames, emitEvents } from '../../../platform/outbox/outbox.ts';
import type { Trx } from '../common.ts';
import { ALARM, clearAlarms, openAlarms, raiseAlarm, type AlarmChange } from '../door-alarm/service.ts';
import { listSwipes } from '../door-opening-record/list.ts';
import { DAY_MS } from '../door-opening-record/service.ts';
import { RECORD, mergeDoor, recordPatch, type DoorFacts, type DoorPatch } from './door-rule.ts';
import { storeRecordWatermark } from '../access-control-device/rules.ts';

/**
 * The live state of the doors (docs/access-control.md, "Door monitor and alarms"), kept by the device gateway
 * through these services: door sensor and lock relay from status replies and pushed events, forced and
 * held-open conditions from the controller's records and the held-open limit, a controller that stops
 * answering. What changed is returned for the gateway to announce (DoorState, AlarmRaised, AlarmChanged).
 */

export const DOOR = {
  unknown: 0,
  closed: 1,
  open: 2,
  unlocked: 3,
  heldOpen: 4,
  forced: 5,
  offline: 6,
} as const;
/** Refused swipes at one door within this window… */
export const REFUSED_WINDOW_MS = 60_000;
/** …from this many on raise an alarm. */
export const REFUSED_LIMIT = 3;

export interface DoorChanges {
  doors: { areaId: number; item: DoorLiveItem }[];
  alarms: AlarmChange[];
}

const none = (): DoorChanges => ({ doors: [], alarms: [] });

interface StateRow {
  Open: number | null;
  Unlocked: number | null;
  Alarm: number | null;
}

/** What the monitor shows for a door, from what is known of it. */
export function liveState(online: boolean | null, row: StateRow | undefined): number {
  if (online === false) return DOOR.offline;
  if (!row) return DOOR.unknown;
  if (row.Alarm === ALARM.forced) return DOOR.forced;
  if (row.Alarm === ALARM.heldOpen) return DOOR.heldOpen;
  if (row.Open === 1) return DOOR.open;
  if (row.Unlocked === 1) return DOOR.unlocked;
  return row.Open === 0 ? DOOR.closed : DOOR.unknown;
}

/**
 * Doors of the controllers (all of an area's, or these), as the monitor lists them. With `unwatched`, what the
 * records stored since the door watch last looked say of their doors is shown already (the same rule as the
 * watch's, door-rule.ts): a forced door shows on the monitor as soon as its record is stored, as on the
 * dashboard, not at the watch's next look.
 */
export async function doorItems(
  db: Trx,
  where: { areaId: number } | { deviceIds: number[] },
  unwatched = false,
) {
  let devices = db
    .selectFrom('AccessControlDevice as D')
    .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'D.Id')
    .select(['D.Id', 'D.AreaId', 'D.Name', 'D.SerialNumber', 'D.Type', 'S.Online'])
    .where('D.Protocol', '=', 0)
    .where('D.Disabled', '=', 0)
    .where('D.AreaId', 'is not', null);
  devices =
    'areaId' in where
      ? devices.where('D.AreaId', '=', where.areaId)
      : devices.where('D.Id', 'in', where.deviceIds.length ? where.deviceIds : [0]);
  const list = await devices.orderBy('D.Name').orderBy('D.Id').execute();
  const ids = list.map((d) => d.Id);
  if (ids.length === 0) return [];
  const [states, rules, channels, fresh] = await Promise.all([
    db.selectFrom('AccessControlDoorState').selectAll().where('DeviceId', 'in', ids).execute(),
    db
      .selectFrom('AccessControlDoorRule')
      .select(['DeviceId', 'DoorNumber', 'HeldOpenSeconds'])
      .where('DeviceId', 'in', ids)
      .execute(),
    db
      .selectFrom('AccessControlChannel')
      .select(['DeviceId', 'DoorNumber', 'Name'])
      .where('DeviceId', 'in', ids)
      .orderBy('Direction')
      .execute(),
    unwatched ? unwatchedRecords(db, ids) : [],
  ]);
  const key = (d: number, n: number) => `${d}:${n}`;
  const state = new Map<string, DoorFacts & { Since: number | null }>(
    states.map((s) => [key(s.DeviceId, s.DoorNumber), s]),
  );
  const onlineOf = new Map(list.map((d) => [d.Id, d.Online === null ? null : Number(d.Online) === 1]));
  for (const r of fresh) {
    const at = Number(r.At);
    const patch = recordPatch(r, at);
    if (!patch) continue;
    const before = state.get(key(r.DeviceId, r.DoorNumber));
    const merged = mergeDoor(before, patch, at);
    // As the watch will store it (patchDoor): the state's start moves only when the state changes. A door the
    // controller's status already showed open stays open since then, as its door.state event said.
    const online = onlineOf.get(r.DeviceId) ?? null;
    const changed = liveState(online, merged) !== liveState(online, before);
    state.set(key(r.DeviceId, r.DoorNumber), { ...merged, Since: changed ? at : (before?.Since ?? at) });
  }
  const held = new Map(rules.map((r) => [key(r.DeviceId, r.DoorNumber), r.HeldOpenSeconds]));
  return list.flatMap((d) =>
    Array.from({ length: doorCount(d.Type) }, (_, i): { areaId: number; item: DoorLiveItem } => {
      const door = i + 1;
      const s = state.get(key(d.Id, door));
      const online = d.Online === null ? null : Number(d.Online) === 1;
      const names = channels.filter((c) => c.DeviceId === d.Id && c.DoorNumber === door).map((c) => c.Name);
      return {
        areaId: d.AreaId!,
        item: {
          DeviceId: d.Id,
          DeviceName: d.Name,
          SerialNumber: d.SerialNumber,
          DoorNumber: door,
          DoorName: names.length ? names.join(' / ') : null,
          State: liveState(online, s),
          Open: s?.Open === null || s?.Open === undefined ? null : Number(s.Open) === 1,
          Unlocked: s?.Unlocked === null || s?.Unlocked === undefined ? null : Number(s.Unlocked) === 1,
          Since: isoOrNull(s?.Since ?? null),
          HeldOpenSeconds: held.get(key(d.Id, door)) ?? HELD_OPEN_DEFAULT_SECONDS,
        },
      };
    }),
  );
}

/** Door events and alarms of these controllers stored after the door watch's watermark, in stored order. */
function unwatchedRecords(db: Trx, deviceIds: number[]) {
  return db
    .selectFrom('DoorOpeningRecord as R')
    .innerJoin('AccessControlRuleSync as W', 'W.DeviceId', 'R.DeviceId')
    .select(['R.DeviceId', 'R.DoorNumber', 'R.At', 'R.EventType', 'R.EventReason'])
    .where('R.DeviceId', 'in', deviceIds)
    .where('W.RecordWatermark', 'is not', null)
    .whereRef('R.Id', '>', 'W.RecordWatermark')
    .where('R.EventType', 'in', [RECORD.door, RECORD.alarm])
    .orderBy('R.Id')
    .limit(500)
    .execute();
}

/** The monitor screen: every door of the area, the latest events, the open alarms. */
export async function doorMonitor(ctx: AreaContext): Promise<DoorMonitorReply> {
  const [doors, events, alarms] = await Promise.all([
    doorItems(ctx.db.kysely, { areaId: ctx.areaId }, true),
    // The feed: the newest records of the last week (the list's own fast path, per-day counts first).
    listSwipes(ctx.db.kysely, ctx.areaId, { StartTime: ctx.clock.now() - 7 * DAY_MS }, 0, 30),
    openAlarms(ctx, 50),
  ]);
  return { Doors: doors.map((d) => d.item), Events: events.Items, OpenAlarms: alarms.Items };
}

/**
 * Writes what is now known of a door and recomputes its state; returns the door when its state changed (or
 * always, with `force`). A door that closes clears its forced and held-open alarms.
 */
async function patchDoor(
  ctx: ServiceContext,
  trx: Trx,
  deviceId: number,
  door: number,
  patch: DoorPatch,
  at: number,
): Promise<DoorChanges> {
  const before = await trx
    .selectFrom('AccessControlDoorState')
    .selectAll()
    .where('DeviceId', '=', deviceId)
    .where('DoorNumber', '=', door)
    .executeTakeFirst();
  const merged = mergeDoor(before, patch, at);
  const online = await deviceOnline(trx, deviceId);
  const state = liveState(online, merged);
  const changed = state !== before?.State;
  const row = {
    Open: merged.Open,
    Unlocked: merged.Unlocked,
    Alarm: merged.Alarm,
    OpenSince: merged.OpenSince,
    State: state,
    Since: changed ? at : (before?.Since ?? at),
    UpdatedAt: ctx.clock.now(),
  };
  await trx
    .insertInto('AccessControlDoorState')
    .values({ DeviceId: deviceId, DoorNumber: door, ...row })
    .onConflict((oc) => oc.columns(['DeviceId', 'DoorNumber']).doUpdateSet(row))
    .execute();
  const out = none();
  if (patch.Open === 0 && before?.Alarm)
    out.alarms.push(...(await clearAlarms(trx, deviceId, door, [ALARM.forced, ALARM.heldOpen], at)));
  if (changed) {
    const doors = (await doorItems(trx, { deviceIds: [deviceId] })).filter((d) => d.item.DoorNumber === door);
    out.doors.push(...doors);
    await emitDoorStates(trx, doors, at);
  }
  return out;
}

/**
 * Doors whose live state changed as `door.state` events of the outbox (platform/outbox), in the transaction that
 * stores the state: each as the door monitor shows it. MQTT keeps the last one of each door retained
 * (`gatehouse/<areaId>/state/door/<deviceId>-<doorNumber>`).
 */
async function emitDoorStates(
  trx: Trx,
  doors: { areaId: number; item: DoorLiveItem }[],
  at: number,
): Promise<void> {
  if (doors.length === 0) return;
  const names = await areaNames(
    trx,
    doors.map((d) => d.areaId),
  );
  await emitEvents(
    trx,
    doors.map((d) => ({
      type: 'door.state' as const,
      at,
      data: { ...d.item, AreaId: d.areaId, AreaName: names.get(d.areaId) ?? '' },
    })),
  );
}

async function deviceOnline(db: Trx, deviceId: number): Promise<boolean | null> {
  const s = await db
    .selectFrom('AccessControlDeviceState')
    .select('Online')
    .where('DeviceId', '=', deviceId)
    .executeTakeFirst();
  return s?.Online === null || s?.Online === undefined ? null : Number(s.Online) === 1;
}

function merge(into: DoorChanges, more: DoorChanges): DoorChanges {
  into.doors.push(...more.doors);
  into.alarms.push(...more.alarms);
  return into;
}

/** Door sensors and lock relays as a status reply or a pushed event reports them (doors 1..n). */
export async function noteDoorStatus(
  ctx: ServiceContext,
  deviceId: number,
  doors: { door: number; open: boolean; unlocked: boolean }[],
): Promise<DoorChanges> {
  const at = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const out = none();
    for (const d of doors)
      merge(
        out,
        await patchDoor(
          ctx,
          trx,
          deviceId,
          d.door,
          { Open: d.open ? 1 : 0, Unlocked: d.unlocked ? 1 : 0 },
          at,
        ),
      );
    return out;
  });
}

/** A controller stopped answering (an alarm, every door offline) or answers again (the alarm clears). */
export async function noteControllerOnline(
  ctx: ServiceContext,
  deviceId: number,
  online: boolean,
): Promise<DoorChanges> {
  const at = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const device = await deviceRef(trx, deviceId);
    if (!device) return none();
    const out = none();
    if (online) out.alarms.push(...(await clearAlarms(trx, deviceId, 0, [ALARM.offline], at)));
    else
      out.alarms.push(
        await raiseAlarm(ctx, trx, { device, door: 0, doorName: null, kind: ALARM.offline, at }),
      );
    for (let door = 1; door <= doorCount(device.Type); door++)
      merge(out, await patchDoor(ctx, trx, deviceId, door, {}, at));
    return out;
  });
}

async function deviceRef(db: Trx, deviceId: number) {
  const d = await db
    .selectFrom('AccessControlDevice')
    .select(['Id', 'AreaId', 'Name', 'Type'])
    .where('Id', '=', deviceId)
    .executeTakeFirst();
  return d && d.AreaId !== null ? { ...d, AreaId: d.AreaId } : undefined;
}

async function doorName(db: Trx, deviceId: number, door: number): Promise<string | null> {
  const rows = await db
    .selectFrom('AccessControlChannel')
    .select('Name')
    .where('DeviceId', '=', deviceId)
    .where('DoorNumber', '=', door)
    .orderBy('Direction')
    .execute();
  return rows.length ? rows.map((r) => r.Name).join(' / ') : null;
}

/**
 * What the controllers' new records say about their doors, read past each controller's watermark (the first
 * look starts at the newest record: history raises nothing): forced and held-open alarms, doors opening and
 * closing, refused swipes piling up at one door. Then every open door past its limit is held open.
 */
export async function watchDoors(ctx: ServiceContext, deviceIds: number[]): Promise<DoorChanges> {
  const out = none();
  for (const deviceId of deviceIds) {
    merge(out, await ctx.db.kysely.transaction().execute((trx) => scanRecords(ctx, trx, deviceId)));
  }
  return merge(out, await heldOpen(ctx, deviceIds));
}

async function scanRecords(ctx: ServiceContext, trx: Trx, deviceId: number): Promise<DoorChanges> {
  const device = await deviceRef(trx, deviceId);
  if (!device) return none();
  const sync = await trx
    .selectFrom('AccessControlRuleSync')
    .select('RecordWatermark')
    .where('DeviceId', '=', deviceId)
    .executeTakeFirst();
  const newest = await trx
    .selectFrom('DoorOpeningRecord')
    .select((eb) => eb.fn.max('Id').as('n'))
    .executeTakeFirst();
  const mark = sync?.RecordWatermark ?? null;
  const records =
    mark === null
      ? []
      : await trx
          .selectFrom('DoorOpeningRecord')
          .select(['Id', 'At', 'DoorNumber', 'EventType', 'EventReason', 'Result', 'CardNumber'])
          .where('Id', '>', Number(mark))
          .where('DeviceId', '=', deviceId)
          .orderBy('Id')
          .limit(500)
          .execute();
  const out = none();
  for (const r of records) merge(out, await recordSays(ctx, trx, device, r));
  out.alarms.push(...(await refusedAlarms(ctx, trx, device, records)));
  const next = records.length === 500 ? records[records.length - 1]!.Id : Number(newest?.n ?? 0);
  await storeRecordWatermark(trx, deviceId, next, ctx.clock.now());
  return out;
}

interface RecordRow {
  At: number;
  DoorNumber: number;
  EventType: number | null;
  EventReason: number | null;
  Result: number;
  CardNumber: string;
}

async function recordSays(
  ctx: ServiceContext,
  trx: Trx,
  device: { Id: number; AreaId: number; Name: string },
  r: RecordRow,
): Promise<DoorChanges> {
  const at = Number(r.At);
  const door = r.DoorNumber;
  if (door < 1) return none();
  const alarm = (kind: number) =>
    doorName(trx, device.Id, door).then((name) =>
      raiseAlarm(ctx, trx, { device, door, doorName: name, kind, at }),
    );
  const patch = recordPatch(r, at);
  if (!patch) return none();
  const changes = await patchDoor(ctx, trx, device.Id, door, patch, at);
  if (patch.Alarm) changes.alarms.push(await alarm(patch.Alarm));
  return changes;
}

/**
 * Refused swipes piling up: each refused swipe of the batch with REFUSED_LIMIT or more refused at its door in the
 * minute ending at it. Those of a door, each within the window of the one before, are one occurrence run and raise
 * (or repeat) the door's alarm once with their count: a burst of refusals is one alarm change, not one per swipe.
 */
async function refusedAlarms(
  ctx: ServiceContext,
  trx: Trx,
  device: { Id: number; AreaId: number; Name: string },
  records: RecordRow[],
): Promise<AlarmChange[]> {
  const times = await refusedSwipes(trx, device.Id, records);
  const triggers = new Map<number, { at: number; card: string }[]>();
  for (const r of records) {
    const at = Number(r.At);
    const door = r.DoorNumber;
    if (door < 1 || !isRefusedSwipe(r)) continue;
    if (countWithin(times.get(door) ?? [], at - REFUSED_WINDOW_MS, at) < REFUSED_LIMIT) continue;
    const list = triggers.get(door) ?? [];
    list.push({ at, card: r.CardNumber });
    triggers.set(door, list);
  }
  const out: AlarmChange[] = [];
  for (const [door, list] of triggers) {
    list.sort((a, b) => a.at - b.at);
    const name = await doorName(trx, device.Id, door);
    let run: typeof list = [];
    const raise = async () => {
      if (run.length === 0) return;
      out.push(
        await raiseAlarm(ctx, trx, {
          device,
          door,
          doorName: name,
          kind: ALARM.refused,
          at: run[0]!.at,
          lastAt: run[run.length - 1]!.at,
          count: run.length,
          details: run.map((t) => t.card),
          repeatWithinMs: REFUSED_WINDOW_MS,
        }),
      );
      run = [];
    };
    for (const t of list) {
      if (run.length && t.at - run[run.length - 1]!.at > REFUSED_WINDOW_MS) await raise();
      run.push(t);
    }
    await raise();
  }
  return out;
}

const isRefusedSwipe = (r: RecordRow) => (r.EventType ?? RECORD.swipe) === RECORD.swipe && !r.Result;

/**
 * The times of the refused swipes at each door the batch has refused swipes at, over the batch's span and the
 * window before it (stored records, the batch's own included): one read per door for the whole batch instead
 * of a count per swipe, from the index of refused records (`DoorOpeningRecord_refused`; `Result = 0` is written
 * as a literal so that both engines may use the partial index).
 */
async function refusedSwipes(
  db: Trx,
  deviceId: number,
  records: RecordRow[],
): Promise<Map<number, number[]>> {
  const span = new Map<number, { from: number; to: number }>();
  for (const r of records) {
    if (r.DoorNumber < 1 || !isRefusedSwipe(r)) continue;
    const at = Number(r.At);
    const s = span.get(r.DoorNumber);
    span.set(r.DoorNumber, { from: Math.min(s?.from ?? at, at), to: Math.max(s?.to ?? at, at) });
  }
  const out = new Map<number, number[]>();
  for (const [door, { from, to }] of span) {
    const rows = await db
      .selectFrom('DoorOpeningRecord')
      .select('At')
      .where('DeviceId', '=', deviceId)
      .where('DoorNumber', '=', door)
      .where('Result', '=', sql.lit(0))
      .where('At', '>=', from - REFUSED_WINDOW_MS)
      .where('At', '<=', to)
      .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', RECORD.swipe)]))
      .orderBy('At')
      .execute();
    out.set(
      door,
      rows.map((row) => Number(row.At)),
    );
  }
  return out;
}

/** How many of the sorted `times` fall in [from, to]. */
export function countWithin(times: number[], from: number, to: number): number {
  const firstAtLeast = (value: number, after: boolean) => {
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (after ? times[mid]! <= value : times[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return firstAtLeast(to, true) - firstAtLeast(from, false);
}

/** Doors open longer than their limit, not already forced or held open: held open, with an alarm. */
async function heldOpen(ctx: ServiceContext, deviceIds: number[]): Promise<DoorChanges> {
  if (deviceIds.length === 0) return none();
  const now = ctx.clock.now();
  const open = await ctx.db.kysely
    .selectFrom('AccessControlDoorState as S')
    .leftJoin('AccessControlDoorRule as R', (j) =>
      j.onRef('R.DeviceId', '=', 'S.DeviceId').onRef('R.DoorNumber', '=', 'S.DoorNumber'),
    )
    .select(['S.DeviceId', 'S.DoorNumber', 'S.OpenSince', 'R.HeldOpenSeconds'])
    .where('S.DeviceId', 'in', deviceIds)
    .where('S.Open', '=', 1)
    .where('S.Alarm', 'is', null)
    .where('S.OpenSince', 'is not', null)
    .execute();
  const out = none();
  for (const d of open) {
    const limit = (d.HeldOpenSeconds ?? HELD_OPEN_DEFAULT_SECONDS) * 1000;
    if (Number(d.OpenSince) + limit > now) continue;
    merge(
      out,
      await ctx.db.kysely.transaction().execute(async (trx) => {
        const device = await deviceRef(trx, d.DeviceId);
        if (!device) return none();
        const changes = await patchDoor(ctx, trx, d.DeviceId, d.DoorNumber, { Alarm: ALARM.heldOpen }, now);
        const seconds = Math.round((now - Number(d.OpenSince)) / 1000);
        const name = await doorName(trx, d.DeviceId, d.DoorNumber);
        changes.alarms.push(
          await raiseAlarm(ctx, trx, {
            device,
            door: d.DoorNumber,
            doorName: name,
            kind: ALARM.heldOpen,
            at: now,
            detail: `${seconds} s`,
          }),
        );
        return changes;
      }),
    );
  }
  return out;
}
