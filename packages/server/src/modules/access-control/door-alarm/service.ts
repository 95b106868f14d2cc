import type { DoorAlarmItem, HubEventInput } from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import {
  actorDisplayName,
  actorUserId,
  type AreaContext,
  type ServiceContext,
} from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import type { LiveEvents } from '../../../platform/gateway.ts';
import { rowMapper } from '../../../platform/resource.ts';
import type { Trx } from '../common.ts';

/**
 * Alarms (docs/access-control.md, "Door monitor and alarms"): raised by the door watch of the device gateway
 * (door forced, held open past its limit, repeated refused swipes, controller offline), each audited by the
 * device, and acknowledged with a note by an operator (audited by the operator). An alarm of a kind that is
 * still open on a door repeats (Count, LastAt) instead of opening another.
 */

export const ALARM = { forced: 1, heldOpen: 2, refused: 3, offline: 4 } as const;
export const ALARM_OPEN = 0;
export const ALARM_ACKNOWLEDGED = 1;

export function alarmQuery(db: Trx) {
  return db
    .selectFrom('DoorAlarm')
    .select([
      'DoorAlarm.Id',
      'DoorAlarm.AreaId',
      'DoorAlarm.Kind',
      'DoorAlarm.State',
      'DoorAlarm.DeviceId',
      'DoorAlarm.DeviceName',
      'DoorAlarm.DoorNumber',
      'DoorAlarm.DoorName',
      'DoorAlarm.RaisedAt',
      'DoorAlarm.LastAt',
      'DoorAlarm.Count',
      'DoorAlarm.ClearedAt',
      'DoorAlarm.Detail',
      'DoorAlarm.AcknowledgedAt',
      'DoorAlarm.AcknowledgedBy',
      'DoorAlarm.Note',
    ]);
}

const mapAlarm = rowMapper<DoorAlarmItem & { AreaId: number }>({
  flags: [],
  instants: ['RaisedAt', 'LastAt', 'ClearedAt', 'AcknowledgedAt'],
});

export function toAlarmItem(row: Record<string, unknown>): DoorAlarmItem {
  const { AreaId: _area, ...item } = mapAlarm(row);
  return { ...item, Kind: Number(item.Kind), State: Number(item.State), Count: Number(item.Count) };
}

/** An alarm with its area, for announcing it. */
export interface AlarmChange {
  areaId: number;
  item: DoorAlarmItem;
  /** New (AlarmRaised) or changed (AlarmChanged). */
  raised: boolean;
}

async function alarmById(db: Trx, alarmId: number): Promise<AlarmChange['item'] & { AreaId: number }> {
  const row = await alarmQuery(db).where('DoorAlarm.Id', '=', alarmId).executeTakeFirstOrThrow();
  return { ...toAlarmItem(row), AreaId: row.AreaId };
}

export interface RaiseInput {
  device: { Id: number; AreaId: number; Name: string };
  door: number;
  doorName: string | null;
  kind: number;
  at: number;
  detail?: string | null;
  /** An open alarm of the kind on the door whose last occurrence is older than this is not repeated. */
  repeatWithinMs?: number;
  /**
   * Several occurrences at once (refused swipes of one pass, each within `repeatWithinMs` of the one before):
   * `at` is the first, `lastAt` the last, and `details` what each said. One alarm change for all of them.
   */
  count?: number;
  lastAt?: number;
  details?: string[];
}

/** Raises an alarm, or repeats the open one of the same kind on the door. Audited by the device. */
export async function raiseAlarm(ctx: ServiceContext, trx: Trx, input: RaiseInput): Promise<AlarmChange> {
  let open = trx
    .selectFrom('DoorAlarm')
    .select(['Id', 'Detail'])
    .where('DeviceId', '=', input.device.Id)
    .where('DoorNumber', '=', input.door)
    .where('Kind', '=', input.kind)
    .where('State', '=', ALARM_OPEN)
    .where('ClearedAt', 'is', null);
  if (input.repeatWithinMs !== undefined) open = open.where('LastAt', '>=', input.at - input.repeatWithinMs);
  const existing = await open.orderBy('Id', 'desc').executeTakeFirst();
  const count = input.count ?? 1;
  const lastAt = input.lastAt ?? input.at;
  const details = input.details ?? (input.detail ? [input.detail] : []);
  if (existing) {
    const detail = mergeDetail(existing.Detail, details);
    await trx
      .updateTable('DoorAlarm')
      .set((eb) => ({ Count: eb('Count', '+', count), LastAt: lastAt, Detail: detail }))
      .where('Id', '=', existing.Id)
      .execute();
    return { areaId: input.device.AreaId, item: await alarmById(trx, existing.Id), raised: false };
  }
  const created = await trx
    .insertInto('DoorAlarm')
    .values({
      AreaId: input.device.AreaId,
      DeviceId: input.device.Id,
      DeviceName: input.device.Name,
      DoorNumber: input.door,
      DoorName: input.doorName,
      Kind: input.kind,
      RaisedAt: input.at,
      LastAt: lastAt,
      Count: count,
      Detail: mergeDetail(null, details),
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const item = await alarmById(trx, created.Id);
  await audit(ctx, { action: 'raise', entity: 'DoorAlarm', entityId: created.Id, after: item }, trx);
  await emitAlarm(trx, 'door.alarm.raised', item, input.at);
  return { areaId: input.device.AreaId, item, raised: true };
}

/**
 * An alarm raised or acknowledged as an event of the outbox (platform/outbox), in its transaction, as the alarm
 * list shows it. A repeat of an open alarm (its count) is not an event of its own.
 */
async function emitAlarm(
  trx: Trx,
  type: 'door.alarm.raised' | 'door.alarm.acknowledged',
  alarm: DoorAlarmItem & { AreaId: number },
  at: number,
): Promise<void> {
  const { AreaId, ...item } = alarm;
  const names = await areaNames(trx, [AreaId]);
  await emitEvent(trx, { type, at, data: { ...item, AreaId, AreaName: names.get(AreaId) ?? '' } });
}

/** Refused cards are listed once each, the list kept short. */
function mergeDetail(before: string | null, add: string[]): string | null {
  if (add.length === 0) return before;
  // The latest occurrence of a card counts: delete first, so a card seen again moves to the end.
  const parts = new Set(before ? before.split(', ') : []);
  for (const part of add) {
    parts.delete(part);
    parts.add(part);
  }
  return [...parts].slice(-10).join(', ');
}

/** The condition behind open alarms of these kinds on a door (or the controller, door 0) ended. */
export async function clearAlarms(
  trx: Trx,
  deviceId: number,
  door: number,
  kinds: number[],
  at: number,
): Promise<AlarmChange[]> {
  const rows = await trx
    .selectFrom('DoorAlarm')
    .select('Id')
    .where('DeviceId', '=', deviceId)
    .where('DoorNumber', '=', door)
    .where('Kind', 'in', kinds)
    .where('ClearedAt', 'is', null)
    .where('Kind', '!=', ALARM.refused)
    .execute();
  const out: AlarmChange[] = [];
  for (const { Id } of rows) {
    await trx.updateTable('DoorAlarm').set({ ClearedAt: at }).where('Id', '=', Id).execute();
    const item = await alarmById(trx, Id);
    out.push({ areaId: item.AreaId, item, raised: false });
  }
  return out;
}

/**
 * Acknowledges open alarms of the area with a note, all or none: one already acknowledged (by someone else a
 * moment ago) refuses the lot. Each is audited with the operator; browsers hear of it through the hub.
 */
export async function acknowledgeAlarms(
  ctx: AreaContext,
  ids: number[],
  note: string,
): Promise<{ Acknowledged: number }> {
  const now = ctx.clock.now();
  const changed = await ctx.db.kysely.transaction().execute(async (trx) => {
    const out: AlarmChange[] = [];
    for (const alarmId of new Set(ids)) {
      const done = await trx
        .updateTable('DoorAlarm')
        .set({
          State: ALARM_ACKNOWLEDGED,
          AcknowledgedAt: now,
          AcknowledgedById: actorUserId(ctx.actor),
          AcknowledgedBy: actorDisplayName(ctx.actor),
          Note: note,
        })
        .where('Id', '=', alarmId)
        .where('AreaId', '=', ctx.areaId)
        .where('State', '=', ALARM_OPEN)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new AppError(409, 'accessControl.error.alarmNotOpen');
      const item = await alarmById(trx, alarmId);
      // The door and the kind on both sides (they name the alarm, unchanged); the state and the note changed.
      const alarm = {
        DeviceName: item.DeviceName,
        DoorNumber: item.DoorNumber,
        DoorName: item.DoorName,
        Kind: item.Kind,
      };
      await audit(
        ctx,
        {
          action: 'acknowledge',
          entity: 'DoorAlarm',
          entityId: alarmId,
          before: { ...alarm, State: ALARM_OPEN },
          after: { ...alarm, State: item.State, Note: note },
        },
        trx,
      );
      await emitAlarm(trx, 'door.alarm.acknowledged', item, now);
      out.push({ areaId: item.AreaId, item, raised: false });
    }
    return out;
  });
  // The live hub the context carries (the app's, whether or not it drives controllers): it fans out over the
  // cluster bus, so the browsers of every instance see the acknowledgement.
  announceAlarms(ctx.seams?.live, changed);
  return { Acknowledged: changed.length };
}

/** Tells the area's browsers about new and changed alarms. */
export function announceAlarms(events: LiveEvents | undefined, changes: AlarmChange[]): void {
  for (const c of changes) {
    const event: HubEventInput = c.raised
      ? { Type: 'AlarmRaised', ...c.item }
      : { Type: 'AlarmChanged', ...c.item };
    events?.publish(c.areaId, event);
  }
}

/** Alarms waiting for an operator, newest first (the dashboard and the monitor). */
export async function openAlarms(
  ctx: AreaContext,
  limit: number,
): Promise<{ Count: number; Items: DoorAlarmItem[] }> {
  const k = ctx.db.kysely;
  const count = await k
    .selectFrom('DoorAlarm')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('AreaId', '=', ctx.areaId)
    .where('State', '=', ALARM_OPEN)
    .executeTakeFirst();
  const rows = await alarmQuery(k)
    .where('DoorAlarm.AreaId', '=', ctx.areaId)
    .where('DoorAlarm.State', '=', ALARM_OPEN)
    .orderBy('DoorAlarm.RaisedAt', 'desc')
    .orderBy('DoorAlarm.Id', 'desc')
    .limit(limit)
    .execute();
  return { Count: Number(count?.n ?? 0), Items: rows.map(toAlarmItem) };
}
