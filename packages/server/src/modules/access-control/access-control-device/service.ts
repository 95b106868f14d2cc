import { PROTOCOL_WG, type AccessControlDeviceApi, type AccessControlDeviceItem } from '@gatehouse/shared';
import type { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext, ServiceContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import type { Trx } from '../common.ts';
import {
  DoorControllerError,
  controllerStateAsKnown,
  doorControllers,
  gatewayRunning,
  wgControllers,
  type ControllerRef,
  type DoorControllers,
} from './controllers.ts';

type UpdateBody = z.output<typeof AccessControlDeviceApi.update.body>;

/** A device of the area, or undefined: the one lookup of a device by id that every feature uses. */
export function areaDevice(db: Trx, areaId: number, deviceId: number) {
  return db
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Name', 'SerialNumber', 'Protocol', 'Type'])
    .where('Id', '=', deviceId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
}

/** An edit changes only what describes the device on site: channels, authorisations and records stay. */
export function deviceChanges(input: UpdateBody) {
  return {
    Name: input.Name,
    ...(input.Ip !== undefined ? { Ip: input.Ip } : {}),
    ...(input.Port !== undefined ? { Port: input.Port } : {}),
    ...(input.Location !== undefined ? { Location: input.Location } : {}),
    ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
  };
}

/** The stored connection and sync are the gateway's last word: without a gateway running they are not known. */
export async function asKnown(
  ctx: ServiceContext,
  items: AccessControlDeviceItem[],
): Promise<AccessControlDeviceItem[]> {
  const driven = gatewayRunning(ctx.db);
  return items.map((item) => controllerStateAsKnown(driven, item));
}

/**
 * Commands to a controller from the screens (remote open, door mode, set time, sync now). Each is audited
 * with the operator once the controller confirmed it; a controller that is offline, does not answer or
 * refuses is reported with a translated message naming it (409), and nothing is recorded as done.
 */
export async function controllerOf(
  ctx: AreaContext,
  deviceId: number,
): Promise<{ device: ControllerRef; controllers: DoorControllers }> {
  const row = await areaDevice(ctx.db.kysely, ctx.areaId, deviceId);
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

/** Sets the controller's clock to the server's (in the area's zone); answers the drift it had. */
export async function setControllerTime(
  ctx: AreaContext,
  deviceId: number,
): Promise<{ DriftSeconds: number | null }> {
  const { device, controllers } = await controllerOf(ctx, deviceId);
  const { driftSeconds } = await onController(device, () => controllers.setTime(device));
  await audit(ctx, {
    action: 'setTime',
    entity: 'AccessControlDevice',
    entityId: device.Id,
    after: { DriftSeconds: driftSeconds },
  });
  return { DriftSeconds: driftSeconds };
}

/** Starts a compare-then-correct sync of the controller now; its progress goes to the hub. */
export async function syncControllerNow(ctx: AreaContext, deviceId: number): Promise<{ Started: boolean }> {
  const { device, controllers } = await controllerOf(ctx, deviceId);
  controllers.syncNow(device);
  await audit(ctx, { action: 'syncNow', entity: 'AccessControlDevice', entityId: device.Id });
  return { Started: true };
}
