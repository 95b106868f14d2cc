import {
  DOOR_DELAY_DEFAULT,
  doorCount,
  doorNumberAllowed,
  type AccessControlChannelApi,
  type AccessControlChannelItem,
  type SetDoorModeInput,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { controllerOf, onController, areaDevice } from '../access-control-device/service.ts';
import { ISSUE, markChannelChanged, openAuthorizations } from '../card-user-link-channel/lifecycle.ts';
import type { Trx } from '../common.ts';

type CreateBody = z.output<typeof AccessControlChannelApi.create.body>;
type UpdateBody = z.output<typeof AccessControlChannelApi.update.body>;

/**
 * Channels with their device: the one join every feature reads a channel through (the channel list, the
 * grant, the choices, the door commands, the fault reports). Not scoped: callers say which area.
 */
export function channelsWithDevice(db: Trx) {
  return db
    .selectFrom('AccessControlChannel')
    .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId');
}

/** A channel of the area with what its callers need of it and its device. */
export function areaChannels(db: Trx, areaId: number) {
  return channelsWithDevice(db)
    .select([
      'AccessControlChannel.Id',
      'AccessControlChannel.Name',
      'AccessControlChannel.DoorNumber',
      'AccessControlChannel.Direction',
      'AccessControlChannel.DeviceId',
      'AccessControlDevice.Name as DeviceName',
      'AccessControlDevice.Protocol',
    ])
    .where('AccessControlChannel.AreaId', '=', areaId);
}

/** The channel list and detail: the channel, its device and its authorisations not confirmed deleted. */
export function channelQuery(db: Trx) {
  return channelsWithDevice(db).select((eb) => [
    'AccessControlChannel.Id',
    'AccessControlChannel.DeviceId',
    'AccessControlDevice.Name as DeviceName',
    'AccessControlDevice.SerialNumber',
    'AccessControlDevice.Type as DeviceType',
    'AccessControlChannel.DoorNumber',
    'AccessControlChannel.Name',
    'AccessControlChannel.Direction',
    'AccessControlChannel.ReaderType',
    'AccessControlChannel.Remark',
    'AccessControlChannel.CreatedAt',
    'AccessControlChannel.UpdatedAt',
    eb
      .selectFrom('CardUserLinkChannel')
      .select((e) => e.fn.countAll().as('n'))
      .whereRef('CardUserLinkChannel.ChannelId', '=', 'AccessControlChannel.Id')
      .where('CardUserLinkChannel.IssueStatus', '!=', ISSUE.deletionSucceeded)
      .as('AuthorizationCount'),
  ]);
}

const mapChannel = rowMapper<AccessControlChannelItem>({});

export function toChannelItem(row: Record<string, unknown>): AccessControlChannelItem {
  return { ...mapChannel(row), AuthorizationCount: Number(row.AuthorizationCount ?? 0) };
}

async function deviceOf(ctx: AreaContext, trx: Trx, deviceId: number) {
  const device = await areaDevice(trx, ctx.areaId, deviceId);
  if (!device) throw fieldError('DeviceId', 'accessControl.error.deviceMissing');
  return device;
}

/** The door must exist on the device's model; a door and direction belong to one channel. */
async function checkDoor(
  trx: Trx,
  device: { Id: number; Type: number },
  door: number,
  direction: number,
  exceptId?: number,
) {
  if (!doorNumberAllowed(device.Type, door))
    throw fieldError('DoorNumber', 'accessControl.error.doorBeyondType', { max: doorCount(device.Type) });
  if (door === 0) return;
  let query = trx
    .selectFrom('AccessControlChannel')
    .select('Id')
    .where('DeviceId', '=', device.Id)
    .where('DoorNumber', '=', door)
    .where('Direction', '=', direction);
  if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new AppError(409, 'accessControl.error.channelTaken', { door });
}

export async function newChannel(input: CreateBody, ctx: AreaContext, trx: Trx) {
  const device = await deviceOf(ctx, trx, input.DeviceId);
  await checkDoor(trx, device, input.DoorNumber, input.Direction);
  return {
    DeviceId: device.Id,
    DoorNumber: input.DoorNumber,
    Name: input.Name,
    Direction: input.Direction,
    ReaderType: input.ReaderType ?? 0,
    Remark: input.Remark ?? null,
  };
}

/** A new door or direction changes what the controller must know about every live authorisation. */
export async function changedChannel(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const device = await deviceOf(ctx, trx, existing.DeviceId as number);
  await checkDoor(trx, device, input.DoorNumber, input.Direction, input.Id);
  if (input.DoorNumber !== existing.DoorNumber || input.Direction !== existing.Direction)
    await markChannelChanged(trx, input.Id, ctx.clock.now());
  return {
    DoorNumber: input.DoorNumber,
    Name: input.Name,
    Direction: input.Direction,
    ...(input.ReaderType !== undefined ? { ReaderType: input.ReaderType } : {}),
    ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
  };
}

/** A channel goes only once every authorisation on it is confirmed deleted on its controller. */
export async function assertChannelRemovable(trx: Trx, channelId: number): Promise<void> {
  const open = await openAuthorizations(trx, { channelId });
  if (open > 0) throw new AppError(409, 'accessControl.error.channelHasAuthorizations', { count: open });
}

/** A channel of the area with a door: what a door command is sent for, with its controller. */
async function doorOf(ctx: AreaContext, channelId: number) {
  const channel = await areaChannels(ctx.db.kysely, ctx.areaId)
    .where('AccessControlChannel.Id', '=', channelId)
    .executeTakeFirst();
  if (!channel) throw new AppError(404, 'error.notFound');
  if (channel.DoorNumber < 1)
    throw new AppError(409, 'accessControl.error.channelNoDoor', { name: channel.Name });
  return { channel, ...(await controllerOf(ctx, channel.DeviceId)) };
}

/** Opens the channel's door now (the controller logs a remote-open record). */
export async function openDoor(ctx: AreaContext, channelId: number): Promise<{ DoorNumber: number }> {
  const { channel, device, controllers } = await doorOf(ctx, channelId);
  await onController(device, () => controllers.openDoor(device, channel.DoorNumber));
  await audit(ctx, {
    action: 'openDoor',
    entity: 'AccessControlChannel',
    entityId: channel.Id,
    after: { DeviceId: device.Id, DoorNumber: channel.DoorNumber },
  });
  return { DoorNumber: channel.DoorNumber };
}

/** Sets the door's mode on its controller: normally open, normally closed, or controlled with a delay. */
export async function setDoorMode(
  ctx: AreaContext,
  input: SetDoorModeInput,
): Promise<{ DoorNumber: number; Mode: number; Delay: number }> {
  const { channel, device, controllers } = await doorOf(ctx, input.Id);
  const delay = input.Delay ?? DOOR_DELAY_DEFAULT;
  await onController(device, () => controllers.setDoorMode(device, channel.DoorNumber, input.Mode, delay));
  const result = { DoorNumber: channel.DoorNumber, Mode: input.Mode, Delay: delay };
  await audit(ctx, {
    action: 'setDoorMode',
    entity: 'AccessControlChannel',
    entityId: channel.Id,
    after: { DeviceId: device.Id, ...result },
  });
  return result;
}
