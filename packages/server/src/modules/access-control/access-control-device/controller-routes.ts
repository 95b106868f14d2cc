import { ACCESS_CONTROL_ADMIN, PROTOCOL_WG } from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import { TAG } from '../common.ts';
import {
  DoorControllerError,
  doorControllers,
  wgControllers,
  type ControllerRef,
  type DoorControllers,
} from './controllers.ts';

/**
 * Commands to a controller from the screens (remote open, door mode, set time, sync now). Each is audited
 * with the operator once the controller confirmed it; a controller that is offline, does not answer or
 * refuses is reported with a translated message naming it (409), and nothing is recorded as done.
 */

export async function controllerOf(
  ctx: AreaContext,
  deviceId: number,
): Promise<{ device: ControllerRef; controllers: DoorControllers }> {
  const row = await ctx.db.kysely
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Name', 'Protocol'])
    .where('Id', '=', deviceId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'accessControl.error.deviceMissing');
  if (row.Protocol !== PROTOCOL_WG)
    throw new AppError(409, 'accessControl.error.notWgDevice', { name: row.Name });
  const [device] = await wgControllers(ctx, deviceId);
  if (!device) throw new AppError(409, 'accessControl.error.deviceOffline', { name: row.Name });
  const controllers = doorControllers(ctx.db);
  if (!controllers) throw new AppError(409, 'accessControl.error.gatewayOff');
  return { device, controllers };
}

/** Runs a controller command, turning its failure into the operator's message. */
export async function onController<T>(device: ControllerRef, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DoorControllerError) {
      const key = {
        offline: 'accessControl.error.deviceOffline',
        timeout: 'accessControl.error.deviceNoAnswer',
        refused: 'accessControl.error.deviceRefused',
        noAddress: 'accessControl.error.deviceNoAddress',
        gatewayOff: 'accessControl.error.gatewayOff',
      }[error.reason];
      throw new AppError(409, key, { name: device.Name });
    }
    throw error;
  }
}

export const controllerDeviceRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/AccessControlDevice/SetTime',
    summary: "Set the controller's clock to the server's time (in the area's zone); answers the drift it had",
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    response: z.object({ DriftSeconds: z.number().nullable() }),
    handler: async ({ body }, ctx) => {
      const { device, controllers } = await controllerOf(ctx, body.Id);
      const { driftSeconds } = await onController(device, () => controllers.setTime(device));
      await audit(ctx, {
        action: 'setTime',
        entity: 'AccessControlDevice',
        entityId: device.Id,
        after: { DriftSeconds: driftSeconds },
      });
      return { DriftSeconds: driftSeconds };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AccessControlDevice/SyncNow',
    summary:
      "Compare the controller's card list with its authorisations now and correct it (progress on the hub)",
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    response: z.object({ Started: z.boolean() }),
    handler: async ({ body }, ctx) => {
      const { device, controllers } = await controllerOf(ctx, body.Id);
      controllers.syncNow(device);
      await audit(ctx, { action: 'syncNow', entity: 'AccessControlDevice', entityId: device.Id });
      return { Started: true };
    },
  }),
];

async function channelOf(ctx: AreaContext, channelId: number) {
  const channel = await ctx.db.kysely
    .selectFrom('AccessControlChannel')
    .select(['Id', 'Name', 'DeviceId', 'DoorNumber'])
    .where('Id', '=', channelId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!channel) throw new AppError(404, 'error.notFound');
  if (channel.DoorNumber < 1)
    throw new AppError(409, 'accessControl.error.channelNoDoor', { name: channel.Name });
  return channel;
}

export const doorControlRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/AccessControlChannel/OpenDoor',
    summary: "Open the channel's door now (the controller logs a remote-open record)",
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    response: z.object({ DoorNumber: z.number() }),
    handler: async ({ body }, ctx) => {
      const channel = await channelOf(ctx, body.Id);
      const { device, controllers } = await controllerOf(ctx, channel.DeviceId);
      await onController(device, () => controllers.openDoor(device, channel.DoorNumber));
      await audit(ctx, {
        action: 'openDoor',
        entity: 'AccessControlChannel',
        entityId: channel.Id,
        after: { DeviceId: device.Id, DoorNumber: channel.DoorNumber },
      });
      return { DoorNumber: channel.DoorNumber };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AccessControlChannel/SetDoorMode',
    summary:
      "Set the channel's door: 1 normally open, 2 normally closed, 3 controlled (Delay: seconds the lock opens)",
    tag: TAG,
    access: ACCESS_CONTROL_ADMIN,
    area: true,
    body: z.strictObject({
      Id: id,
      Mode: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      Delay: z.number().int().min(0).max(255).optional(),
    }),
    response: z.object({ DoorNumber: z.number(), Mode: z.number(), Delay: z.number() }),
    handler: async ({ body }, ctx) => {
      const channel = await channelOf(ctx, body.Id);
      const { device, controllers } = await controllerOf(ctx, channel.DeviceId);
      const delay = body.Delay ?? 3;
      await onController(device, () => controllers.setDoorMode(device, channel.DoorNumber, body.Mode, delay));
      const result = { DoorNumber: channel.DoorNumber, Mode: body.Mode, Delay: delay };
      await audit(ctx, {
        action: 'setDoorMode',
        entity: 'AccessControlChannel',
        entityId: channel.Id,
        after: { DeviceId: device.Id, ...result },
      });
      return result;
    },
  }),
];
