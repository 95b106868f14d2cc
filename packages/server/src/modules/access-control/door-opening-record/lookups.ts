import { AppError } from '../../../platform/errors.ts';
import { DAY_MS } from '../../../platform/record-days.ts';
import type { Trx } from '../common.ts';
import type { ControllerRecordInput, StoredControllerRecord, SwipeInput } from './service.ts';

// What storing a transaction's records reads (controller, channel, card holder, authorisation) and counts, each
// looked up once per transaction: kept apart from service.ts, which writes the records, the ledger and the
// cursor, so the write path reads in one file and the lookups it leans on in another.

interface DeviceRow {
  Id: number;
  AreaId: number | null;
  Name: string;
  SerialNumber: string;
}

export type AnyInput = SwipeInput | ControllerRecordInput;

interface ChannelRow {
  Id: number;
  Name: string;
  Direction: number;
}

interface HolderRow {
  Id: number;
  Name: string;
  Disabled: number;
  ValidFrom: number;
  ValidTo: number;
}

/** An issued, unrevoked authorisation's own validity (null: the holder's). */
interface LinkRow {
  ValidFrom: number | null;
  ValidTo: number | null;
}

/**
 * What one transaction of records looks up, each once: a burst brings many records of the same controllers,
 * doors and cards, and inside one transaction the rows read do not change under it. The per-day counts are
 * summed here and written once per day, device and result when the batch ends (`flushDays`), in the same
 * transaction as the records they count.
 */
export interface RecordBatch {
  devices: Map<string, DeviceRow>;
  /** By `deviceId:door`. */
  channels: Map<string, ChannelRow[]>;
  /** By `areaId:cardNumber`: the card's holder, null for a card without one or no card. */
  holders: Map<string, HolderRow | null>;
  /** By `areaId:cardNumber`: whether the card is registered in the area. */
  cards: Map<string, boolean>;
  /** By `holderId:channelId`: the issued, unrevoked authorisation, null for none. */
  links: Map<string, LinkRow | null>;
  /** By `areaId:day:deviceId:result`. */
  days: Map<string, { AreaId: number; Day: number; DeviceId: number; Result: number; Count: number }>;
  /** The records stored in this transaction, reported as `swipe.recorded` before the commit (emitSwipes). */
  stored: StoredControllerRecord[];
}

export function newBatch(): RecordBatch {
  return {
    devices: new Map(),
    channels: new Map(),
    holders: new Map(),
    cards: new Map(),
    links: new Map(),
    days: new Map(),
    stored: [],
  };
}

/** The batch's value under `key`, loaded the first time it is asked for. */
async function once<V>(map: Map<string, V>, key: string, load: () => Promise<V>): Promise<V> {
  if (map.has(key)) return map.get(key)!;
  const value = await load();
  map.set(key, value);
  return value;
}

export function channelsOf(
  trx: Trx,
  batch: RecordBatch,
  deviceId: number,
  door: number,
): Promise<ChannelRow[]> {
  return once(batch.channels, `${deviceId}:${door}`, () =>
    trx
      .selectFrom('AccessControlChannel')
      .select(['Id', 'Name', 'Direction'])
      .where('DeviceId', '=', deviceId)
      .where('DoorNumber', '=', door)
      .orderBy('Id')
      .execute(),
  );
}

export async function holderOf(
  trx: Trx,
  batch: RecordBatch,
  areaId: number,
  cardNumber: string,
): Promise<HolderRow | undefined> {
  const holder = await once(
    batch.holders,
    `${areaId}:${cardNumber}`,
    async () =>
      (await trx
        .selectFrom('Card')
        .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
        .select([
          'CardUser.Id',
          'CardUser.Name',
          'CardUser.Disabled',
          'CardUser.ValidFrom',
          'CardUser.ValidTo',
        ])
        .where('Card.CardNumber', '=', cardNumber)
        .where('Card.AreaId', '=', areaId)
        .executeTakeFirst()) ?? null,
  );
  return holder ?? undefined;
}

/** The controller a record names (by id or serial), assigned to an area. */
export async function deviceOf(
  trx: Trx,
  batch: RecordBatch,
  input: AnyInput,
): Promise<DeviceRow & { AreaId: number }> {
  const key = input.DeviceId !== undefined ? `id:${input.DeviceId}` : `sn:${input.SerialNumber}`;
  const device = await once(batch.devices, key, async () => {
    let query = trx.selectFrom('AccessControlDevice').select(['Id', 'AreaId', 'Name', 'SerialNumber']);
    query =
      input.DeviceId !== undefined
        ? query.where('Id', '=', input.DeviceId)
        : query.where('SerialNumber', '=', input.SerialNumber ?? '');
    const found = await query.executeTakeFirst();
    if (!found) throw new AppError(404, 'accessControl.error.deviceMissing');
    return found;
  });
  if (device.AreaId === null)
    throw new AppError(409, 'accessControl.error.deviceUnassigned', { serial: device.SerialNumber });
  return device as DeviceRow & { AreaId: number };
}

/** One more record of a UTC day, device and result, written when the batch ends (flushDays). */
export function countDay(
  batch: RecordBatch,
  areaId: number,
  at: number,
  deviceId: number,
  result: number,
): void {
  const day = Math.floor(at / DAY_MS);
  const key = `${areaId}:${day}:${deviceId}:${result}`;
  const counted = batch.days.get(key);
  if (counted) counted.Count += 1;
  else batch.days.set(key, { AreaId: areaId, Day: day, DeviceId: deviceId, Result: result, Count: 1 });
}

/**
 * Why a controller record came out as it did, in doorRecordReason terms: a granted swipe is an authorised
 * card (1); door events and alarms are "other" (0, their own code is in EventReason); a denied swipe the
 * controller gave no rule for (the gateway passes the ones it names, anti-passback, time profile…, as
 * `Reason`) is explained from what Gatehouse holds about the card, its holder and the channel, and when
 * those explain nothing (an authorised card within its validity) it is the controller's refusal (16), never
 * a cause Gatehouse cannot see.
 */
export async function explainReason(
  trx: Trx,
  batch: RecordBatch,
  input: ControllerRecordInput,
  areaId: number,
  cardNumber: string,
  holder: HolderRow | undefined,
  channelId: number | undefined,
): Promise<number> {
  if (input.EventType !== 1) return 0;
  if (input.Result) return 1;
  if (!holder) {
    const known = await once(
      batch.cards,
      `${areaId}:${cardNumber}`,
      async () =>
        !!(await trx
          .selectFrom('Card')
          .select('Id')
          .where('CardNumber', '=', cardNumber)
          .where('AreaId', '=', areaId)
          .executeTakeFirst()),
    );
    return known ? 3 : 2;
  }
  if (holder.Disabled) return 6;
  if (channelId === undefined) return 4;
  const link = await once(
    batch.links,
    `${holder.Id}:${channelId}`,
    async () =>
      (await trx
        .selectFrom('CardUserLinkChannel')
        .select(['ValidFrom', 'ValidTo'])
        .where('CardUserId', '=', holder.Id)
        .where('ChannelId', '=', channelId)
        .where('Revoked', '=', 0)
        .where('IssueStatus', '>', 0)
        .executeTakeFirst()) ?? null,
  );
  if (!link) return 4;
  const from = Number(link.ValidFrom ?? holder.ValidFrom);
  const to = Number(link.ValidTo ?? holder.ValidTo);
  return input.At < from || input.At > to ? 5 : 16;
}
