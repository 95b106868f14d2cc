import type { Db } from '../../db/database.ts';
import type { DemoContext } from '../context.ts';
import { DAY_MS, ensureSwipePartitions, monthsOf } from '../../modules/access-control/index.ts';
import { prng, type Random } from '../random.ts';
import { bulkInsert } from './bulk.ts';

/** What the swipe generator needs of a holder and a device. */
export interface SwipeDevice {
  Id: number;
  Name: string;
  channels: { Id: number; Name: string; DoorNumber: number; Direction: number }[];
}

export interface SwipeHolder {
  id: number;
  name: string;
  cards: string[];
  channels: { device: SwipeDevice; channel: SwipeDevice['channels'][number] }[];
  createdAt: number;
  validFrom: number;
  validTo: number;
  disabledAt: number | null;
}

const WINDOW_DAYS = 90;
const LOCAL_OFFSET = 8 * 3_600_000;

/** Minute of the local day: rush hours in the morning and evening, quieter daytime, little at night. */
function minuteOfDay(r: Random): number {
  const u = r.next();
  if (u < 0.3) return r.int(7 * 60, 9 * 60 + 30);
  if (u < 0.6) return r.int(17 * 60, 20 * 60);
  if (u < 0.95) return r.int(6 * 60, 23 * 60);
  return r.int(0, 24 * 60 - 1);
}

/**
 * Refusals the controller itself makes of an authorised card, with the reason it gives (doorRecordReason,
 * packages/shared enums/doors.ts): 8 anti-passback (a second entry without leaving), 7 outside the card's time
 * profile. Each takes a slice of the draw that otherwise makes an authorised swipe.
 */
const CONTROLLER_REFUSALS: { below: number; reason: number }[] = [
  { below: 0.042, reason: 8 },
  { below: 0.048, reason: 7 },
];

/**
 * The controller's reason byte (WG `Reason`, doorEventReason) for each cause a seeded swipe has: granted 1; a card
 * the controller does not hold for the door or not today (not registered or given, no authorisation, outside its
 * validity, holder disabled) 6 "no privilege"; its own refusals 15 "invalid time zone" and 8 "anti-passback".
 */
const CONTROLLER_REASON: Record<number, number> = { 1: 1, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, 7: 15, 8: 8 };

/** A swipe at a channel (an unknown card when there is no holder); granted exactly when the reason is 1. */
function swipeRow(
  areaId: number,
  { device, channel }: SwipeHolder['channels'][number],
  at: number,
  card: string,
  holder: { id: number; name: string } | null,
  reason: number,
): Record<string, number | string | null> {
  return {
    AreaId: areaId,
    At: at,
    CardNumber: card,
    CardUserId: holder?.id ?? null,
    HolderName: holder?.name ?? null,
    DeviceId: device.Id,
    DeviceName: device.Name,
    ChannelId: channel.Id,
    ChannelName: channel.Name,
    DoorNumber: channel.DoorNumber,
    Direction: channel.Direction,
    Result: reason === 1 ? 1 : 0,
    Reason: reason,
    // Shaped as the WG gateway stores a swipe it read from a controller: record type 1 and the controller's own
    // reason byte. No ring index: these were never in a simulated controller's ring (an index there would
    // stand for a record the controller still holds), as records stored before a ring restart have none.
    RecordIndex: null,
    EventType: 1,
    EventReason: CONTROLLER_REASON[reason] ?? 6,
  };
}

/** The per-day counts of the records (by UTC day, device and result), as the service keeps them. */
function dayCountRows(
  areaId: number,
  records: Record<string, number | string | null>[],
): Record<string, number>[] {
  const days = new Map<string, Record<string, number>>();
  for (const rec of records) {
    const Day = Math.floor((rec.At as number) / DAY_MS);
    const key = `${Day}:${rec.DeviceId}:${rec.Result}`;
    const row = days.get(key);
    if (row) row.Count! += 1;
    else
      days.set(key, {
        AreaId: areaId,
        Day,
        DeviceId: rec.DeviceId as number,
        Result: rec.Result as number,
        Count: 1,
      });
  }
  return [...days.values()];
}

/**
 * Granted swipes at an in reader within the last hour and a half, of `count` holders who may pass now: the people
 * inside the area as the demo opens (issue 31, "who is inside"), so its muster screen has someone on it. Drawn
 * after the history, which stays what it was.
 */
function arrivals(
  r: Random,
  areaId: number,
  holders: SwipeHolder[],
  now: number,
  count: number,
): Record<string, number | string | null>[] {
  const able = holders.filter(
    (h) =>
      h.disabledAt === null &&
      h.validFrom <= now &&
      h.validTo > now &&
      h.cards.length > 0 &&
      h.channels.some((c) => c.channel.Direction === 1),
  );
  const rows: Record<string, number | string | null>[] = [];
  for (const h of able.slice(0, count)) {
    const door = r.pick(h.channels.filter((c) => c.channel.Direction === 1));
    rows.push(swipeRow(areaId, door, now - r.int(5, 90) * 60_000, r.pick(h.cards), h, 1));
  }
  return rows;
}

/**
 * Swipe records of the last 90 days, written in time order with the per-day counts the list relies on.
 * Mostly authorised swipes; some unregistered cards, doors without authorisation, expired validity and
 * disabled holders fail with their reason, and some authorised cards are refused by the controller
 * (anti-passback, outside their time profile) with the controller's reason.
 */
export async function seedSwipes(
  db: Db,
  ctx: DemoContext,
  r: Random,
  options: {
    areaId: number;
    count: number;
    holders: SwipeHolder[];
    devices: SwipeDevice[];
    /** Write the per-day counts too (a caller loading in several batches builds them once at the end). */
    dayCounts?: boolean;
    /** People who came in through an in reader within the last hour and a half (who is inside now). */
    inside?: number;
  },
): Promise<void> {
  const { areaId, holders, devices } = options;
  const now = ctx.now;
  const windowStart = now - WINDOW_DAYS * DAY_MS;
  const todayMidnight = Math.floor((now + LOCAL_OFFSET) / DAY_MS) * DAY_MS - LOCAL_OFFSET;
  const allChannels = devices.flatMap((device) => device.channels.map((channel) => ({ device, channel })));
  if (allChannels.length === 0) return;
  const timeIn = (from: number) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const t =
        todayMidnight - r.int(0, WINDOW_DAYS - 1) * DAY_MS + minuteOfDay(r) * 60_000 + r.int(0, 59_999);
      if (t <= now && t >= from) return t;
    }
    return from + Math.floor(r.next() * Math.max(1, now - from));
  };

  const records: Record<string, number | string | null>[] = [];
  for (let i = 0; i < options.count; i++) {
    const u = r.next();
    if (u < 0.02 || holders.length === 0) {
      // Drawn in this order (channel, time, card), so the demo's records stay what they were.
      const where = r.pick(allChannels);
      const at = timeIn(windowStart);
      const card = String(r.int(90_000_000, 99_999_999)).padStart(10, '0');
      records.push(swipeRow(areaId, where, at, card, null, 2));
      continue;
    }
    const h = r.pick(holders);
    const at = timeIn(Math.max(windowStart, h.createdAt));
    const unauthorised = u < 0.035;
    const { device, channel } = unauthorised ? r.pick(allChannels) : r.pick(h.channels);
    let reason = unauthorised && !h.channels.some((c) => c.channel.Id === channel.Id) ? 4 : 1;
    if (reason === 1 && h.disabledAt !== null && at >= h.disabledAt) reason = 6;
    else if (reason === 1 && (at > h.validTo || at < h.validFrom)) reason = 5;
    else if (reason === 1) reason = CONTROLLER_REFUSALS.find((c) => u < c.below)?.reason ?? 1;
    records.push(swipeRow(areaId, { device, channel }, at, r.pick(h.cards), h, reason));
  }
  // A generator of their own: the draws of the rest of the demo (the next area's) stay what they were.
  records.push(...arrivals(prng(20_261_131 + areaId), areaId, holders, now, options.inside ?? 0));
  records.sort((a, b) => (a.At as number) - (b.At as number));
  // PostgreSQL: written around the service, so the months they fall in get their partitions here.
  await ensureSwipePartitions(db, monthsOf(records.map((rec) => rec.At as number)));
  await bulkInsert(db, ctx.sqlite, 'DoorOpeningRecord', records);
  if (options.dayCounts === false) return;

  await bulkInsert(db, ctx.sqlite, 'DoorOpeningRecordDay', dayCountRows(areaId, records));
}
