import {
  canonicalCardNumber,
  cardToDisplay,
  doorDirection,
  doorNumber,
  doorRecordReason,
  isEnumValue,
  type MusterItem,
} from '@gatehouse/shared';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { fieldError } from '../../../platform/errors.ts';
import type { Fence, ServiceContext } from '../../../platform/context.ts';
import { areaNames, emitEvents } from '../../../platform/outbox/outbox.ts';
import { DAY_MS } from '../../../platform/record-days.ts';
import { inChunks, type Trx } from '../common.ts';
import { swipeItem } from './list.ts';
import {
  channelFor,
  channelsOf,
  countDay,
  deviceOf,
  explainReason,
  holderOf,
  newBatch,
  preload,
  type AnyInput,
  type RecordBatch,
} from './lookups.ts';
import { markSafeBySwipes } from '../muster/swipes.ts';
import { noteOccupancy } from '../occupancy/ingest.ts';
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
  /**
   * The roll call this swipe marked its holder safe on (a muster point's swipe, muster/swipes.ts), with its counts
   * after the batch: what the gateway tells the area's browsers besides the swipe.
   */
  Muster?: MusterItem;
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

/** The card number of a record, or undefined when it does not parse (the record's own lookup then says why). */
function cardOrUndefined(input: AnyInput): string | undefined {
  try {
    return cardNumberOf(input);
  } catch {
    return undefined;
  }
}

/**
 * Rows a multi-row insert carries: under both databases' bound-parameter limits (SQLite's 32,766 at the records'
 * 16 columns a row), and a batch of a few hundred records in one statement.
 */
const INSERT_ROWS = 500;

/**
 * Writes the batch's per-day counts (added to what is stored), many a statement. In key order: two transactions
 * counting the same days then wait for each other in one order, never in a cycle.
 */
async function flushDays(trx: Trx, batch: RecordBatch): Promise<void> {
  const days = [...batch.days.values()].sort(
    (a, b) => a.AreaId - b.AreaId || a.Day - b.Day || a.DeviceId - b.DeviceId || a.Result - b.Result,
  );
  await inChunks(
    days,
    (slice) =>
      trx
        .insertInto('DoorOpeningRecordDay')
        .values(slice)
        .onConflict((oc) =>
          oc
            .columns(['AreaId', 'Day', 'DeviceId', 'Result'])
            .doUpdateSet({ Count: sql<number>`"DoorOpeningRecordDay"."Count" + excluded."Count"` }),
        )
        .execute(),
    INSERT_ROWS,
  );
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
      // Who is inside, and the roll call under way, follow the swipes in their own transaction (one writer each:
      // occupancy/ and muster/, called with it).
      await noteOccupancy(trx, batch.stored);
      await markSafeBySwipes(trx, batch.stored);
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
  const channel = channelFor(await channelsOf(trx, batch, device.Id, input.DoorNumber), input.Direction);
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
    const fresh = await claimKeys(trx, [
      { DeviceId: prepared.record.DeviceId, RecordIndex: prepared.ring.RecordIndex },
    ]);
    if (fresh.size === 0) return null;
  }
  const row = await trx
    .insertInto('DoorOpeningRecord')
    .values(prepared.values)
    .returning('Id')
    .executeTakeFirstOrThrow();
  return storedSwipe(prepared, row.Id, batch, input.Result);
}

/** One controller's ring records, as one call gives them. */
interface RingGroup {
  deviceId: number;
  inputs: ControllerRecordInput[];
}

/** A ring record's key in the ledger, as a map key. */
const ringKey = (deviceId: number, recordIndex: number) => `${deviceId}:${recordIndex}`;

/**
 * Claims ring keys in the exactly-once ledger (DoorOpeningRecordKey), several controllers' in one statement, and
 * answers those that were new (by ringKey): only their records are then inserted, in the same transaction. A key
 * claimed by another transaction not yet committed makes this one wait for it, and then counts as taken if it
 * committed, so two writers of the same record (a push and a poll) store it once. The ledger is what keeps
 * (DeviceId, RecordIndex) unique: the records' own index on it cannot be unique on PostgreSQL, where the table is
 * partitioned by month (a unique index would have to include At, and the same record reported again with
 * another At, a controller's clock changed across a month's end, would land in another partition).
 */
async function claimKeys(trx: Trx, keys: { DeviceId: number; RecordIndex: number }[]): Promise<Set<string>> {
  const rows = await trx
    .insertInto('DoorOpeningRecordKey')
    .values(keys)
    .onConflict((oc) => oc.columns(['DeviceId', 'RecordIndex']).doNothing())
    .returning(['DeviceId', 'RecordIndex'])
    .execute();
  return new Set(rows.map((r) => ringKey(Number(r.DeviceId), Number(r.RecordIndex))));
}

/**
 * Controllers' ring records, inserted many rows a statement and several controllers a statement (under a burst
 * of pushes, a statement's round trip was most of a record's cost, on PostgreSQL above all). Exactly once as one
 * at a time: the ledger's keys (claimKeys) skip what is already stored, and a record seen twice in the same call
 * counts once. Answers the records stored now, group by group in the order given.
 */
async function insertRingSwipes(
  trx: Trx,
  groups: readonly RingGroup[],
  batch: RecordBatch,
): Promise<StoredControllerRecord[]> {
  const all = groups.flatMap((g) => g.inputs.map((input) => ({ ...input, DeviceId: g.deviceId })));
  await preload(trx, batch, all, cardOrUndefined);
  const seen = new Set<string>();
  const prepared: { deviceId: number; input: ControllerRecordInput; swipe: PreparedSwipe }[] = [];
  for (const input of all) {
    const key = ringKey(input.DeviceId, input.RecordIndex);
    if (seen.has(key)) continue;
    seen.add(key);
    prepared.push({ deviceId: input.DeviceId, input, swipe: await prepareSwipe(trx, input, batch) });
  }
  // Keys are claimed in (controller, ring index) order whatever order the records came in: two transactions
  // claiming the same keys (a push and a poll of one controller) then wait for each other in one order, never in
  // a cycle (a deadlock). One statement claims its rows in the order it lists them.
  const ordered = [...prepared].sort(
    (a, b) => a.deviceId - b.deviceId || a.input.RecordIndex - b.input.RecordIndex,
  );
  const inserted = await inChunks(
    ordered,
    async (slice) => {
      const fresh = await claimKeys(
        trx,
        slice.map((p) => ({ DeviceId: p.deviceId, RecordIndex: p.input.RecordIndex })),
      );
      const chunk = slice.filter((p) => fresh.has(ringKey(p.deviceId, p.input.RecordIndex)));
      if (chunk.length === 0) return [];
      return trx
        .insertInto('DoorOpeningRecord')
        .values(chunk.map((p) => p.swipe.values))
        .returning(['Id', 'DeviceId', 'RecordIndex'])
        .execute();
    },
    INSERT_ROWS,
  );
  // RETURNING's order is not promised (SQLite says so): rows are matched by their ring key.
  const ids = new Map(inserted.map((r) => [ringKey(Number(r.DeviceId), Number(r.RecordIndex)), r.Id]));
  const stored: StoredControllerRecord[] = [];
  for (const { deviceId, input, swipe } of prepared) {
    const id = ids.get(ringKey(deviceId, input.RecordIndex));
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
      await preload(trx, batch, inputs, cardOrUndefined);
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
      const stored = await insertRingSwipes(trx, [{ deviceId, inputs }], batch);
      const now = ctx.clock.now();
      if (!cursor) await advanceCursors(trx, now, [{ deviceId, inputs }]);
      else
        await trx
          .insertInto('AccessControlRecordCursor')
          .values({
            DeviceId: deviceId,
            NextIndex: cursor.nextIndex,
            LostRecords: cursor.lost,
            UpdatedAt: now,
          })
          .onConflict((oc) =>
            oc.column('DeviceId').doUpdateSet({
              NextIndex: cursor.nextIndex,
              LostRecords: sql<number>`"AccessControlRecordCursor"."LostRecords" + ${cursor.lost}`,
              UpdatedAt: now,
            }),
          )
          .execute();
      return stored;
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
    // Each controller's records behind its own lease (ServiceContext.fence), checked before anything is written.
    for (const batch of batches) await batch.fence?.(trx);
    const stored = await insertRingSwipes(trx, batches, lookups);
    await advanceCursors(trx, ctx.clock.now(), batches);
    return stored;
  });
}

/**
 * Pushed records right at a controller's cursor move it on past the run they make, so the next poll does not read
 * them again; a cursor that is elsewhere (a gap before them) stays for the poll. Every controller of the call with
 * one read and one write (a round trip each on PostgreSQL, however many controllers); the write is conditional on
 * the cursor read, so one a poll moved meanwhile stays where the poll put it.
 */
async function advanceCursors(trx: Trx, now: number, groups: readonly RingGroup[]): Promise<void> {
  const pushed = new Map<number, Set<number>>();
  for (const { deviceId, inputs } of groups)
    for (const input of inputs)
      pushed.set(deviceId, (pushed.get(deviceId) ?? new Set()).add(input.RecordIndex));
  const moves: { deviceId: number; from: number; next: number }[] = [];
  for (const row of await inChunks([...pushed.keys()], (slice) =>
    trx
      .selectFrom('AccessControlRecordCursor')
      .select(['DeviceId', 'NextIndex'])
      .where('DeviceId', 'in', slice)
      .execute(),
  )) {
    const indexes = pushed.get(Number(row.DeviceId))!;
    const from = Number(row.NextIndex);
    let next = from;
    while (indexes.has(next)) next += 1;
    if (next !== from) moves.push({ deviceId: Number(row.DeviceId), from, next });
  }
  // Three values a controller: well under the bound-parameter limits at inChunks' 500 controllers a statement.
  await inChunks(moves, (slice) => {
    const nextIndex = sql<number>`case ${sql.join(
      slice.map((m) => sql`when ${sql.ref('DeviceId')} = ${m.deviceId} then ${m.next}`),
      sql` `,
    )} else ${sql.ref('NextIndex')} end`;
    return trx
      .updateTable('AccessControlRecordCursor')
      .set({ NextIndex: nextIndex, UpdatedAt: now })
      .where((eb) =>
        eb.or(slice.map((m) => eb.and([eb('DeviceId', '=', m.deviceId), eb('NextIndex', '=', m.from)]))),
      )
      .execute();
  });
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
