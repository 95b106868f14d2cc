// Door commands across instances (docs/deployment.md, "Commands reach the owner"): a command for a controller
// another instance drives is carried there over the cluster bus (owner-calls.ts) and answered with what it
// answered there, as the charger commands are (gateways/ocpp/charger-gateway.ts).

import {
  DoorControllerError,
  type ControllerRef,
  type DoorControllerFailure,
  type DoorControllers,
} from '../../modules/access-control/index.ts';
import type { Json, OwnerCalls, Unsubscribe } from '../../platform/cluster/index.ts';
import type { WgOwnership } from './options.ts';

/** The service other instances address door commands to: channel `wg.cmd.<instance id>`. */
export const WG_COMMANDS = 'wg.cmd';
/**
 * How long a caller waits for the driving instance's answer: a command may wait there behind the sync pass in
 * flight to the same controller (docs/devices.md, "Commands"), then for the controller's own tries.
 */
const OWNER_CALL_MS = 40_000;
/**
 * How long the driving instance has to show it is there before the command is sent (owner-calls.ts, a probe):
 * one killed a moment ago still holds its leases and looks live for up to a lease term, and the operator is
 * told at once that nobody drives the controller now instead of waiting out OWNER_CALL_MS (issue 27).
 */
const OWNER_REACH_MS = 1_000;

/** A door command carried to the instance driving the controller. */
export type WgCommand =
  | { op: 'openDoor'; deviceId: number; door: number }
  | { op: 'setDoorMode'; deviceId: number; door: number; mode: number; delay: number }
  | { op: 'setTime'; deviceId: number }
  | { op: 'readCard'; deviceId: number; card: number; door: number }
  | { op: 'syncNow'; deviceId: number };

/** Its answer: what the command returns there, or why it failed, in the operator's terms. */
type WgCommandReply = { value: Json } | { failure: DoorControllerFailure; message: string };

/**
 * A command for a controller another instance drives, answered with what it answered: its value, or its
 * failure in the operator's terms. Nobody driving it (between a death and the takeover, at most a lease term)
 * is said so at once, not sent anywhere: no holder, a holder that is not a live instance, or one that does not
 * answer the reach check. A holder that stops answering while it runs the command is the same case (the
 * controller itself is not to blame).
 */
export async function atOwner(own: WgOwnership, device: ControllerRef, message: WgCommand): Promise<Json> {
  const notDriven = () =>
    new DoorControllerError('notDriven', `no instance drives controller ${device.SerialNumber} now`);
  const holder = await own.devices.holderOf(String(device.Id));
  if (holder === null || holder === own.devices.self) throw notDriven();
  const reply = await own.owners.call(
    WG_COMMANDS,
    holder,
    message as unknown as Json,
    OWNER_CALL_MS,
    OWNER_REACH_MS,
  );
  if (reply.kind === 'gone' || reply.kind === 'noAnswer') throw notDriven();
  if (reply.kind === 'failed') throw new Error(`instance ${holder}: ${reply.detail}`);
  const answer = reply.reply as WgCommandReply;
  if ('failure' in answer) throw new DoorControllerError(answer.failure, answer.message);
  return answer.value;
}

/** What serves the commands carried here: this instance's own face, which runs them only if it drives the controller. */
export interface LocalDoorCommands extends DoorControllers {
  drives(deviceId: number): boolean;
}

/** Serves the commands other instances carry here: each runs on this instance's own driver only (never forwarded again). */
export function serveWgCommands(
  owners: OwnerCalls,
  local: LocalDoorCommands,
  controller: (deviceId: number) => Promise<ControllerRef | undefined>,
): Unsubscribe {
  return owners.serve(WG_COMMANDS, async (message) => {
    const m = message as unknown as WgCommand;
    const device = await controller(m.deviceId);
    try {
      return (await runHere(local, device, m)) as unknown as Json;
    } catch (error) {
      if (error instanceof DoorControllerError) return { failure: error.reason, message: error.message };
      throw error;
    }
  });
}

async function runHere(
  local: LocalDoorCommands,
  device: ControllerRef | undefined,
  m: WgCommand,
): Promise<WgCommandReply> {
  if (!device || !local.drives(device.Id))
    return { failure: 'notDriven', message: `controller ${m.deviceId} is not driven by this instance` };
  switch (m.op) {
    case 'openDoor':
      await local.openDoor(device, m.door);
      return { value: null };
    case 'setDoorMode':
      await local.setDoorMode(device, m.door, m.mode, m.delay);
      return { value: null };
    case 'setTime':
      return { value: await local.setTime(device) };
    case 'readCard':
      return { value: (await local.readCard(device, m.card, m.door)) as unknown as Json };
    case 'syncNow':
      local.syncNow(device);
      return { value: null };
  }
}
