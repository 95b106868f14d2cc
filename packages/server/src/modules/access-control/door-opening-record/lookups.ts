import { AppError } from '../../../platform/errors.ts';
import { DAY_MS } from '../../../platform/record-days.ts';
import { inChunks, type Trx } from '../common.ts';
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

/** The channels of a controller's door, in id order: the batch's, read now when it has not read them. */
export async function channelsOf(
  trx: Trx,
  batch: RecordBatch,
  deviceId: number,
  door: number,
): Promise<ChannelRow[]> {
  if (!batch.channels.has(`${deviceId}:${door}`)) await loadChannels(trx, batch, [{ deviceId, door }]);
  return batch.channels.get(`${deviceId}:${door}`)!;
}

/** The holder of a card in an area, if it has one: the batch's, read now when it has not read the card. */
export async function holderOf(
  trx: Trx,
  batch: RecordBatch,
  areaId: number,
  cardNumber: string,
): Promise<HolderRow | undefined> {
  if (!batch.holders.has(`${areaId}:${cardNumber}`)) await loadCards(trx, batch, areaId, [cardNumber]);
  return batch.holders.get(`${areaId}:${cardNumber}`) ?? undefined;
}

/** A record's controller in the batch's cache: by id, or by the serial number it reports. */
const deviceKey = (input: AnyInput) =>
  input.DeviceId !== undefined ? `id:${input.DeviceId}` : `sn:${input.SerialNumber}`;

/** The controller a record names (by id or serial), assigned to an area. */
export async function deviceOf(
  trx: Trx,
  batch: RecordBatch,
  input: AnyInput,
): Promise<DeviceRow & { AreaId: number }> {
  if (!batch.devices.has(deviceKey(input))) await loadDevices(trx, batch, [input]);
  const device = batch.devices.get(deviceKey(input));
  if (!device) throw new AppError(404, 'accessControl.error.deviceMissing');
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
    if (!batch.cards.has(`${areaId}:${cardNumber}`)) await loadCards(trx, batch, areaId, [cardNumber]);
    return batch.cards.get(`${areaId}:${cardNumber}`) ? 3 : 2;
  }
  if (holder.Disabled) return 6;
  if (channelId === undefined) return 4;
  const key = `${holder.Id}:${channelId}`;
  if (!batch.links.has(key)) await loadLinks(trx, batch, [{ holderId: holder.Id, channelId }]);
  const link = batch.links.get(key);
  if (!link) return 4;
  const from = Number(link.ValidFrom ?? holder.ValidFrom);
  const to = Number(link.ValidTo ?? holder.ValidTo);
  return input.At < from || input.At > to ? 5 : 16;
}

/** The channel a record is stored under: the door's reader in the record's direction, else the door's first. */
export function channelFor(channels: readonly ChannelRow[], direction: number): ChannelRow | undefined {
  return channels.find((c) => c.Direction === direction) ?? channels[0];
}

/** A record whose controller and card are known before the preload reads the rest. */
interface Placed {
  input: AnyInput;
  deviceId: number;
  areaId: number;
  cardNumber: string;
}

/**
 * Reads what a transaction's records will look up, for all of them at once: a few `in (...)` statements whatever
 * the number of records. On PostgreSQL every statement is a network round trip, and a lookup per card made a
 * burst's transaction hundreds of them long (issue 32). The lookups above then find everything in the batch, a
 * key found missing included; a record the preload cannot place (an unknown or unassigned controller, a card
 * number that does not parse: `cardOf` answers undefined) is left to them, which read it alone and throw as they
 * always did.
 */
export async function preload(
  trx: Trx,
  batch: RecordBatch,
  inputs: readonly AnyInput[],
  cardOf: (input: AnyInput) => string | undefined,
): Promise<void> {
  await loadDevices(
    trx,
    batch,
    inputs.filter((input) => !batch.devices.has(deviceKey(input))),
  );
  const placed: Placed[] = [];
  for (const input of inputs) {
    const device = batch.devices.get(deviceKey(input));
    const cardNumber = cardOf(input);
    if (device?.AreaId != null && cardNumber !== undefined)
      placed.push({ input, deviceId: device.Id, areaId: device.AreaId, cardNumber });
  }
  await loadChannels(
    trx,
    batch,
    placed.map((p) => ({ deviceId: p.deviceId, door: p.input.DoorNumber })),
  );
  const byArea = new Map<number, string[]>();
  for (const p of placed) {
    const cards = byArea.get(p.areaId);
    if (cards) cards.push(p.cardNumber);
    else byArea.set(p.areaId, [p.cardNumber]);
  }
  for (const [areaId, cards] of byArea) await loadCards(trx, batch, areaId, cards);
  await loadLinks(
    trx,
    batch,
    placed.flatMap((p) => linkWanted(batch, p)),
  );
}

/** The controllers of `inputs`, by id and by serial number; one not found is left out (deviceOf says so). */
async function loadDevices(trx: Trx, batch: RecordBatch, inputs: readonly AnyInput[]): Promise<void> {
  const ids = new Set<number>();
  const serials = new Set<string>();
  for (const input of inputs)
    if (input.DeviceId !== undefined) ids.add(input.DeviceId);
    else serials.add(input.SerialNumber ?? '');
  const select = () => trx.selectFrom('AccessControlDevice').select(['Id', 'AreaId', 'Name', 'SerialNumber']);
  for (const d of await inChunks([...ids], (slice) => select().where('Id', 'in', slice).execute()))
    batch.devices.set(`id:${d.Id}`, d);
  for (const d of await inChunks([...serials], (slice) =>
    select().where('SerialNumber', 'in', slice).execute(),
  ))
    if (!batch.devices.has(`sn:${d.SerialNumber}`)) batch.devices.set(`sn:${d.SerialNumber}`, d);
}

/** The channels of controllers' doors not read yet, in id order (none: an empty list). */
async function loadChannels(
  trx: Trx,
  batch: RecordBatch,
  doors: readonly { deviceId: number; door: number }[],
): Promise<void> {
  const wanted = new Set<string>();
  const devices = new Set<number>();
  for (const { deviceId, door } of doors) {
    if (batch.channels.has(`${deviceId}:${door}`)) continue;
    wanted.add(`${deviceId}:${door}`);
    devices.add(deviceId);
  }
  for (const key of wanted) batch.channels.set(key, []);
  // A controller's channels are all in one chunk (chunked by controller), so each door's stay in id order.
  for (const { DeviceId, DoorNumber, ...channel } of await inChunks([...devices], (slice) =>
    trx
      .selectFrom('AccessControlChannel')
      .select(['Id', 'Name', 'Direction', 'DeviceId', 'DoorNumber'])
      .where('DeviceId', 'in', slice)
      .orderBy('Id')
      .execute(),
  ))
    if (wanted.has(`${DeviceId}:${DoorNumber}`))
      batch.channels.get(`${DeviceId}:${DoorNumber}`)!.push(channel);
}

/** Cards of an area not read yet: each one's holder (holderOf) and whether the area knows it (explainReason). */
async function loadCards(trx: Trx, batch: RecordBatch, areaId: number, cardNumbers: string[]): Promise<void> {
  const wanted = new Set(cardNumbers.filter((card) => !batch.holders.has(`${areaId}:${card}`)));
  for (const card of wanted) {
    batch.holders.set(`${areaId}:${card}`, null);
    batch.cards.set(`${areaId}:${card}`, false);
  }
  for (const { CardNumber, Id, Name, Disabled, ValidFrom, ValidTo } of await inChunks([...wanted], (slice) =>
    trx
      .selectFrom('Card')
      .leftJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
      .select([
        'Card.CardNumber',
        'CardUser.Id',
        'CardUser.Name',
        'CardUser.Disabled',
        'CardUser.ValidFrom',
        'CardUser.ValidTo',
      ])
      .where('Card.AreaId', '=', areaId)
      .where('Card.CardNumber', 'in', slice)
      .execute(),
  )) {
    const key = `${areaId}:${CardNumber}`;
    batch.cards.set(key, true);
    // A card without a holder, or the same number twice: the first with a holder, as a single read found it.
    if (Id !== null && batch.holders.get(key) === null)
      batch.holders.set(key, {
        Id,
        Name: Name!,
        Disabled: Disabled!,
        ValidFrom: ValidFrom!,
        ValidTo: ValidTo!,
      });
  }
}

/**
 * The authorisation explainReason will read for a record, if any: a refused ring swipe without a reason, of a
 * known and enabled holder, at a door with a channel.
 */
function linkWanted(batch: RecordBatch, p: Placed): { holderId: number; channelId: number }[] {
  const { input } = p;
  if (!('RecordIndex' in input) || input.Reason !== undefined || input.EventType !== 1 || input.Result)
    return [];
  const holder = batch.holders.get(`${p.areaId}:${p.cardNumber}`);
  const channels = batch.channels.get(`${p.deviceId}:${input.DoorNumber}`) ?? [];
  const channel = channelFor(channels, input.Direction);
  return holder && !holder.Disabled && channel ? [{ holderId: holder.Id, channelId: channel.Id }] : [];
}

/** Holders' issued, unrevoked authorisations on channels, not read yet (none: null). */
async function loadLinks(
  trx: Trx,
  batch: RecordBatch,
  pairs: readonly { holderId: number; channelId: number }[],
): Promise<void> {
  const wanted = new Set<string>();
  const holders = new Set<number>();
  for (const { holderId, channelId } of pairs) {
    if (batch.links.has(`${holderId}:${channelId}`)) continue;
    wanted.add(`${holderId}:${channelId}`);
    holders.add(holderId);
  }
  for (const key of wanted) batch.links.set(key, null);
  for (const { CardUserId, ChannelId, ...link } of await inChunks([...holders], (slice) =>
    trx
      .selectFrom('CardUserLinkChannel')
      .select(['CardUserId', 'ChannelId', 'ValidFrom', 'ValidTo'])
      .where('CardUserId', 'in', slice)
      .where('Revoked', '=', 0)
      .where('IssueStatus', '>', 0)
      .execute(),
  )) {
    const key = `${CardUserId}:${ChannelId}`;
    if (wanted.has(key) && batch.links.get(key) === null) batch.links.set(key, link);
  }
}
