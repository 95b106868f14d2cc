import {
  PROTOCOL_WG,
  antiPassbackModes,
  doorCount,
  interlockModes,
  type AccessControlDeviceApi,
  type AccessControlDeviceItem,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import { InstanceRegistry, Leases } from '../../../platform/cluster/index.ts';
import { LIVE_WITHIN_MS } from '../../../platform/cluster/node.ts';
import type { AreaContext, ServiceContext } from '../../../platform/context.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
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
import { clearRulesBackoff, markRulesChanged } from './rules.ts';

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

/**
 * An edit changes what describes the device on site, and the door rules a WG controller enforces (interlock,
 * anti-passback: only modes its model supports); channels, authorisations and records stay.
 */
export async function deviceChanges(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const rules = await doorRuleChanges(input, ctx, trx, existing);
  return {
    Name: input.Name,
    ...(input.Ip !== undefined ? { Ip: input.Ip } : {}),
    ...(input.Port !== undefined ? { Port: input.Port } : {}),
    ...(input.Location !== undefined ? { Location: input.Location } : {}),
    ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
    ...rules,
  };
}

async function doorRuleChanges(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const out: { Interlock?: number; AntiPassback?: number } = {};
  if (input.Interlock === undefined && input.AntiPassback === undefined) return out;
  const doors = doorCount(existing.Type as number);
  if (input.Interlock !== undefined && input.Interlock !== existing.Interlock) {
    if (existing.Protocol !== PROTOCOL_WG || !interlockModes(doors).includes(input.Interlock))
      throw fieldError('Interlock', 'accessControl.error.modeNotSupported');
    out.Interlock = input.Interlock;
  }
  if (input.AntiPassback !== undefined && input.AntiPassback !== existing.AntiPassback) {
    if (existing.Protocol !== PROTOCOL_WG || !antiPassbackModes(doors).includes(input.AntiPassback))
      throw fieldError('AntiPassback', 'accessControl.error.modeNotSupported');
    out.AntiPassback = input.AntiPassback;
  }
  if (Object.keys(out).length > 0)
    await markRulesChanged(trx, { deviceIds: [existing.Id as number] }, ctx.clock.now());
  return out;
}

/** The stored connection and sync are the gateway's last word: without a gateway running they are not known. */
export async function asKnown(
  ctx: ServiceContext,
  items: AccessControlDeviceItem[],
): Promise<AccessControlDeviceItem[]> {
  const driven = gatewayRunning(ctx);
  const between = await betweenOwners(ctx);
  return items.map((item) => {
    // Between owners nobody watches the controller either: its stored state is the former driver's last word.
    const watched = driven && !between.has(item.Id);
    const known = { ...controllerStateAsKnown(watched, item), BetweenOwners: between.has(item.Id) };
    // A rules pass stored as running is not running while no gateway runs: its change still waits.
    return !watched && known.RuleSyncState === 'running' ? { ...known, RuleSyncState: 'pending' } : known;
  });
}

/** The lease kind the WG gateway shares the controllers out under, keyed by id (gateways/wg/shape.ts). */
const WG_LEASE_KIND = 'wg';

/**
 * The controllers no live instance drives at this moment (several instances, docs/deployment.md): their lease
 * ran out or was given up, or its holder is not a live instance (killed, cut off). What the server knows from
 * its tables: an instance killed a moment ago still counts as the driver until its heartbeat is old. One
 * process takes no leases, so none is ever between owners there.
 */
async function betweenOwners(ctx: ServiceContext): Promise<Set<number>> {
  const leases = await new Leases(ctx.db, ctx.clock).list(WG_LEASE_KIND);
  if (leases.length === 0) return new Set();
  const live = new Set((await new InstanceRegistry(ctx.db, ctx.clock).live(LIVE_WITHIN_MS)).map((i) => i.id));
  const now = ctx.clock.now();
  return new Set(
    leases
      .filter((l) => l.holder === null || l.expiresAt <= now || !live.has(l.holder))
      .map((l) => Number(l.key)),
  );
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
  const controllers = doorControllers(ctx);
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
        notDriven: 'accessControl.error.deviceNotDriven',
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
  // Its rules are compared too: the card pass brings them in line first.
  await clearRulesBackoff(ctx, device.Id);
  controllers.syncNow(device);
  await audit(ctx, { action: 'syncNow', entity: 'AccessControlDevice', entityId: device.Id });
  return { Started: true };
}
