// Record collection, exactly once (docs/devices.md, "Collection"). Per controller: the cursor persisted in
// the database says which ring index to read next; records are read by index (0xB0) until the end of the
// ring, stored through the access-control face in batches together with the cursor, and the controller's
// own read index is written back (0xB2) so other tools see what Gatehouse has taken. Storing is idempotent
// on (device, ring index): a crash between storing and moving the cursor, a retry, or a record seen both
// pushed and polled adds nothing.

import {
  recordCursor,
  storeControllerRecords,
  storedRecordCount,
  storedRecordIndexes,
  type ControllerRecordInput,
  type ControllerRef,
  type StoredControllerRecord,
} from '../../modules/access-control/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { WgRecord } from './codec.ts';
import { Reason, RecordType } from './constants.ts';
import type { WgDevice, WgDriver } from './driver.ts';
import { fromLocalDateTime } from './time.ts';

export interface CollectResult {
  stored: StoredControllerRecord[];
  /** records the ring overwrote before they were read, found in this pass */
  lost: number;
  /** the cursor after this pass */
  nextIndex: number;
  /** records read (stored or already stored) */
  read: number;
}

/**
 * A refusal the controller names, as the screens' doorRecordReason (packages/shared enums/doors.ts): the WG
 * reason byte is the one in uhppote-core messages/get_event.go ("Reason": 5 PC control, 7 wrong PASSWORD,
 * 8 AntiBack, 9 more cards, 10 first card open, 11 door set NC, 12 InterLock, 13 limited times, 15 invalid
 * timezone). "No privilege" (6), plain "denied" (18) and codes not listed carry no rule: the access-control
 * service explains those from what Gatehouse holds about the card.
 */
const REFUSAL_REASONS: ReadonlyMap<number, number> = new Map([
  [Reason.DeniedInvalidTimezone, 7],
  [Reason.DeniedAntiPassback, 8],
  [Reason.DeniedInterlock, 9],
  [Reason.DeniedWrongPassword, 10],
  [Reason.DeniedDoorNormallyClosed, 11],
  [Reason.DeniedMoreCards, 12],
  [Reason.DeniedFirstCardOpen, 13],
  [Reason.DeniedLimitedTimes, 14],
  [Reason.DeniedPcControl, 15],
]);

/** A ring record as the access-control service takes it; null for "no record" and overwritten slots. */
export function recordInput(
  record: WgRecord,
  device: ControllerRef,
  now: number,
): ControllerRecordInput | null {
  if (record.index === 0 || record.type === RecordType.None || record.type === RecordType.Overwritten)
    return null;
  const refusal =
    record.type === RecordType.Swipe && !record.granted ? REFUSAL_REASONS.get(record.reason) : undefined;
  return {
    ...(refusal !== undefined ? { Reason: refusal } : {}),
    DeviceId: device.Id,
    RecordIndex: record.index,
    EventType: record.type,
    EventReason: record.reason,
    // A record whose clock the controller lost (all-zero date) is dated when Gatehouse reads it.
    At: record.time ? fromLocalDateTime(record.time, device.TimeZone).getTime() : now,
    DoorNumber: record.door >= 1 && record.door <= 4 ? record.door : 0,
    Direction: record.direction === 1 || record.direction === 2 ? record.direction : 0,
    CardValue: record.card.kind === 'card' ? record.card.number : 0,
    Result: record.granted,
  };
}

/** One collection pass's running state: the cursor, the batch not yet stored and what the ring lost. */
class CollectionPass {
  next: number;
  read = 0;
  lostTotal = 0;
  readonly stored: StoredControllerRecord[] = [];
  private lostPending = 0;
  private batch: ControllerRecordInput[] = [];
  private storedWindow: Set<number> = new Set();
  private knownUpTo: number;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly device: ControllerRef,
    readonly start: number,
    private readonly batchSize: number,
    private readonly onStored?: (records: StoredControllerRecord[]) => void,
  ) {
    this.next = start;
    this.knownUpTo = start;
  }

  /** Records read and not yet stored. */
  get pending(): number {
    return this.batch.length;
  }

  /** Whether this pass has anything to store: records, a gap, or a moved cursor. */
  get hasNews(): boolean {
    return this.batch.length > 0 || this.lostPending !== 0 || this.next !== this.start;
  }

  async flush(): Promise<void> {
    const rows = await storeControllerRecords(this.ctx, this.device.Id, this.batch, {
      nextIndex: this.next,
      lost: this.lostPending,
    });
    this.stored.push(...rows);
    if (rows.length) this.onStored?.(rows);
    this.batch = [];
    this.lostPending = 0;
  }

  async take(input: ControllerRecordInput | null): Promise<void> {
    if (input) this.batch.push(input);
    this.read++;
    this.next++;
    if (this.batch.length >= this.batchSize) await this.flush();
  }

  // Records between the cursor and `index` are gone from the ring; those a push already stored are not lost.
  async skipTo(index: number): Promise<void> {
    const seen = await storedRecordCount(this.ctx, this.device.Id, this.next, index);
    this.lostPending += index - this.next - seen;
    this.lostTotal += index - this.next - seen;
    this.next = index;
  }

  // Records a push already stored need no reading (one request each): under a burst the poll would otherwise
  // read again everything the listener brought. Looked up a window at a time; the ring's end is still found
  // by reading, at the first index not stored.
  async alreadyStored(index: number): Promise<boolean> {
    if (index >= this.knownUpTo) {
      this.knownUpTo = index + this.batchSize;
      this.storedWindow = await storedRecordIndexes(this.ctx, this.device.Id, index, this.knownUpTo);
    }
    return this.storedWindow.has(index);
  }
}

/** Reads the ring from the pass's cursor to its end, storing in batches as it goes. */
async function readRing(
  driver: WgDriver,
  ctx: ServiceContext,
  device: ControllerRef,
  wg: WgDevice,
  pass: CollectionPass,
): Promise<void> {
  for (;;) {
    if (await pass.alreadyStored(pass.next)) {
      pass.next++;
      continue;
    }
    let record: Awaited<ReturnType<WgDriver['getRecord']>>;
    try {
      record = await driver.getRecord(wg, pass.next);
    } catch (error) {
      // A request the controller did not answer (a lost datagram under load) ends the pass; what it read up to
      // here is kept with the cursor just past it, so the next pass starts there instead of reading it again.
      if (pass.pending || pass.next !== pass.start) await pass.flush().catch(() => {});
      throw error;
    }
    if (record.type === RecordType.Overwritten) {
      // The slot was reused: jump to the oldest record still held (index 0 asks for it).
      const oldest = await driver.getRecord(wg, 0);
      if (oldest.index <= pass.next || oldest.type === RecordType.None) break;
      await pass.skipTo(oldest.index);
      continue;
    }
    if (record.index === 0 || record.type === RecordType.None) break;
    if (record.index !== pass.next) {
      // A controller that answers a wrapped index with a newer record: the ones between are gone.
      if (record.index < pass.next) break;
      await pass.skipTo(record.index);
    }
    await pass.take(recordInput(record, device, ctx.clock.now()));
  }
}

/**
 * Reads every record the controller has past the cursor. A first collection starts after the controller's
 * read index (what an earlier host already took). Overwritten slots (type 0xFF) and a ring that moved past
 * the cursor while Gatehouse was away resume at the oldest record the controller still has; the gap is
 * counted as lost and persisted with the cursor.
 */
export async function collectRecords(
  driver: WgDriver,
  ctx: ServiceContext,
  device: ControllerRef,
  wg: WgDevice,
  options: { batchSize?: number; onStored?: (records: StoredControllerRecord[]) => void } = {},
): Promise<CollectResult> {
  const cursor = await recordCursor(ctx, device.Id);
  const start = cursor?.nextIndex ?? (await driver.getReadIndex(wg)) + 1;
  const pass = new CollectionPass(ctx, device, start, options.batchSize ?? 100, options.onStored);
  await readRing(driver, ctx, device, wg, pass);
  if (pass.hasNews || !cursor) await pass.flush();
  const next = pass.next;
  if (next !== start && next > 1) {
    // Tell the controller what was taken; a failure here costs nothing (the database cursor is the truth).
    await driver.setReadIndex(wg, next - 1).catch(() => {});
  }
  return { stored: pass.stored, lost: pass.lostTotal, nextIndex: next, read: pass.read };
}
