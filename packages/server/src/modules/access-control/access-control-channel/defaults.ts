import { defaultChannels, doorDirection, enumLabel, translate, type Lang } from '@gatehouse/shared';
import type { Trx } from '../common.ts';

/**
 * When a controller joins an area without channels, each door gets its readers at once (an in and an out
 * reader per door of a two-way model, an in reader per door of a one-way model), named in the operator's
 * language. Operators rename or remove them; an unspecified model gets none.
 */
export async function createDefaultChannels(
  trx: Trx,
  device: { Id: number; Type: number },
  areaId: number,
  lang: Lang,
  now: number,
): Promise<number> {
  const existing = await trx
    .selectFrom('AccessControlChannel')
    .select('Id')
    .where('DeviceId', '=', device.Id)
    .executeTakeFirst();
  const channels = defaultChannels(device.Type);
  if (existing || channels.length === 0) return 0;
  await trx
    .insertInto('AccessControlChannel')
    .values(
      channels.map((c) => ({
        AreaId: areaId,
        DeviceId: device.Id,
        DoorNumber: c.DoorNumber,
        Direction: c.Direction,
        Name: translate(lang, 'accessControl.channel.defaultName', {
          door: c.DoorNumber,
          direction: enumLabel(lang, doorDirection, c.Direction),
        }),
        ReaderType: 0,
        Remark: null,
        CreatedAt: now,
        UpdatedAt: now,
      })),
    )
    .execute();
  return channels.length;
}

/**
 * A controller leaving its area takes its channels (the doors of that area) with it, in the caller's
 * transaction; swipe records and fault reports keep their copies.
 */
export async function deleteDeviceChannels(trx: Trx, deviceId: number): Promise<void> {
  await trx.deleteFrom('AccessControlChannel').where('DeviceId', '=', deviceId).execute();
}
