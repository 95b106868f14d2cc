// The doors of a WG controller as the door monitor shows them (docs/access-control.md, "Door monitor and alarms"),
// and the evidence that a controller forgot its settings (docs/devices.md, "Controllers that forget"). Called by
// the gateway after each collection pass; what changed goes to the live hub.

import {
  announceAlarms,
  controllerForgot,
  recordCursor,
  recordRingRestarted,
  noteControllerOnline,
  noteDoorStatus,
  watchDoors,
  type ControllerRef,
  type DoorChanges,
} from '../../modules/access-control/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import type { StatusResponse } from './codec.ts';
import type { WgDevice, WgDriver } from './driver.ts';

/** Door states and alarms that changed, told to the area's browsers. */
export function announceDoors(hub: LiveEvents | undefined, changes: DoorChanges): void {
  if (!hub) return;
  for (const d of changes.doors) hub.publish(d.areaId, { Type: 'DoorState', ...d.item });
  announceAlarms(hub, changes.alarms);
}

/**
 * One look at the doors: sensors and relays from a status reply (0x20), then what the new records say (forced,
 * held open, refused swipes piling up) and doors open past their limit.
 */
export async function lookAtDoors(
  ctx: ServiceContext,
  device: ControllerRef,
  status: StatusResponse,
  doors: number,
  hub: LiveEvents | undefined,
): Promise<void> {
  const sensed = [];
  for (let door = 1; door <= doors; door++)
    sensed.push({
      door,
      open: status.doors[door - 1] === true,
      unlocked: (status.relays & (1 << (door - 1))) !== 0,
    });
  announceDoors(hub, await noteDoorStatus(ctx, device.Id, sensed));
  announceDoors(hub, await watchDoors(ctx, [device.Id]));
}

/** A controller stopped answering (offline alarm, its doors shown offline) or answers again. */
export async function controllerOnline(
  ctx: ServiceContext,
  deviceId: number,
  online: boolean,
  hub: LiveEvents | undefined,
): Promise<void> {
  announceDoors(hub, await noteControllerOnline(ctx, deviceId, online));
}

/**
 * Whether the controller has forgotten its settings: its event listener (0x92) no longer points where it was
 * set. A reset to defaults clears it (0.0.0.0:0), and so does a replacement controller given the old serial's
 * place; so does a record ring that started over (`known`). Null when nothing is wrong; the evidence otherwise,
 * after telling the module (every rule written again, audited) and the hub.
 */
export async function checkForgotten(
  driver: WgDriver,
  ctx: ServiceContext,
  device: ControllerRef,
  wg: WgDevice,
  listener: string | undefined,
  hub: LiveEvents | undefined,
  /** Evidence found elsewhere (the record ring started over): no need to look at the listener. */
  known?: string,
): Promise<string | null> {
  let evidence = known;
  if (!evidence) {
    if (!listener) return null;
    const held = await driver.getListener(wg);
    const now = `${held.address}:${held.port}`;
    if (now === listener) return null;
    evidence = `listener ${now} instead of ${listener}`;
  }
  await controllerForgot(ctx, device.Id, evidence);
  hub?.publish(device.AreaId, {
    Type: 'RuleSync',
    DeviceId: device.Id,
    State: 'running',
    Error: null,
    Restoring: true,
  });
  return evidence;
}

/**
 * A status reply whose newest record is older than the collection cursor: the controller's record ring started
 * over (reset, or a replacement). Collection is restarted from the new ring before it reads (else every new
 * record would wait behind indexes the ring will not reach for a long time, and a pushed one would be taken for
 * an old one already stored).
 */
export async function checkRecordRing(
  ctx: ServiceContext,
  device: ControllerRef,
  readStatus: () => Promise<StatusResponse>,
): Promise<{ status: StatusResponse; restarted: boolean }> {
  // The cursor as it was before the status was asked for: pushes stored meanwhile move it on past the newest
  // record the reply names (records made after the controller answered), which is no restart. Read after, it
  // took a busy controller for a reset ring, and its stored records lost their indexes and were stored again.
  const cursor = await recordCursor(ctx, device.Id);
  const status = await readStatus();
  if (!cursor || status.event.index >= cursor.nextIndex - 1) return { status, restarted: false };
  await recordRingRestarted(ctx, device.Id, status.event.index);
  return { status, restarted: true };
}
