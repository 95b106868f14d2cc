import {
  LOCKDOWN_DOOR_MODE,
  PROTOCOL_WG,
  displayToCard,
  instantOfLocalMinute,
  localMinuteOf,
  localMinuteText,
  parseLocalMinute,
  type AccessCheckResult,
  type AccessCheckStep,
  type ChainSlot,
  type ControllerReadState,
  type LockdownMode,
} from '@gatehouse/shared';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import type { AreaContext } from '../../../platform/context.ts';
import {
  DoorControllerError,
  doorControllers,
  syncPlan,
  wgControllers,
  type ControllerCardRead,
} from '../access-control-device/controllers.ts';
import { deviceProfilePlan } from '../access-control-device/rules.ts';
import { doorKey, restoreInputs, scheduleModeDuring } from '../area-lockdown/plan.ts';
import { planInputs } from '../time-profile/service.ts';
import {
  controllerSteps,
  disagreements,
  unreadSteps,
  type ControllerInputs,
  type Disagreement,
} from './controller-steps.ts';
import { cardOf, doorOf, grantsAt, lastAtDoor, lastPassage, lockdownAt, type CheckedDoor } from './facts.ts';
import { serverSteps } from './server-steps.ts';
import { decidingStep, verdictOf, words, type Words } from './words.ts';

/**
 * The access check (docs/access-control.md, "Access check"): "why was I refused at the east gate?" answered as the
 * controller decides, step by step, on Gatehouse's side (server-steps.ts) and on the controller's, read live through
 * the instance that drives it (the door-controller seam's `readCard`, carried to the owning instance like any door
 * command), with where the two disagree and whether "sync now" puts it right. Nothing is written.
 */

/** How far back the door's schedules are walked for the mode they last set: a week and a day covers every weekday. */
const SCHEDULE_LOOKBACK_MS = 8 * 86_400_000;
/** A time asked within this of now is now: the controller's live door mode and clock speak of it. */
const NOW_WITHIN_MS = 5 * 60_000;

export interface CheckQuery {
  CardNumber: string;
  ChannelId: number;
  At?: string | undefined;
}

/** The minute asked (the area's wall clock; now when absent), as an instant and as a local minute. */
export async function checkedTime(ctx: AreaContext, at: string | undefined) {
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const now = ctx.clock.now();
  const parsed = at === undefined ? null : parseLocalMinute(at);
  const local = parsed ?? localMinuteOf(now, zone);
  return { zone, now, local, at: parsed ? instantOfLocalMinute(parsed, zone) : now };
}

/** The mode the door's own rules set as of `at`: its schedules' latest, else the one an operator set by hand. */
export async function doorModesAt(ctx: AreaContext, deviceIds: number[], at: number, zone: string) {
  const { rules, schedulesOf } = await restoreInputs(ctx.db.kysely, deviceIds);
  return (deviceId: number, door: number) => ({
    scheduled: scheduleModeDuring(schedulesOf(deviceId), door, at - SCHEDULE_LOOKBACK_MS, at, zone),
    byHand: rules.get(doorKey(deviceId, door))?.Mode ?? null,
  });
}

export async function accessCheck(ctx: AreaContext, query: CheckQuery): Promise<AccessCheckResult> {
  const k = ctx.db.kysely;
  const door = await doorOf(k, ctx.areaId, query.ChannelId);
  const { zone, now, local, at } = await checkedTime(ctx, query.At);
  const w = words(ctx.lang, zone);
  const cardNumber = query.CardNumber;
  const cardValue = displayToCard(cardNumber);
  const card = await cardOf(k, ctx.areaId, cardNumber);
  const holderId = card?.CardUserId ?? null;
  const expected =
    holderId === null || door.DoorNumber < 1
      ? undefined
      : (await syncPlan(ctx, door.DeviceId, { cardUserId: holderId })).cards.get(cardValue);
  const inputs = await planInputs(k, ctx.areaId);
  const lockdownRow = await lockdownAt(k, ctx.areaId, at);
  const lockdown = lockdownRow && { Mode: lockdownRow.Mode, StartedAt: Number(lockdownRow.StartedAt) };
  const modes = (await doorModesAt(ctx, [door.DeviceId], at, zone))(door.DeviceId, door.DoorNumber);
  const server = serverSteps(w, {
    cardNumber,
    card,
    door,
    grants: holderId === null ? [] : await grantsAt(k, holderId, door),
    at,
    local,
    zone,
    profiles: inputs.profiles,
    holidays: inputs.holidays,
    lockdown,
    scheduled: modes.scheduled,
    ruleMode: modes.byHand,
    lastPassage: await lastPassage(k, ctx.areaId, cardNumber, door.DeviceId, at),
    onController: expected && { from: expected.from, to: expected.to },
  });
  const isNow = Math.abs(at - now) < NOW_WITHIN_MS;
  const last = await lastAtDoor(k, ctx.areaId, cardNumber, door);
  const controller = await controllerSide(ctx, w, door, cardValue, {
    device: door.DeviceName,
    cardNumber,
    door: door.DoorNumber,
    local,
    zone,
    now: isNow,
    expected,
    ours: await ourSlots(ctx, door),
    profileNames: new Map([...inputs.profiles].map(([id, p]) => [id, p.Name])),
    // Gatehouse knows the mode a door must hold now only under a lockdown, or from an operator's setting that no
    // schedule has overridden since; otherwise the controller's own answer is not compared with a guess.
    expectedMode: lockdown
      ? LOCKDOWN_DOOR_MODE[lockdown.Mode as LockdownMode]
      : modes.scheduled === null
        ? modes.byHand
        : null,
    lastRefused: last.refused,
    lastGranted: last.granted,
  });
  const doorName = `${door.DeviceName} · ${door.Name}`;
  const params = { card: cardNumber, door: doorName, time: localMinuteText(local) };
  return {
    CardNumber: cardNumber,
    CardValue: cardValue,
    CardUserId: holderId,
    HolderName: card?.HolderName ?? null,
    ChannelId: door.Id,
    ChannelName: door.Name,
    DeviceId: door.DeviceId,
    DeviceName: door.DeviceName,
    SerialNumber: door.SerialNumber,
    DoorNumber: door.DoorNumber,
    Direction: door.Direction,
    At: new Date(at).toISOString(),
    AtLocal: localMinuteText(local),
    TimeZone: zone,
    Now: isNow,
    Server: summarised(w, 'server', server, params),
    Controller: {
      ...summarised(w, 'controller', controller.steps, { ...params, device: door.DeviceName }),
      State: controller.state,
      ReadAt: controller.readAt,
    },
    Disagreements: controller.disagreements,
    SyncNow: controller.disagreements.some((d) => d.SyncFixes),
  };
}

/** A side's verdict and its one-sentence summary, which names the step that decided it. */
function summarised(
  w: Words,
  side: 'server' | 'controller',
  steps: AccessCheckStep[],
  params: Record<string, string>,
) {
  const verdict = verdictOf(steps);
  const why = decidingStep(steps)?.Text ?? '';
  return {
    Verdict: verdict,
    Text: w.t(`accessCheck.summary.${side}_${verdict}`, { ...params, why }),
    Steps: steps,
  };
}

/** Gatehouse's compiled profiles of the controller by slot, read without keeping a new assignment; null over budget. */
async function ourSlots(ctx: AreaContext, door: CheckedDoor) {
  const plan = await deviceProfilePlan(
    ctx.db.kysely,
    { Id: door.DeviceId, AreaId: ctx.areaId },
    ctx.clock.now(),
    false,
  );
  if ('over' in plan) return null;
  return new Map<number, ChainSlot & { profileId: number }>(plan.slots.map((s) => [s.slot, s]));
}

interface ControllerSide {
  state: ControllerReadState;
  steps: AccessCheckStep[];
  disagreements: Disagreement[];
  readAt: string | null;
}

/**
 * The controller read live through the seam (the instance driving it, wherever it runs): a controller that cannot
 * be read is said to be so with why (offline, no answer, nobody drives it now, no address, no gateway here, not a
 * controller Gatehouse drives), and nothing is guessed in its place.
 */
async function controllerSide(
  ctx: AreaContext,
  w: Words,
  door: CheckedDoor,
  cardValue: number,
  input: ControllerInputs,
): Promise<ControllerSide> {
  const unread = (state: Exclude<ControllerReadState, 'read'>): ControllerSide => ({
    state,
    steps: unreadSteps(w, state, input),
    disagreements: [],
    readAt: null,
  });
  if (door.Protocol !== PROTOCOL_WG) return unread('notWg');
  if (door.Disabled) return unread('disabled');
  if (door.DoorNumber < 1) return unread('noDoor');
  const [device] = await wgControllers(ctx, door.DeviceId);
  if (!device) return unread('disabled');
  const controllers = doorControllers(ctx);
  if (!controllers) return unread('gatewayOff');
  let read: ControllerCardRead;
  try {
    read = await controllers.readCard(device, cardValue, door.DoorNumber);
  } catch (error) {
    if (error instanceof DoorControllerError) return unread(error.reason);
    // The instance driving it failed to run the read (not the controller's answer): nothing was read.
    return unread('timeout');
  }
  return {
    state: 'read',
    steps: controllerSteps(w, read, input),
    disagreements: disagreements(w, read, input),
    readAt: new Date(ctx.clock.now()).toISOString(),
  };
}
