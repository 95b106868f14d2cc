import {
  CARD_USER_OPTIONS_MAX,
  type AccessControlDeviceOption,
  type CardUserOption,
  type DeviceChannelsOption,
} from '@gatehouse/shared';
import type { AreaContext } from '../../../platform/context.ts';
import { areaChannels } from '../access-control-channel/service.ts';
import { holderKeyword } from '../card-user/items.ts';
import { notVisitorHolder } from '../visitor-pass/holders.ts';

/** The current area's controllers. */
export function deviceOptions(ctx: AreaContext): Promise<AccessControlDeviceOption[]> {
  return ctx.db.kysely
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Name', 'SerialNumber', 'Protocol', 'Type'])
    .where('AreaId', '=', ctx.areaId)
    .orderBy('Name')
    .orderBy('Id')
    .execute();
}

/** The current area's channels grouped by controller (for granting and filters). */
export async function channelOptions(ctx: AreaContext): Promise<DeviceChannelsOption[]> {
  const rows = await areaChannels(ctx.db.kysely, ctx.areaId)
    .orderBy('AccessControlDevice.Name')
    .orderBy('AccessControlDevice.Id')
    .orderBy('AccessControlChannel.DoorNumber')
    .orderBy('AccessControlChannel.Direction')
    .orderBy('AccessControlChannel.Id')
    .execute();
  const devices = new Map<number, DeviceChannelsOption>();
  for (const r of rows) {
    const device = devices.get(r.DeviceId) ?? {
      DeviceId: r.DeviceId,
      DeviceName: r.DeviceName,
      Protocol: r.Protocol,
      Channels: [],
    };
    device.Channels.push({ Id: r.Id, Name: r.Name, DoorNumber: r.DoorNumber, Direction: r.Direction });
    devices.set(r.DeviceId, device);
  }
  return [...devices.values()];
}

/** Card holders of the current area by name, phone or card number (at most 50), by name. */
export async function cardUserOptions(
  ctx: AreaContext,
  keyword: string | undefined,
): Promise<CardUserOption[]> {
  let q = ctx.db.kysely
    .selectFrom('CardUser')
    .select(['CardUser.Id', 'CardUser.Name', 'CardUser.Phone', 'CardUser.Disabled'])
    .where('CardUser.AreaId', '=', ctx.areaId)
    .where(notVisitorHolder('CardUser.Id'));
  if (keyword) q = q.where((eb) => holderKeyword(eb, keyword, 'CardUser.Id'));
  const rows = await q.orderBy('CardUser.Name').orderBy('CardUser.Id').limit(CARD_USER_OPTIONS_MAX).execute();
  return rows.map((r) => ({ ...r, Disabled: r.Disabled === 1 }));
}
