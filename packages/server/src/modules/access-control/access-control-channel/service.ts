import {
  DOOR_DELAY_DEFAULT,
  HELD_OPEN_DEFAULT_SECONDS,
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
import { markRulesChanged } from '../access-control-device/rules.ts';
import { assertDoorModesFree } from '../area-lockdown/service.ts';
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
  return channelsWithDevice(db)
    .leftJoin('AccessControlDoorRule as R', (j) =>
      j
        .onRef('R.DeviceId', '=', 'AccessControlChannel.DeviceId')
        .onRef('R.DoorNumber', '=', 'AccessControlChannel.DoorNumber'),
    )
    .select((eb) => [
      'R.Keypad',
      'R.Passcodes',
      'R.HeldOpenSeconds',
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

/** The door's passcodes are counted, never returned. */
export function toChannelItem(row: Record<string, unknown>): AccessControlChannelItem {
  const { Passcodes, ...rest } = row;
  const codes = typeof Passcodes === 'string' ? (JSON.parse(Passcodes) as number[]) : [];
  return {
    ...mapChannel(rest),
    AuthorizationCount: Number(row.AuthorizationCount ?? 0),
    Keypad: Number(row.Keypad ?? 0) === 1,
    PasscodeCount: codes.length,
    HeldOpenSeconds: Number(row.HeldOpenSeconds ?? HELD_OPEN_DEFAULT_SECONDS),
  };
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

export async function changedChannel(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const device = await deviceOf(ctx, trx, existing.DeviceId as number);
  await checkDoor(trx, device, input.DoorNumber, input.Direction, input.Id);
  await saveDoorRule(ctx, trx, existing.DeviceId as number, input);
  return {
    DoorNumber: input.DoorNumber,
    Name: input.Name,
    Direction: input.Direction,
    ...(input.ReaderType !== undefined ? { ReaderType: input.ReaderType } : {}),
    ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
  };
}

/**
 * A new door or direction changes what the controller must know about every live authorisation: they wait for
 * an update. After the channel's row is written, so their events (lifecycle.ts) name the new door.
 */
export async function afterChannelChanged(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
): Promise<void> {
  if (input.DoorNumber !== existing.DoorNumber || input.Direction !== existing.Direction)
    await markChannelChanged(ctx, trx, input.Id, ctx.clock.now());
}

/**
 * The channel's door rules (shared with the door's other channel): keypad, passcodes, held-open limit. The
 * passcodes are stored for the controller only: the audit entry says whether they changed and how many there
 * are, never what they are.
 */
async function saveDoorRule(ctx: AreaContext, trx: Trx, deviceId: number, input: UpdateBody) {
  const { Keypad, Passcodes, HeldOpenSeconds } = input;
  if (Keypad === undefined && Passcodes === undefined && HeldOpenSeconds === undefined) return;
  if (input.DoorNumber < 1) throw fieldError('DoorNumber', 'accessControl.error.doorRulesNeedDoor');
  const now = ctx.clock.now();
  const values = {
    ...(Keypad !== undefined ? { Keypad: Keypad ? 1 : 0 } : {}),
    ...(Passcodes !== undefined ? { Passcodes: JSON.stringify(Passcodes) } : {}),
    ...(HeldOpenSeconds !== undefined ? { HeldOpenSeconds } : {}),
    UpdatedAt: now,
  };
  await trx
    .insertInto('AccessControlDoorRule')
    .values({ DeviceId: deviceId, DoorNumber: input.DoorNumber, ...values })
    .onConflict((oc) => oc.columns(['DeviceId', 'DoorNumber']).doUpdateSet(values))
    .execute();
  if (Keypad !== undefined || Passcodes !== undefined)
    await markRulesChanged(trx, { deviceIds: [deviceId] }, now);
  await audit(
    ctx,
    {
      action: 'setDoorRules',
      entity: 'AccessControlChannel',
      entityId: input.Id,
      // The door on both sides: it names what was set, it did not change.
      before: { DeviceId: deviceId, DoorNumber: input.DoorNumber },
      after: {
        DeviceId: deviceId,
        DoorNumber: input.DoorNumber,
        Keypad,
        HeldOpenSeconds,
        ...(Passcodes !== undefined ? { PasscodesChanged: true, PasscodeCount: Passcodes.length } : {}),
      },
    },
    trx,
  );
}

/** A door mode an operator set is kept, to give it back to a controller that forgot it. */
async function keepDoorMode(ctx: AreaContext, deviceId: number, door: number, mode: number, delay: number) {
  const values = { Mode: mode, Delay: delay, UpdatedAt: ctx.clock.now() };
  await ctx.db.kysely
    .insertInto('AccessControlDoorRule')
    .values({ DeviceId: deviceId, DoorNumber: door, ...values })
    .onConflict((oc) => oc.columns(['DeviceId', 'DoorNumber']).doUpdateSet(values))
    .execute();
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
    before: { DeviceId: device.Id, DoorNumber: channel.DoorNumber },
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
  // A lockdown or evacuation holds every door of the area until it is released.
  await assertDoorModesFree(ctx.db.kysely, ctx.areaId);
  const delay = input.Delay ?? DOOR_DELAY_DEFAULT;
  await onController(device, () => controllers.setDoorMode(device, channel.DoorNumber, input.Mode, delay));
  await keepDoorMode(ctx, device.Id, channel.DoorNumber, input.Mode, delay);
  const result = { DoorNumber: channel.DoorNumber, Mode: input.Mode, Delay: delay };
  await audit(ctx, {
    action: 'setDoorMode',
    entity: 'AccessControlChannel',
    entityId: channel.Id,
    before: { DeviceId: device.Id, DoorNumber: channel.DoorNumber },
    after: { DeviceId: device.Id, ...result },
  });
  return result;
}
