import {
  chainGrantsAt,
  controllerDate,
  doorRecordReason,
  enumLabel,
  localMinuteText,
  type AccessCheckStep,
  type ChainSlot,
  type ControllerReadState,
  type LocalMinute,
} from '@gatehouse/shared';
import type { ControllerCardRead, DesiredCard } from '../access-control-device/controllers.ts';
import type { Words } from './words.ts';

/**
 * The controller's side of an access check (docs/access-control.md, "Access check"): what it answered it holds,
 * judged at the minute asked by the same rule as Gatehouse's side (its card's dates, the door value, the time
 * profile chain it holds), then compared with what Gatehouse says it must hold (the device sync's plan for the
 * card, `syncPlan`; the compiled profiles, `deviceProfilePlan`). A difference is said in the operator's words,
 * with whether "sync now" puts it right.
 */

/** A clock further off than this is worth telling: the controller judges hours and dates by its own clock. */
export const CLOCK_TOLERANCE_SECONDS = 60;

export interface Disagreement {
  Finding: string;
  Text: string;
  SyncFixes: boolean;
}

export interface ControllerInputs {
  device: string;
  cardNumber: string;
  door: number;
  local: LocalMinute;
  zone: string;
  /** At is now: the live door mode speaks of it. */
  now: boolean;
  /** What the controller must hold of the card (undefined: nothing, the card must be absent). */
  expected: DesiredCard | undefined;
  /** Gatehouse's compiled profiles by slot (null: over the budget, nothing to compare). */
  ours: ReadonlyMap<number, ChainSlot & { profileId: number }> | null;
  profileNames: ReadonlyMap<number, string>;
  /** The mode the door must hold now, when Gatehouse knows it (a lockdown, a mode set by hand); else null. */
  expectedMode: number | null;
  lastRefused:
    { At: number; ChannelName: string | null; Reason: number; EventReason: number | null } | undefined;
  lastGranted: { At: number } | undefined;
}

/** The controller's side when it could not be read: one step saying why, truthfully, and nothing guessed. */
export function unreadSteps(
  w: Words,
  state: Exclude<ControllerReadState, 'read'>,
  input: Pick<ControllerInputs, 'device' | 'lastRefused' | 'lastGranted'>,
): AccessCheckStep[] {
  return [
    w.step('reach', 'unknown', `reach_${state}`, { device: input.device }, { State: state }),
    refusalStep(w, input),
  ];
}

/** The controller's side as it answered. */
export function controllerSteps(
  w: Words,
  read: ControllerCardRead,
  input: ControllerInputs,
): AccessCheckStep[] {
  const steps: AccessCheckStep[] = [w.step('reach', 'pass', 'reach_read', { device: input.device })];
  const { card } = read;
  const date = input.local.date;
  if (!card) steps.push(w.step('card', 'refuse', 'ctlLacksCard', { card: input.cardNumber }));
  else {
    steps.push(w.step('card', 'pass', 'ctlHoldsCard', { card: input.cardNumber }, { Pin: card.pin }));
    const dates = { from: card.from ?? '-', to: card.to ?? '-', date };
    const inside = card.from !== null && card.to !== null && date >= card.from && date <= card.to;
    steps.push(
      w.step('dates', inside ? 'pass' : 'refuse', inside ? 'ctlDatesIn' : 'ctlDatesOut', dates, {
        From: card.from,
        To: card.to,
      }),
    );
    const value = card.doors[input.door - 1] ?? 0;
    const params = { door: input.door, value: w.doorValue(value) };
    steps.push(
      w.step(
        'doorValue',
        value === 0 ? 'refuse' : 'pass',
        value === 0 ? 'ctlDoorNone' : 'ctlDoorValue',
        params,
        {
          DoorValue: value,
          Doors: card.doors.join(','),
        },
      ),
    );
    if (value >= 2) steps.push(profileStep(w, read, value, input));
  }
  steps.push(doorModeStep(w, read, input), clockStep(w, read), refusalStep(w, input));
  return steps;
}

function profileStep(
  w: Words,
  read: ControllerCardRead,
  head: number,
  input: ControllerInputs,
): AccessCheckStep {
  const held = new Map<number, ChainSlot>();
  for (const p of read.profiles) if (p.profile) held.set(p.slot, p.profile);
  const verdict = chainGrantsAt(head, held, input.local);
  const time = localMinuteText(input.local);
  const data = { Slot: head, Chain: read.profiles.map((p) => p.slot).join(',') };
  if (verdict.missing !== null)
    return w.step('profile', 'warn', 'ctlProfileMissing', { slot: verdict.missing }, data);
  return verdict.granted
    ? w.step('profile', 'pass', 'ctlInProfile', { slot: verdict.slot, time }, data)
    : w.step('profile', 'refuse', 'ctlOutsideProfile', { slot: head, time }, data);
}

/** Its door's mode as it answered: what it is now, which decides a swipe now and says nothing of another time. */
function doorModeStep(w: Words, read: ControllerCardRead, input: ControllerInputs): AccessCheckStep {
  const mode = read.door.mode;
  const params = { mode: w.mode(mode) };
  const data = { Mode: mode, Delay: read.door.delay };
  if (!input.now) return w.step('doorMode', mode === 2 ? 'warn' : 'pass', 'ctlModeNow', params, data);
  return w.step(
    'doorMode',
    mode === 2 ? 'refuse' : 'pass',
    mode === 2 ? 'ctlClosed' : 'ctlMode',
    params,
    data,
  );
}

function clockStep(w: Words, read: ControllerCardRead): AccessCheckStep {
  const drift = read.driftSeconds;
  if (drift === null) return w.step('clock', 'unknown', 'ctlClockUnknown');
  const data = { DriftSeconds: drift };
  return Math.abs(drift) <= CLOCK_TOLERANCE_SECONDS
    ? w.step('clock', 'pass', 'ctlClockRight', { drift }, data)
    : w.step('clock', 'warn', 'ctlClockOff', { drift }, data);
}

/** The last refusal the controller reported for the card at the door (stored records), and whether it let it in since. */
function refusalStep(
  w: Words,
  input: Pick<ControllerInputs, 'lastRefused' | 'lastGranted'>,
): AccessCheckStep {
  const refused = input.lastRefused;
  if (!refused) return w.step('lastRefusal', 'pass', 'ctlNoRefusal');
  const reason = enumLabel(w.lang, doorRecordReason, refused.Reason);
  const params = {
    time: w.time(refused.At),
    channel: refused.ChannelName ?? '',
    reason,
    code: refused.EventReason ?? '-',
  };
  const data = {
    At: new Date(refused.At).toISOString(),
    Reason: refused.Reason,
    EventReason: refused.EventReason,
    ChannelName: refused.ChannelName,
  };
  const since = input.lastGranted && input.lastGranted.At > refused.At ? input.lastGranted : undefined;
  return since
    ? w.step('lastRefusal', 'pass', 'ctlRefusedThenGranted', { ...params, granted: w.time(since.At) }, data)
    : w.step('lastRefusal', 'warn', 'ctlLastRefusal', params, data);
}

// ---- where the two sides disagree ------------------------------------------------------------------------------

const sameSlot = (a: ChainSlot, b: ChainSlot) =>
  a.from === b.from &&
  a.to === b.to &&
  a.linked === b.linked &&
  [...a.weekdays].sort().join() === [...b.weekdays].sort().join() &&
  JSON.stringify(a.segments.map((s) => [s.Start, s.End])) ===
    JSON.stringify(b.segments.map((s) => [s.Start, s.End]));

/** What the controller holds against what Gatehouse says it must, in the operator's words. */
export function disagreements(w: Words, read: ControllerCardRead, input: ControllerInputs): Disagreement[] {
  const out: Disagreement[] = [];
  const say = (finding: string, params: Record<string, string | number>, fixes = true) =>
    out.push({ Finding: finding, Text: w.t(`accessCheck.disagree.${finding}`, params), SyncFixes: fixes });
  const base = { device: input.device, card: input.cardNumber, door: input.door };
  const { card } = read;
  const expected = input.expected;
  const heldValue = card?.doors[input.door - 1] ?? 0;
  const ourValue = expected?.doorValues[input.door - 1] ?? 0;
  if (expected && !card) say('cardMissing', base);
  else if (!expected && card && heldValue !== 0) say('cardExtra', base);
  else if (expected && card) {
    if (heldValue !== ourValue)
      say('doorValue', { ...base, held: w.doorValue(heldValue), ours: w.doorValue(ourValue) });
    const from = controllerDate(expected.from, input.zone);
    const to = controllerDate(expected.to, input.zone);
    if (card.from !== from || card.to !== to)
      say('dates', { ...base, heldFrom: card.from ?? '-', heldTo: card.to ?? '-', from, to });
    if (heldValue === ourValue && ourValue >= 2 && input.ours) profileDisagreements(read, input, say);
  }
  const drift = read.driftSeconds;
  if (drift !== null && Math.abs(drift) > CLOCK_TOLERANCE_SECONDS) say('clock', { ...base, drift }, false);
  if (input.now && input.expectedMode !== null && read.door.mode !== input.expectedMode)
    say('doorMode', { ...base, held: w.mode(read.door.mode), ours: w.mode(input.expectedMode) });
  return out;
}

/** Each profile of the chain Gatehouse compiled for the door value, against the one the controller holds. */
function profileDisagreements(
  read: ControllerCardRead,
  input: ControllerInputs,
  say: (finding: string, params: Record<string, string | number>) => void,
): void {
  const held = new Map(read.profiles.map((p) => [p.slot, p.profile]));
  const ours = input.ours!;
  const seen = new Set<number>();
  for (let slot = input.expected!.doorValues[input.door - 1]!; slot >= 2 && !seen.has(slot);) {
    seen.add(slot);
    const mine = ours.get(slot);
    if (!mine) return;
    const profile = input.profileNames.get(mine.profileId) ?? String(mine.profileId);
    const theirs = held.get(slot);
    const params = { device: input.device, slot, profile };
    // A slot the controller was not asked for (its chain ended before) is read as missing too.
    if (!theirs) return say('profileMissing', params);
    if (!sameSlot(theirs, mine)) return say('profile', params);
    slot = mine.linked;
  }
}
