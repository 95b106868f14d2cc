import {
  canonicalCardNumber,
  cardToDisplay,
  doorDirection,
  doorNumber,
  doorRecordReason,
  isEnumValue,
} from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import type { Trx } from '../common.ts';

export const DAY_MS = 86_400_000;

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

interface DeviceRow {
  Id: number;
  AreaId: number | null;
  Name: string;
  SerialNumber: string;
}

function cardNumberOf(input: SwipeInput): string {
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

async function insertSwipe(trx: Trx, input: SwipeInput, devices: Map<string, DeviceRow>): Promise<number> {
  if (!isEnumValue(doorNumber, input.DoorNumber)) throw fieldError('DoorNumber', 'validation.invalidOption');
  if (!isEnumValue(doorDirection, input.Direction)) throw fieldError('Direction', 'validation.invalidOption');
  if (!isEnumValue(doorRecordReason, input.Reason)) throw fieldError('Reason', 'validation.invalidOption');
  if (!Number.isSafeInteger(input.At) || input.At < 0) throw fieldError('At', 'validation.invalid');
  const key = input.DeviceId !== undefined ? `id:${input.DeviceId}` : `sn:${input.SerialNumber}`;
  let device = devices.get(key);
  if (!device) {
    let query = trx.selectFrom('AccessControlDevice').select(['Id', 'AreaId', 'Name', 'SerialNumber']);
    query =
      input.DeviceId !== undefined
        ? query.where('Id', '=', input.DeviceId)
        : query.where('SerialNumber', '=', input.SerialNumber ?? '');
    device = await query.executeTakeFirst();
    if (!device) throw new AppError(404, 'accessControl.error.deviceMissing');
    devices.set(key, device);
  }
  if (device.AreaId === null)
    throw new AppError(409, 'accessControl.error.deviceUnassigned', { serial: device.SerialNumber });
  const areaId = device.AreaId;
  const cardNumber = cardNumberOf(input);

  const channels = await trx
    .selectFrom('AccessControlChannel')
    .select(['Id', 'Name', 'Direction'])
    .where('DeviceId', '=', device.Id)
    .where('DoorNumber', '=', input.DoorNumber)
    .orderBy('Id')
    .execute();
  const channel = channels.find((c) => c.Direction === input.Direction) ?? channels[0];
  const holder = await trx
    .selectFrom('Card')
    .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
    .select(['CardUser.Id', 'CardUser.Name'])
    .where('Card.CardNumber', '=', cardNumber)
    .where('Card.AreaId', '=', areaId)
    .executeTakeFirst();

  const result = input.Result ? 1 : 0;
  const row = await trx
    .insertInto('DoorOpeningRecord')
    .values({
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
      Result: result,
      Reason: input.Reason,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('DoorOpeningRecordDay')
    .values({
      AreaId: areaId,
      Day: Math.floor(input.At / DAY_MS),
      DeviceId: device.Id,
      Result: result,
      Count: 1,
    })
    .onConflict((oc) =>
      oc
        .columns(['AreaId', 'Day', 'DeviceId', 'Result'])
        .doUpdateSet({ Count: sql<number>`"DoorOpeningRecordDay"."Count" + 1` }),
    )
    .execute();
  return row.Id;
}

/**
 * The single way swipe records are written (the device gateway calls it; no HTTP endpoint creates
 * records). Resolves the area from the controller, the channel from door and direction, the holder from
 * the card, copies their names, and keeps the per-day counts in step, all in one transaction: a batch
 * of swipes is stored entirely or not at all. Returns the new record ids in input order.
 */
export async function recordSwipes(db: Kysely<Database>, inputs: SwipeInput[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const devices = new Map<string, DeviceRow>();
    const ids: number[] = [];
    for (const input of inputs) ids.push(await insertSwipe(trx, input, devices));
    return ids;
  });
}

export async function recordSwipe(db: Kysely<Database>, input: SwipeInput): Promise<number> {
  const [recordId] = await recordSwipes(db, [input]);
  return recordId!;
}
