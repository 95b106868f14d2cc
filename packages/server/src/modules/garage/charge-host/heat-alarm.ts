import type { HeatAlarmItem, HeatAlarmSession, HeatAlarmTrigger, HubEventInput } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { actorDisplayName, actorUserId, type AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import type { LiveEvents } from '../../../platform/gateway.ts';
import { isoOrNull, numberOrNull } from '../../../platform/instants.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import type { AdmissionCheck } from '../charge-record/admission.ts';
import { socketSessions } from '../charge-record/service.ts';

/**
 * A charging host's heat alarm (docs/garage.md "Heat"; issue 30): the one writer of ChargeHostHeatAlarm.
 *
 * A charger that reports a Temperature above its zone's `MaxTemperatureC`, or the OCPP error code
 * `HighTemperature` (whatever the limit), puts its host in alarm: one open alarm per host, raised by the device
 * (audited with it, told to the site's other systems through the outbox), listing the sessions running there.
 * The device gateway, which holds the charger's connection, then asks the charger to stop each of them with the
 * stop reason "over temperature" (settlement's requestSessionStop, the path every stop Gatehouse asks for takes),
 * and keeps asking while the alarm is open (`heatStopsDue`). No session starts on the host while it is open (the
 * admission gate's `hostInHeatAlarm`). An operator clears it with a note (audited with who and the note), like a
 * door alarm is acknowledged; nothing clears it by itself, because a charger that cooled down has not been looked
 * at.
 */

type Trx = Kysely<Database>;

/** A Temperature a charger reported, in °C (the gateway converts Fahrenheit and kelvin). */
export interface TemperatureReading {
  temperatureC: number;
  /** 0: the charge point as a whole; else the connector. */
  connectorId: number;
  /** OCPP's sample location (Body, EV, Outlet, Inlet, Cable), when given. */
  location: string | null;
  /** When the charger took it (epoch ms, as far as its clock is believed). */
  at: number;
}

/** What a charger said about heat: a reading (the hottest of one message), or its HighTemperature fault. */
export type HeatReport =
  | { trigger: 'temperature'; reading: TemperatureReading }
  | { trigger: 'fault'; connectorId: number; at: number };

/**
 * What a report did: nothing (no limit, or not above it), raised a new alarm (its sessions are to be stopped), or
 * found one open already (the latest reading is kept on it).
 */
export type HeatOutcome =
  { kind: 'none' } | { kind: 'raised'; alarm: HeatAlarmItem } | { kind: 'open'; alarm: HeatAlarmItem };

/** °C with one decimal, as the alarm keeps and shows a temperature. */
const tenth = (celsius: number) => Math.round(celsius * 10) / 10;

const heatAlarmQuery = (db: Trx) =>
  db
    .selectFrom('ChargeHostHeatAlarm')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeHostHeatAlarm.ChargeHostId')
    .leftJoin('ParkArea', 'ParkArea.Id', 'ChargeHostHeatAlarm.ParkAreaId')
    .select([
      'ChargeHostHeatAlarm.Id',
      'ChargeHostHeatAlarm.AreaId',
      'ChargeHostHeatAlarm.ChargeHostId',
      'ChargeHost.Name as HostName',
      'ChargeHost.SerialNumber',
      'ChargeHostHeatAlarm.ParkAreaId',
      'ParkArea.Name as ZoneName',
      'ChargeHostHeatAlarm.Trigger',
      'ChargeHostHeatAlarm.TemperatureC',
      'ChargeHostHeatAlarm.LimitC',
      'ChargeHostHeatAlarm.ConnectorId',
      'ChargeHostHeatAlarm.Location',
      'ChargeHostHeatAlarm.RaisedAt',
      'ChargeHostHeatAlarm.LastTemperatureC',
      'ChargeHostHeatAlarm.LastReadingAt',
      'ChargeHostHeatAlarm.Sessions',
      'ChargeHostHeatAlarm.ClearedAt',
      'ChargeHostHeatAlarm.ClearedBy',
      'ChargeHostHeatAlarm.Note',
    ]);

type AlarmRow = Awaited<ReturnType<ReturnType<typeof heatAlarmQuery>['executeTakeFirstOrThrow']>>;

function toHeatAlarmItem(row: AlarmRow): HeatAlarmItem {
  return {
    Id: row.Id,
    ChargeHostId: row.ChargeHostId,
    HostName: row.HostName,
    SerialNumber: row.SerialNumber,
    ParkAreaId: row.ParkAreaId,
    ZoneName: row.ZoneName ?? '',
    Trigger: row.Trigger as HeatAlarmTrigger,
    TemperatureC: numberOrNull(row.TemperatureC),
    LimitC: numberOrNull(row.LimitC),
    ConnectorId: row.ConnectorId,
    Location: row.Location,
    RaisedAt: isoOrNull(row.RaisedAt)!,
    LastTemperatureC: numberOrNull(row.LastTemperatureC),
    LastReadingAt: isoOrNull(row.LastReadingAt),
    Sessions: JSON.parse(row.Sessions) as HeatAlarmSession[],
    ClearedAt: isoOrNull(row.ClearedAt),
    ClearedBy: row.ClearedBy,
    Note: row.Note,
  };
}

const openAlarmOf = (db: Trx, hostId: number) =>
  heatAlarmQuery(db)
    .where('ChargeHostHeatAlarm.ChargeHostId', '=', hostId)
    .where('ChargeHostHeatAlarm.ClearedAt', 'is', null)
    .executeTakeFirst();

/** The open heat alarm of each host named (absent: none), as the host screen and the socket grid show it. */
export async function openHeatAlarms(db: Trx, hostIds: number[]): Promise<Map<number, HeatAlarmItem>> {
  const found = new Map<number, HeatAlarmItem>();
  if (hostIds.length === 0) return found;
  const rows = await heatAlarmQuery(db)
    .where('ChargeHostHeatAlarm.ChargeHostId', 'in', hostIds)
    .where('ChargeHostHeatAlarm.ClearedAt', 'is', null)
    .execute();
  for (const row of rows) found.set(row.ChargeHostId, toHeatAlarmItem(row));
  return found;
}

/** The admission gate's check (charge-record/admission.ts): no session starts on a host in heat alarm. */
export const hostInHeatAlarm: AdmissionCheck = async (k, socket) =>
  (await k
    .selectFrom('ChargeHostHeatAlarm')
    .select('Id')
    .where('ChargeHostId', '=', socket.hostId)
    .where('ClearedAt', 'is', null)
    .executeTakeFirst()) !== undefined;

/**
 * A charger's heat report (device context: its host and area). A reading at or below the zone's limit, or in a
 * zone without one, changes nothing; one above it, or a HighTemperature fault, raises the host's alarm unless
 * one is open, which then keeps the latest reading.
 */
export async function heatReported(
  ctx: AreaContext,
  hostId: number,
  report: HeatReport,
): Promise<HeatOutcome> {
  const k = ctx.db.kysely;
  const host = await k
    .selectFrom('ChargeHost')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
    .select(['ChargeHost.Id', 'ChargeHost.Name', 'ChargeHost.ParkAreaId', 'ParkArea.MaxTemperatureC'])
    .where('ChargeHost.Id', '=', hostId)
    .where('ChargeHost.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) return { kind: 'none' };
  const reading = report.trigger === 'temperature' ? report.reading : null;
  const open = await openAlarmOf(k, hostId);
  if (open) return { kind: 'open', alarm: await keepReading(k, open, reading) };
  const limit = host.MaxTemperatureC;
  if (reading && (limit === null || reading.temperatureC <= limit)) return { kind: 'none' };
  try {
    const alarm = await k.transaction().execute((trx) => raise(ctx, trx, host, report, limit));
    return { kind: 'raised', alarm };
  } catch (error) {
    // Two reports racing each other (a connector's and the host's, a retry): the unique index on the open
    // alarm refused the second; the first one's alarm is the answer.
    const raced = await openAlarmOf(k, hostId);
    if (raced) return { kind: 'open', alarm: await keepReading(k, raced, reading) };
    throw error;
  }
}

/** An open alarm keeps the latest temperature its charger reports (is it cooling down?). */
async function keepReading(
  k: Trx,
  open: AlarmRow,
  reading: TemperatureReading | null,
): Promise<HeatAlarmItem> {
  if (!reading || (open.LastReadingAt !== null && Number(open.LastReadingAt) > reading.at))
    return toHeatAlarmItem(open);
  const last = { LastTemperatureC: tenth(reading.temperatureC), LastReadingAt: reading.at };
  await k.updateTable('ChargeHostHeatAlarm').set(last).where('Id', '=', open.Id).execute();
  return toHeatAlarmItem({ ...open, ...last });
}

/** In one transaction: the alarm with the sessions running on the host now, its audit entry and its event. */
async function raise(
  ctx: AreaContext,
  trx: Trx,
  host: { Id: number; Name: string; ParkAreaId: number },
  report: HeatReport,
  limit: number | null,
): Promise<HeatAlarmItem> {
  const running = await socketSessions(trx, { hostId: host.Id, areaId: ctx.areaId })
    .leftJoin('ChargeOrder', 'ChargeOrder.ChargeRecordId', 'ChargeRecord.Id')
    .select([
      'ChargeRecord.Id',
      'ChargeEquipment.Id as SocketId',
      'ChargeEquipment.PortNumber',
      'ChargeRecord.CardNumber',
      'ChargeOrder.OrderNo',
    ])
    .orderBy('ChargeEquipment.PortNumber')
    .execute();
  const sessions: HeatAlarmSession[] = running.map((r) => ({
    ChargeRecordId: r.Id,
    ChargeEquipmentId: r.SocketId,
    PortNumber: r.PortNumber,
    CardNumber: r.CardNumber,
    OrderNo: r.OrderNo ?? null,
  }));
  const reading = report.trigger === 'temperature' ? report.reading : null;
  const at = reading?.at ?? (report.trigger === 'fault' ? report.at : ctx.clock.now());
  const temperatureC = reading ? tenth(reading.temperatureC) : null;
  const created = await trx
    .insertInto('ChargeHostHeatAlarm')
    .values({
      AreaId: ctx.areaId,
      ChargeHostId: host.Id,
      ParkAreaId: host.ParkAreaId,
      Trigger: report.trigger,
      TemperatureC: temperatureC,
      LimitC: limit,
      ConnectorId: reading ? reading.connectorId : (report as { connectorId: number }).connectorId,
      Location: reading?.location ?? null,
      RaisedAt: at,
      LastTemperatureC: temperatureC,
      LastReadingAt: reading ? at : null,
      Sessions: JSON.stringify(sessions),
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const alarm = toHeatAlarmItem(
    await heatAlarmQuery(trx).where('ChargeHostHeatAlarm.Id', '=', created.Id).executeTakeFirstOrThrow(),
  );
  await audit(
    ctx,
    {
      action: 'heatAlarm',
      entity: 'ChargeHost',
      entityId: host.Id,
      before: null,
      after: {
        HostName: host.Name,
        HeatTrigger: report.trigger,
        TemperatureC: temperatureC,
        LimitC: limit,
        ConnectorId: alarm.ConnectorId,
        Location: alarm.Location,
        Sessions: sessions.map((s) => s.ChargeRecordId),
      },
    },
    trx,
  );
  await emitHeatAlarm(trx, 'charger.heat_alarm.raised', alarm, ctx.areaId, at);
  return alarm;
}

/** The alarm as an outward event (webhooks, MQTT), in the transaction that stores it. */
async function emitHeatAlarm(
  trx: Trx,
  type: 'charger.heat_alarm.raised' | 'charger.heat_alarm.cleared',
  alarm: HeatAlarmItem,
  areaId: number,
  at: number,
): Promise<void> {
  const names = await areaNames(trx, [areaId]);
  await emitEvent(trx, { type, at, data: { ...alarm, AreaId: areaId, AreaName: names.get(areaId) ?? '' } });
}

/**
 * The host's open alarm and the running sessions on it that no stop has been asked for yet (the first request
 * was refused or went unanswered and was released), so the gateway asks again at the host's next reading.
 * Undefined when the host has no open alarm.
 */
export async function heatStopsDue(
  ctx: AreaContext,
  hostId: number,
): Promise<{ alarm: HeatAlarmItem; recordIds: number[] } | undefined> {
  const k = ctx.db.kysely;
  const open = await openAlarmOf(k, hostId);
  if (!open || open.AreaId !== ctx.areaId) return undefined;
  const rows = await socketSessions(k, { hostId, areaId: ctx.areaId })
    .select('ChargeRecord.Id')
    .where('ChargeRecord.StopRequest', 'is', null)
    .execute();
  return { alarm: toHeatAlarmItem(open), recordIds: rows.map((r) => r.Id) };
}

/**
 * An operator clears a host's heat alarm with a note (POST /api/ChargeHost/ClearAlarm): sessions may start there
 * again. A host of another area is 404, one without an open alarm 409 (cleared a moment ago by someone else, or
 * never raised). Audited with the operator and the note; told to the browsers and, through the outbox, outward.
 */
export async function clearHeatAlarm(ctx: AreaContext, hostId: number, note: string): Promise<HeatAlarmItem> {
  const now = ctx.clock.now();
  const alarm = await ctx.db.kysely.transaction().execute(async (trx) => {
    const host = await trx
      .selectFrom('ChargeHost')
      .select(['Id', 'Name'])
      .where('Id', '=', hostId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!host) throw notFound();
    const open = await openAlarmOf(trx, hostId);
    const cleared = open
      ? await trx
          .updateTable('ChargeHostHeatAlarm')
          .set({
            ClearedAt: now,
            ClearedById: actorUserId(ctx.actor),
            ClearedBy: actorDisplayName(ctx.actor),
            Note: note,
          })
          .where('Id', '=', open.Id)
          .where('ClearedAt', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!open || Number(cleared?.numUpdatedRows ?? 0) !== 1)
      throw new AppError(409, 'garage.error.heatAlarmNone');
    const item = toHeatAlarmItem(
      await heatAlarmQuery(trx).where('ChargeHostHeatAlarm.Id', '=', open.Id).executeTakeFirstOrThrow(),
    );
    // The host names the entry on both sides; what was open (why, how hot, the limit) and the note changed.
    await audit(
      ctx,
      {
        action: 'clearHeatAlarm',
        entity: 'ChargeHost',
        entityId: hostId,
        before: {
          HostName: host.Name,
          HeatTrigger: item.Trigger,
          TemperatureC: item.TemperatureC,
          LimitC: item.LimitC,
        },
        after: { HostName: host.Name, Note: note },
      },
      trx,
    );
    await emitHeatAlarm(trx, 'charger.heat_alarm.cleared', item, ctx.areaId, now);
    return item;
  });
  // The hub fans out over the cluster bus: the browsers of every instance see it cleared.
  announceHeatAlarm(ctx.seams?.live, ctx.areaId, alarm);
  return alarm;
}

/** The live hub's event for an alarm raised (open) or cleared. */
export function heatAlarmHubEvent(alarm: HeatAlarmItem): HubEventInput {
  return { Type: 'HeatAlarm', HostId: alarm.ChargeHostId, InAlarm: alarm.ClearedAt === null, Alarm: alarm };
}

/** Tells the area's browsers that a host entered or left heat alarm. */
export function announceHeatAlarm(live: LiveEvents | undefined, areaId: number, alarm: HeatAlarmItem): void {
  live?.publish(areaId, heatAlarmHubEvent(alarm));
}
