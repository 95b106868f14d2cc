import type { MusterItem, MusterPersonItem, MusterPoint } from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { actorDisplayName, actorUserId, type AreaContext } from '../../../platform/context.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { areaNames, emitEvent, emitEvents } from '../../../platform/outbox/outbox.ts';
import type { Trx } from '../common.ts';
import { insideColumns, insideQuery, occupancyWindow } from '../occupancy/service.ts';
import { MUSTER_EARLY_MS, activeMuster, musterById, personQuery, toPersonItem } from './items.ts';

/**
 * Roll calls (docs/access-control.md, "Occupancy and muster"; issue 31): the one writer of Muster and MusterPerson
 * (with swipes.ts, the marks a muster point's swipe makes in the ingest's transaction). Starting copies everyone
 * inside the area at that moment onto the roll, missing; each is marked safe once, by an operator here or by a
 * granted swipe at a muster point; ending freezes the result. Every step is audited, written as an outward event
 * in its transaction and told to the area's browsers on every instance (hub `Muster`).
 */

const musterActive = () => new AppError(409, 'accessControl.error.musterActive');
const musterEnded = () => new AppError(409, 'accessControl.error.musterEnded');

/** Rows one statement inserts: well under both databases' bound-parameter limits (14 columns a row). */
const INSERT_ROWS = 200;

/** Tells the area's browsers (every instance: the hub fans out over the cluster bus). */
function announce(ctx: AreaContext, item: MusterItem): void {
  ctx.seams?.live.publish(item.AreaId, { Type: 'Muster', ...item });
}

async function areaName(trx: Trx, areaId: number): Promise<string> {
  return (await areaNames(trx, [areaId])).get(areaId) ?? '';
}

/** The roll call as an outward event names it: the item and its area. */
async function emitMuster(trx: Trx, type: 'muster.started' | 'muster.ended', item: MusterItem, at: number) {
  await emitEvent(trx, { type, at, data: { ...item, AreaName: await areaName(trx, item.AreaId) } });
}

/** Each person just marked safe, with the roll call's counts after the marks, as outward events. */
export async function emitSafe(
  trx: Trx,
  item: MusterItem,
  people: readonly MusterPersonItem[],
  at: number,
): Promise<void> {
  if (people.length === 0) return;
  const AreaName = await areaName(trx, item.AreaId);
  const counts = { Total: item.Total, Safe: item.Safe, Missing: item.Missing };
  await emitEvents(
    trx,
    people.map((p) => ({
      type: 'muster.person_safe' as const,
      at,
      data: { ...p, AreaId: item.AreaId, AreaName, ...counts },
    })),
  );
}

/** The muster points: readers (channels) of the area, named as they are now (the roll call keeps the names). */
async function musterPoints(trx: Trx, areaId: number, channelIds: readonly number[]): Promise<MusterPoint[]> {
  const ids = [...new Set(channelIds)];
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('AccessControlChannel as C')
    .innerJoin('AccessControlDevice as D', 'D.Id', 'C.DeviceId')
    .select(['C.Id', 'C.Name', 'C.DeviceId', 'D.Name as DeviceName', 'C.DoorNumber', 'C.Direction'])
    .where('C.Id', 'in', ids)
    .where('C.AreaId', '=', areaId)
    .orderBy('C.DeviceId')
    .orderBy('C.DoorNumber')
    .orderBy('C.Id')
    .execute();
  if (rows.length !== ids.length) throw fieldError('ChannelIds', 'accessControl.error.musterPointInvalid');
  return rows.map((r) => ({
    ChannelId: r.Id,
    ChannelName: r.Name,
    DeviceId: r.DeviceId,
    DeviceName: r.DeviceName,
    DoorNumber: Number(r.DoorNumber),
    Direction: Number(r.Direction),
  }));
}

/**
 * Marks safe at the start whoever on the roll swiped at a muster point in the moments before it (MUSTER_EARLY_MS),
 * as such a swipe stored after the start would (swipes.ts): read from their swipe records.
 */
async function markEarlyArrivals(
  trx: Trx,
  musterId: number,
  areaId: number,
  points: readonly MusterPoint[],
  now: number,
): Promise<number[]> {
  if (points.length === 0) return [];
  const early = await trx
    .selectFrom('DoorOpeningRecord')
    .select(['CardUserId', 'At', 'DeviceName', 'ChannelName', 'DoorNumber'])
    .where('AreaId', '=', areaId)
    .where('At', '>=', now - MUSTER_EARLY_MS)
    .where('Result', '=', 1)
    .where('CardUserId', 'is not', null)
    .where(
      'ChannelId',
      'in',
      points.map((p) => p.ChannelId),
    )
    .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', 1)]))
    .orderBy('At')
    .execute();
  const marked: number[] = [];
  for (const r of early) {
    const row = await trx
      .updateTable('MusterPerson')
      .set({
        SafeAt: Number(r.At),
        SafeHow: 'swipe',
        SafeBy: `${r.DeviceName} · ${r.ChannelName ?? r.DoorNumber}`,
      })
      .where('MusterId', '=', musterId)
      .where('CardUserId', '=', r.CardUserId!)
      .where('SafeAt', 'is', null)
      .returning('Id')
      .executeTakeFirst();
    if (row) marked.push(row.Id);
  }
  return marked;
}

/** People of a roll call by their rows' ids, as the list shows them. */
async function peopleOf(trx: Trx, ids: readonly number[]): Promise<MusterPersonItem[]> {
  if (ids.length === 0) return [];
  return (
    await personQuery(trx)
      .where('MusterPerson.Id', 'in', [...ids])
      .orderBy('MusterPerson.Name')
      .execute()
  ).map(toPersonItem);
}

/**
 * Starts a roll call of everyone inside the area now (POST /api/Muster/Start): 404 for an area other than the
 * caller's current one, 400 for a muster point not of the area, 409 while one is under way (also for the second
 * of two starts at once: the index on the roll calls under way lets one in).
 */
export async function startMuster(
  ctx: AreaContext,
  input: { AreaId: number; ChannelIds: number[]; Reason?: string | null },
): Promise<MusterItem> {
  if (input.AreaId !== ctx.areaId) throw notFound();
  const now = ctx.clock.now();
  const item = await ctx.db.kysely
    .transaction()
    .execute(async (trx) => {
      if (await activeMuster(trx, ctx.areaId)) throw musterActive();
      const points = await musterPoints(trx, ctx.areaId, input.ChannelIds);
      const { since } = await occupancyWindow(ctx, trx);
      const inside = await insideColumns(insideQuery(trx, ctx.areaId, since))
        .orderBy('O.CardUserId')
        .execute();
      const reason = input.Reason || null;
      const { Id } = await trx
        .insertInto('Muster')
        .values({
          AreaId: ctx.areaId,
          Reason: reason,
          Points: JSON.stringify(points),
          Total: inside.length,
          StartedAt: now,
          StartedById: actorUserId(ctx.actor),
          StartedBy: actorDisplayName(ctx.actor),
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const roll = inside.map((p) => ({
        MusterId: Id,
        AreaId: ctx.areaId,
        CardUserId: Number(p.CardUserId),
        Name: p.Name,
        Phone: p.Phone ?? null,
        DepartmentName: p.DepartmentName ?? null,
        Visitor: Number(p.Visitor),
        CardNumber: p.CardNumber,
        LastAt: Number(p.LastAt),
        DeviceName: p.DeviceName,
        ChannelName: p.ChannelName ?? null,
      }));
      for (let i = 0; i < roll.length; i += INSERT_ROWS)
        await trx
          .insertInto('MusterPerson')
          .values(roll.slice(i, i + INSERT_ROWS))
          .execute();
      const early = await markEarlyArrivals(trx, Id, ctx.areaId, points, now);
      await audit(
        ctx,
        {
          action: 'startMuster',
          entity: 'Muster',
          entityId: Id,
          after: {
            Reason: reason,
            MusterPoints: points.map((p) => `${p.DeviceName} · ${p.ChannelName}`),
            Total: inside.length,
          },
        },
        trx,
      );
      const started = (await musterById(trx, Id))!;
      await emitMuster(trx, 'muster.started', started, now);
      await emitSafe(trx, started, await peopleOf(trx, early), now);
      return started;
    })
    .catch(async (error: unknown) => {
      // Two starts at once: the index on the roll calls under way lets one in; the other is told one is.
      if (error instanceof AppError) throw error;
      if (await activeMuster(ctx.db.kysely, ctx.areaId)) throw musterActive();
      throw error;
    });
  announce(ctx, item);
  return item;
}

/** A roll call of the caller's area, under way: 404 when it is not the area's, 409 once ended. */
async function musterUnderWay(trx: Trx, ctx: AreaContext, id: number): Promise<MusterItem> {
  const muster = await musterById(trx, id);
  if (!muster || muster.AreaId !== ctx.areaId) throw notFound();
  if (muster.EndedAt !== null) throw musterEnded();
  return muster;
}

/**
 * Marks people on a roll call under way safe by hand (POST /api/Muster/MarkSafe): every one must be on its roll
 * (else 400 on CardUserIds, nothing marked); those already safe stay as they were (who found them first, and how).
 * Each mark is conditional on the person still missing, so a swipe at a muster point and an operator at the same
 * moment mark them once.
 */
export async function markSafe(
  ctx: AreaContext,
  input: { Id: number; CardUserIds: number[]; Note?: string | null },
): Promise<MusterItem> {
  const now = ctx.clock.now();
  const ids = [...new Set(input.CardUserIds)];
  const item = await ctx.db.kysely.transaction().execute(async (trx) => {
    await musterUnderWay(trx, ctx, input.Id);
    const onRoll = await trx
      .selectFrom('MusterPerson')
      .select('CardUserId')
      .where('MusterId', '=', input.Id)
      .where('CardUserId', 'in', ids)
      .execute();
    if (onRoll.length !== ids.length)
      throw fieldError('CardUserIds', 'accessControl.error.musterNotOnRoll', {
        count: ids.length - onRoll.length,
      });
    const note = input.Note || null;
    const marked = await trx
      .updateTable('MusterPerson')
      .set({ SafeAt: now, SafeHow: 'hand', SafeBy: actorDisplayName(ctx.actor), Note: note })
      .where('MusterId', '=', input.Id)
      .where('CardUserId', 'in', ids)
      .where('SafeAt', 'is', null)
      .returning('Id')
      .execute();
    const people = await peopleOf(
      trx,
      marked.map((m) => m.Id),
    );
    const after = (await musterById(trx, input.Id))!;
    if (people.length > 0) {
      await audit(
        ctx,
        {
          action: 'markSafe',
          entity: 'Muster',
          entityId: input.Id,
          before: { Missing: after.Missing + people.length },
          after: { People: people.map((p) => p.Name), Note: note, Missing: after.Missing },
        },
        trx,
      );
      await emitSafe(trx, after, people, now);
    }
    return after;
  });
  announce(ctx, item);
  return item;
}

/** Ends a roll call under way (POST /api/Muster/End): its result stays as it is; 409 once ended. */
export async function endMuster(
  ctx: AreaContext,
  input: { Id: number; Note?: string | null },
): Promise<MusterItem> {
  const now = ctx.clock.now();
  const item = await ctx.db.kysely.transaction().execute(async (trx) => {
    await musterUnderWay(trx, ctx, input.Id);
    const note = input.Note || null;
    // Conditional on being under way: of two ends at once, one ends it and the other is told it has.
    const ended = await trx
      .updateTable('Muster')
      .set({
        EndedAt: now,
        EndedById: actorUserId(ctx.actor),
        EndedBy: actorDisplayName(ctx.actor),
        Note: note,
      })
      .where('Id', '=', input.Id)
      .where('EndedAt', 'is', null)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0) throw musterEnded();
    const after = (await musterById(trx, input.Id))!;
    await audit(
      ctx,
      {
        action: 'endMuster',
        entity: 'Muster',
        entityId: input.Id,
        after: { Note: note, Total: after.Total, Safe: after.Safe, Missing: after.Missing },
      },
      trx,
    );
    await emitMuster(trx, 'muster.ended', after, now);
    return after;
  });
  announce(ctx, item);
  return item;
}
