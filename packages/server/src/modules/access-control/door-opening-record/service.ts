import {
  canonicalCardNumber,
  cardToDisplay,
  doorDirection,
  doorNumber,
  doorRecordReason,
  isEnumValue,
} from '@gatehouse/shared';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { fieldError } from '../../../platform/errors.ts';
import type { Fence, ServiceContext } from '../../../platform/context.ts';
import { areaNames, emitEvents } from '../../../platform/outbox/outbox.ts';
import { DAY_MS } from '../../../platform/record-days.ts';
import type { Trx } from '../common.ts';
import { swipeItem } from './list.ts';
import {
  channelsOf,
  countDay,
  deviceOf,
  explainReason,
  holderOf,
  newBatch,
  type AnyInput,
  type RecordBatch,
} from './lookups.ts';
import { ensureSwipePartitions, isMissingPartition, monthsOf } from './partitions.ts';

// The UTC day the per-day counts are kept by: the same one as the garage's record days.
export { DAY_MS };

/** A swipe as a controller reports it. */
export interface SwipeInput {
  /** The controller, by Id or by the serial number it reports (one of the two). */
  DeviceId?: number;
  SerialNumber?: string;
  /** doorNumber (0 when the controller does not say). */
  DoorNumber: number;
  /** doorDirection (0 when the controller does not say). */
  Direction: number;
  /** The card as the controller reports it (32-bit value), or its printed number (one of the two). */
  CardValue?: number;
  CardNumber?: string;
  /** Epoch milliseconds of the swipe. */
  At: number;
  /** Door opened. */
  Result: boolean;
  /** doorRecordReason. */
  Reason: number;
}

/**
 * A record read from a controller's ring (polled 0xB0 or pushed): the swipe plus where it sits in the ring.
 * Stored at most once per (device, ring index). `Reason` (doorRecordReason) may be left out: a denied swipe
 * is then explained from what Gatehouse knows (card unknown, not given out, holder disabled, outside the
 * validity, no authorisation), a granted one is 1, a door event or alarm 0 with its own code in EventReason.
 */
export interface ControllerRecordInput extends Omit<SwipeInput, 'Reason'> {
  Reason?: number;
  RecordIndex: number;
  /** WG record type: 1 swipe, 2 door event, 3 alarm. */
  EventType: number;
  /** WG reason code as the controller reports it. */
  EventReason: number;
}

/** A controller record as stored (or found already stored): what the live hub announces. */
export interface StoredControllerRecord {
  Id: number;
  AreaId: number;
  DeviceId: number;
  DeviceName: string;
  ChannelId: number | null;
  ChannelName: string | null;
  CardNumber: string;
  CardUserId: number | null;
  HolderName: string | null;
  DoorNumber: number;
  Direction: number;
  At: number;
  Result: boolean;
  Reason: number;
  /** Where it sat in the controller's ring; null for a swipe given without one (recordSwipes), as stored. */
  RecordIndex: number | null;
  EventType: number | null;
  EventReason: number | null;
}

function cardNumberOf(input: { CardValue?: number; CardNumber?: string }): string {
  if (input.CardValue !== undefined) {
    try {
      return cardToDisplay(input.CardValue);
    } catch {
      throw fieldError('CardValue', 'validation.cardNumber');
    }
  }
  const canonical = input.CardNumber === undefined ? null : canonicalCardNumber(input.CardNumber);
  if (!canonical) throw fieldError('CardNumber', 'validation.cardNumber');
  return canonical;
}

/** Writes the batch's per-day counts (added to what is stored). */
async function flushDays(trx: Trx, batch: RecordBatch): Promise<void> {
  for (const day of batch.days.values())
    await trx
      .insertInto('DoorOpeningRecordDay')
      .values(day)
      .onConflict((oc) =>
        oc
          .columns(['AreaId', 'Day', 'DeviceId', 'Result'])
          .doUpdateSet({ Count: sql<number>`"DoorOpeningRecordDay"."Count" + ${day.Count}` }),
      )
      .execute();
}

/**
 * The batch's records as `swipe.recorded` events in the outbox (platform/outbox), in the records' transaction:
 * the swipe list's own item (swipeEvent, the formatter the live list uses) with the area, so a receiver reads
 * the card, holder, door, result and reason the screen shows.
 */
async function emitSwipes(trx: Trx, batch: RecordBatch): Promise<void> {
  if (batch.stored.length === 0) return;
  const names = await areaNames(
    trx,
    batch.stored.map((r) => r.AreaId),
  );
  await emitEvents(
    trx,
    batch.stored.map((r) => ({
      type: 'swipe.recorded' as const,
      at: r.At,
      data: { ...swipeItem(r), AreaId: r.AreaId, AreaName: names.get(r.AreaId) ?? '' },
    })),
  );
}

/**
 * Runs `work` in one transaction with one batch of lookups, its per-day counts written before the commit.
 *
 * PostgreSQL: a record whose UTC month has no partition (partitions.ts; a controller's clock years off) fails
 * the insert with "no partition of relation found". The transaction has then rolled back entirely, so the
 * months of `ats` (the batch's instants) get their partitions, in transactions of their own, and `work` runs
 * again from the start; what was stored or counted the first time was rolled back with it.
 */
async function inBatch<T>(
  db: Kysely<Database>,
  ats: () => number[],
  work: (trx: Trx, batch: RecordBatch) => Promise<T>,
): Promise<T> {
  const run = () =>
    db.transaction().execute(async (trx) => {
      const batch = newBatch();
      const result = await work(trx, batch);
      await flushDays(trx, batch);
      await emitSwipes(trx, batch);
      return result;
    });
  try {
    return await run();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    await ensureSwipePartitions({ kysely: db, dialect: 'postgres' }, monthsOf(ats()));
    return run();
  }
}

/** What a record must say before anything is looked up (the device gateway's input, not the operator's). */
function checkSwipe(input: AnyInput, fromRing: boolean): void {
  if (!isEnumValue(doorNumber, input.DoorNumber)) throw fieldError('DoorNumber', 'validation.invalidOption');
  if (!isEnumValue(doorDirection, input.Direction)) throw fieldError('Direction', 'validation.invalidOption');
  if (input.Reason !== undefined && !isEnumValue(doorRecordReason, input.Reason))
    throw fieldError('Reason', 'validation.invalidOption');
  if (!fromRing && input.Reason === undefined) throw fieldError('Reason', 'validation.invalidOption');
  if (!Number.isSafeInteger(input.At) || input.At < 0) throw fieldError('At', 'validation.invalid');
}

/** A record ready to insert: its row, and what the caller answers once it is stored. */
interface PreparedSwipe {
  values: Insertable<Database['DoorOpeningRecord']>;
  record: Omit<StoredControllerRecord, 'Id' | 'Result' | 'RecordIndex' | 'EventType' | 'EventReason'>;
  result: number;
  ring: { RecordIndex: number; EventType: number; EventReason: number } | undefined;
}

/** Checks a record and reads what it copies (device, channel, holder, reason), through the batch's caches. */
async function prepareSwipe(trx: Trx, input: AnyInput, batch: RecordBatch): Promise<PreparedSwipe> {
  const fromRing = 'RecordIndex' in input;
  checkSwipe(input, fromRing);
  const device = await deviceOf(trx, batch, input);
  const areaId = device.AreaId;
  const cardNumber = cardNumberOf(input);
  const channels = await channelsOf(trx, batch, device.Id, input.DoorNumber);
  const channel = channels.find((c) => c.Direction === input.Direction) ?? channels[0];
  const holder = await holderOf(trx, batch, areaId, cardNumber);
  const result = input.Result ? 1 : 0;
  const reason =
    input.Reason ??
    (await explainReason(
      trx,
      batch,
      input as ControllerRecordInput,
      areaId,
      cardNumber,
      holder,
      channel?.Id,
    ));
  // Names are copied: the record reads the same after the holder, the device or the channel change.
  const record = {
    AreaId: areaId,
    At: input.At,
    CardNumber: cardNumber,
    CardUserId: holder?.Id ?? null,
    HolderName: holder?.Name ?? null,
    DeviceId: device.Id,
    DeviceName: device.Name,
    ChannelId: channel?.Id ?? null,
    ChannelName: channel?.Name ?? null,
    DoorNumber: input.DoorNumber,
    Direction: input.Direction,
    Reason: reason,
  };
  const ring = fromRing
    ? { RecordIndex: input.RecordIndex, EventType: input.EventType, EventReason: input.EventReason }
    : undefined;
  return { values: { ...record, Result: result, ...ring }, record, result, ring };
}

/** What a stored record answers (announced live, returned to the caller), counted on its day. */
function storedSwipe(
  prepared: PreparedSwipe,
  id: number,
  batch: RecordBatch,
  result: boolean,
): StoredControllerRecord {
  const { record, ring } = prepared;
  countDay(batch, record.AreaId, record.At, record.DeviceId, prepared.result);
  const stored = {
    Id: id,
    ...record,
    Result: result,
    // A swipe given without its ring place stores none: it is announced as stored, not with made-up values.
    ...(ring ?? { RecordIndex: null, EventType: null, EventReason: null }),
  };
  batch.stored.push(stored);
  return stored;
}

async function insertSwipe(
  trx: Trx,
  input: AnyInput,
  batch: RecordBatch,
): Promise<StoredControllerRecord | null> {
  const prepared = await prepareSwipe(trx, input, batch);
  // A ring record is stored once: its key, already in the ledger, turns a second sighting into nothing.
  if (prepared.ring) {
    const fresh = await newKeys(trx, prepared.record.DeviceId, [prepared.ring.RecordIndex]);
    if (fresh.size === 0) return null;
  }
  const row = await trx
    .insertInto('DoorOpeningRecord')
    .values(prepared.values)
    .returning('Id')
    .executeTakeFirstOrThrow();
  return storedSwipe(prepared, row.Id, batch, input.Result);
}

/**
 * Claims ring indexes of a controller in the exactly-once ledger (DoorOpeningRecordKey) and answers those that
 * were new: only their records are then inserted, in the same transaction. A key claimed by another
 * transaction not yet committed makes this one wait for it, and then counts as taken if it committed, so two
 * writers of the same record (a push and a poll) store it once. The ledger is what keeps (DeviceId,
 * RecordIndex) unique: the records' own index on it cannot be unique on PostgreSQL, where the table is
 * partitioned by month (a unique index would have to include At, and the same record reported again with
 * another At, a controller's clock changed across a month's end, would land in another partition).
 */
async function newKeys(trx: Trx, deviceId: number, indexes: number[]): Promise<Set<number>> {
  const rows = await trx
    .insertInto('DoorOpeningRecordKey')
    .values(indexes.map((RecordIndex) => ({ DeviceId: deviceId, RecordIndex })))
    .onConflict((oc) => oc.columns(['DeviceId', 'RecordIndex']).doNothing())
    .returning('RecordIndex')
    .execute();
  return new Set(rows.map((r) => Number(r.RecordIndex)));
}

/** Rows a multi-row insert carries: well under both databases' bound-parameter limits (16 columns a row). */
const INSERT_ROWS = 200;

/**
 * One controller's ring records, inserted many rows a statement (under a burst of pushes, the statement's
 * building and round trip were most of a record's cost). Exactly once as one at a time: the ledger's keys
 * (newKeys) skip what is already stored, and a record seen twice in the same call counts once.
 * Answers the records stored now, in the order given.
 */
async function insertRingSwipes(
  trx: Trx,
  deviceId: number,
  inputs: ControllerRecordInput[],
  batch: RecordBatch,
): Promise<StoredControllerRecord[]> {
  const seen = new Set<number>();
  const prepared: { input: ControllerRecordInput; swipe: PreparedSwipe }[] = [];
  for (const input of inputs) {
    if (seen.has(input.RecordIndex)) continue;
    seen.add(input.RecordIndex);
    prepared.push({ input, swipe: await prepareSwipe(trx, { ...input, DeviceId: deviceId }, batch) });
  }
  // Keys are claimed in ring order whatever order the records came in: two transactions claiming the same keys
  // (a push and a poll of one controller) then wait for each other in one order, never in a cycle (a deadlock).
  const ordered = [...prepared].sort((a, b) => a.input.RecordIndex - b.input.RecordIndex);
  const ids = new Map<number, number>();
  for (let i = 0; i < ordered.length; i += INSERT_ROWS) {
    const slice = ordered.slice(i, i + INSERT_ROWS);
    const fresh = await newKeys(
      trx,
      deviceId,
      slice.map((p) => p.input.RecordIndex),
    );
    const chunk = slice.filter((p) => fresh.has(p.input.RecordIndex));
    if (chunk.length === 0) continue;
    const rows = await trx
      .insertInto('DoorOpeningRecord')
      .values(chunk.map((p) => p.swipe.values))
      .returning(['Id', 'RecordIndex'])
      .execute();
    // RETURNING's order is not promised (SQLite says so): rows are matched by their ring index.
    for (const r of rows) ids.set(Number(r.RecordIndex), r.Id);
  }
  const stored: StoredControllerRecord[] = [];
  for (const { input, swipe } of prepared) {
    const id = ids.get(input.RecordIndex);
    if (id !== undefined) stored.push(storedSwipe(swipe, id, batch, input.Result));
  }
  return stored;
}

/**
 * The single way swipe records are written (the device gateway calls it; no HTTP endpoint creates
 * records). Resolves the area from the controller, the channel from door and direction, the holder from
 * the card, copies their names, and keeps the per-day counts in step, all in one transaction: a batch
 * of swipes is stored entirely or not at all. Returns the new record ids in input order.
 */
export async function recordSwipes(db: Kysely<Database>, inputs: SwipeInput[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  return inBatch(
    db,
    () => inputs.map((i) => i.At),
    async (trx, batch) => {
      const ids: number[] = [];
      for (const input of inputs) ids.push((await insertSwipe(trx, input, batch))!.Id);
      return ids;
    },
  );
}

/**
 * Stores records read from one controller's ring, each at most once: a record already stored (same device
 * and ring index) is skipped, so a retry, a restart, or a record both pushed and polled adds nothing. When
 * `cursor` is given, the controller's collection cursor moves to it in the same transaction, so the cursor
 * never runs ahead of what is stored (and a crash in between only means reading a few records again).
 * Returns the records newly stored.
 */
export async function storeControllerRecords(
  ctx: ServiceContext,
  deviceId: number,
  inputs: ControllerRecordInput[],
  cursor?: { nextIndex: number; lost: number },
): Promise<StoredControllerRecord[]> {
  return inBatch(
    ctx.db.kysely,
    () => inputs.map((i) => i.At),
    async (trx, batch) => {
      // Behind the gateway's lease (ctx.fence): a former owner's late pass moves no cursor back.
      await ctx.fence?.(trx);
      return storeRingRecords(trx, ctx.clock.now(), deviceId, inputs, batch, cursor);
    },
  );
}

/**
 * Records that controllers pushed to the listener, of several controllers at once, in one transaction (the
 * gateway gathers what arrives within a few milliseconds): under a burst, one commit and one device lookup per
 * controller instead of one per datagram. Each record is stored at most once and moves its controller's
 * cursor exactly as `storeControllerRecords` does; all or nothing, like it.
 */
export async function storePushedRecords(
  ctx: ServiceContext,
  batches: { deviceId: number; inputs: ControllerRecordInput[]; fence?: Fence }[],
): Promise<StoredControllerRecord[]> {
  const ats = () => batches.flatMap((b) => b.inputs.map((i) => i.At));
  return inBatch(ctx.db.kysely, ats, async (trx, lookups) => {
    const now = ctx.clock.now();
    const stored: StoredControllerRecord[] = [];
    // Each controller's records behind its own lease (ServiceContext.fence), checked before anything is written.
    for (const batch of batches) await batch.fence?.(trx);
    for (const batch of batches)
      stored.push(...(await storeRingRecords(trx, now, batch.deviceId, batch.inputs, lookups)));
    return stored;
  });
}

async function storeRingRecords(
  trx: Trx,
  now: number,
  deviceId: number,
  inputs: ControllerRecordInput[],
  batch: RecordBatch,
  cursor?: { nextIndex: number; lost: number },
): Promise<StoredControllerRecord[]> {
  const stored = await insertRingSwipes(trx, deviceId, inputs, batch);
  if (cursor) {
    await trx
      .insertInto('AccessControlRecordCursor')
      .values({ DeviceId: deviceId, NextIndex: cursor.nextIndex, LostRecords: cursor.lost, UpdatedAt: now })
      .onConflict((oc) =>
        oc.column('DeviceId').doUpdateSet({
          NextIndex: cursor.nextIndex,
          LostRecords: sql<number>`"AccessControlRecordCursor"."LostRecords" + ${cursor.lost}`,
          UpdatedAt: now,
        }),
      )
      .execute();
  } else if (inputs.length > 0) {
    // Pushed records right at the cursor move it on past the run they make, so the next poll does not read
    // them again; a cursor that is elsewhere (a gap before them) stays for the poll.
    const cursorRow = await trx
      .selectFrom('AccessControlRecordCursor')
      .select('NextIndex')
      .where('DeviceId', '=', deviceId)
      .executeTakeFirst();
    if (cursorRow) {
      const from = Number(cursorRow.NextIndex);
      const pushed = new Set(inputs.map((i) => i.RecordIndex));
      let next = from;
      while (pushed.has(next)) next += 1;
      if (next !== from)
        await trx
          .updateTable('AccessControlRecordCursor')
          .set({ NextIndex: next, UpdatedAt: now })
          .where('DeviceId', '=', deviceId)
          .where('NextIndex', '=', from)
          .execute();
    }
  }
  return stored;
}

/** A controller's collection cursor, or undefined before its first collection. */
export async function recordCursor(
  ctx: ServiceContext,
  deviceId: number,
): Promise<{ nextIndex: number; lost: number } | undefined> {
  const row = await ctx.db.kysely
    .selectFrom('AccessControlRecordCursor')
    .select(['NextIndex', 'LostRecords'])
    .where('DeviceId', '=', deviceId)
    .executeTakeFirst();
  return row && { nextIndex: Number(row.NextIndex), lost: Number(row.LostRecords) };
}

/**
 * The ring indexes in [fromIndex, toIndex) of a controller that are stored already (pushed before a poll). Read
 * from the ledger, which holds exactly the stored records' keys: one index range, where the records' own
 * index on PostgreSQL is one per monthly partition.
 */
export async function storedRecordIndexes(
  ctx: ServiceContext,
  deviceId: number,
  fromIndex: number,
  toIndex: number,
): Promise<Set<number>> {
  const rows = await ctx.db.kysely
    .selectFrom('DoorOpeningRecordKey')
    .select('RecordIndex')
    .where('DeviceId', '=', deviceId)
    .where('RecordIndex', '>=', fromIndex)
    .where('RecordIndex', '<', toIndex)
    .execute();
  return new Set(rows.map((r) => Number(r.RecordIndex)));
}

export async function recordSwipe(db: Kysely<Database>, input: SwipeInput): Promise<number> {
  const [recordId] = await recordSwipes(db, [input]);
  return recordId!;
}

/**
 * How many ring records of a controller in [fromIndex, toIndex) are already stored (pushed events arrive
 * before the poll reaches them): a gap the ring overwrote counts as lost only for the records never seen. From
 * the ledger, like storedRecordIndexes.
 */
export async function storedRecordCount(
  ctx: ServiceContext,
  deviceId: number,
  fromIndex: number,
  toIndex: number,
): Promise<number> {
  const row = await ctx.db.kysely
    .selectFrom('DoorOpeningRecordKey')
    .select(sql<number>`count(*)`.as('n'))
    .where('DeviceId', '=', deviceId)
    .where('RecordIndex', '>=', fromIndex)
    .where('RecordIndex', '<', toIndex)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
