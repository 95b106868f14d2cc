import {
  LOCKDOWN_DOOR_MODE,
  antiPassbackMode,
  controllerDate,
  enumLabel,
  interlockMode,
  issueStatus,
  profileGrantsAt,
  type AccessCheckStep,
  type HolidayDef,
  type LocalMinute,
  type LockdownMode,
  type ProfileDef,
} from '@gatehouse/shared';
import { ISSUE } from '../card-user-link-channel/lifecycle.ts';
import { LIVE_GRANTS, type CheckedCard, type CheckedDoor, type CheckedGrant } from './facts.ts';
import type { Words } from './words.ts';

/**
 * Gatehouse's side of an access check (docs/access-control.md, "Access check"): each step the controller's decision
 * takes, judged from what Gatehouse holds, by the rules the device sync writes to the controller (the validity span
 * and profile of a holder's authorisations on one door as `syncPlan` folds them; time profiles compiled with the
 * holidays and judged as the controller judges its chain, packages/shared access-check-rules.ts).
 */

export interface ServerInputs {
  cardNumber: string;
  card: CheckedCard | undefined;
  door: CheckedDoor;
  grants: CheckedGrant[];
  at: number;
  local: LocalMinute;
  zone: string;
  profiles: ReadonlyMap<number, ProfileDef>;
  holidays: readonly HolidayDef[];
  lockdown: { Mode: string; StartedAt: number } | undefined;
  /** The mode the door's schedules set as of `at` (null: none came due). */
  scheduled: number | null;
  /** The mode an operator set for the door (0x80), if any. */
  ruleMode: number | null;
  lastPassage: { At: number; ChannelName: string | null; Direction: number } | undefined;
  /**
   * The range the controller holds the card with (the device sync's span of the holder's authorisations on the
   * whole controller: a card has one range there), when Gatehouse says it must hold the card.
   */
  onController: { from: number; to: number } | undefined;
}

/** Every step of Gatehouse's side; the steps that need a holder (or an authorisation) follow only when there is one. */
export function serverSteps(w: Words, input: ServerInputs): AccessCheckStep[] {
  const steps: AccessCheckStep[] = [cardStep(w, input)];
  const { card } = input;
  if (card) steps.push(holderStep(w, card, input.at));
  if (card?.CardUserId != null && input.door.DoorNumber >= 1) {
    const live = input.grants.filter((g) => LIVE_GRANTS.includes(g.IssueStatus) && !g.Revoked);
    steps.push(grantStep(w, card, input));
    if (live.length > 0) steps.push(validityStep(w, card, live, input), profileStep(w, live, input));
  }
  steps.push(...doorSteps(w, input));
  return steps;
}

function cardStep(w: Words, { card, cardNumber }: ServerInputs): AccessCheckStep {
  const data = { CardNumber: cardNumber, CardId: card?.Id ?? null };
  return card
    ? w.step('card', 'pass', 'cardRegistered', { card: cardNumber }, data)
    : w.step('card', 'refuse', 'cardNotRegistered', { card: cardNumber }, data);
}

function holderStep(w: Words, card: CheckedCard, at: number): AccessCheckStep {
  if (card.CardUserId === null) return w.step('holder', 'refuse', 'cardNotHeld');
  const holder = card.HolderName ?? '';
  const data = { CardUserId: card.CardUserId, HolderName: holder, Disabled: card.Disabled };
  if (card.PassId !== null) {
    const pass = { ...data, VisitorPassId: card.PassId, PassState: card.PassState, Host: card.HostName };
    // A pass ends at its end, or by a revoke: the device sync leaves it off every controller from then on.
    const ended = card.PassState !== 1 || (card.PassEnd !== null && card.PassEnd <= at);
    const params = { visitor: card.VisitorName ?? holder, host: card.HostName ?? '' };
    return ended
      ? w.step('holder', 'refuse', 'passEnded', params, pass)
      : w.step('holder', 'pass', 'passValid', params, pass);
  }
  return card.Disabled
    ? w.step('holder', 'refuse', 'holderDisabled', { holder }, data)
    : w.step('holder', 'pass', 'holderEnabled', { holder }, data);
}

/** The authorisation that speaks for the door: one on this very reader first, else one on the door's other reader. */
function grantStep(w: Words, card: CheckedCard, input: ServerInputs): AccessCheckStep {
  const { grants, door } = input;
  const mine = (g: CheckedGrant) => g.ChannelId === door.Id;
  const live = grants.filter((g) => LIVE_GRANTS.includes(g.IssueStatus) && !g.Revoked);
  const chosen = live.find(mine) ?? live[0] ?? grants.findLast((g) => !g.Revoked) ?? grants.at(-1);
  if (!chosen) return w.step('authorisation', 'refuse', 'noGrant', { holder: card.HolderName ?? '' });
  const status = enumLabel(w.lang, issueStatus, chosen.IssueStatus);
  const params = { channel: chosen.ChannelName, status };
  const data = {
    AuthorizationId: chosen.Id,
    ChannelId: chosen.ChannelId,
    ChannelName: chosen.ChannelName,
    IssueStatus: chosen.IssueStatus,
    SyncError: chosen.SyncError,
  };
  if (chosen.Revoked) return w.step('authorisation', 'refuse', 'grantRevoked', params, data);
  if (!LIVE_GRANTS.includes(chosen.IssueStatus))
    return w.step('authorisation', 'refuse', 'grantWithdrawn', params, data);
  if (chosen.IssueStatus === ISSUE.pendingIssue || chosen.IssueStatus === ISSUE.pendingUpdate)
    return w.step('authorisation', 'warn', 'grantPending', params, data);
  return mine(chosen)
    ? w.step('authorisation', 'pass', 'granted', params, data)
    : w.step('authorisation', 'pass', 'grantedOtherReader', params, data);
}

/**
 * The validity: the holder's, narrowed by each authorisation's own, spanned over the holder's authorisations on the
 * door (a card has one range on a controller: syncPlan). The controller holds dates only, so a minute outside the
 * range on one of its end dates is still let in there: a caveat, not a refusal.
 */
function validityStep(
  w: Words,
  card: CheckedCard,
  live: CheckedGrant[],
  input: ServerInputs,
): AccessCheckStep {
  const holderFrom = card.ValidFrom ?? 0;
  const holderTo = card.ValidTo ?? 0;
  const from = Math.min(...live.map((g) => Math.max(holderFrom, g.ValidFrom ?? -Infinity)));
  const to = Math.max(...live.map((g) => Math.min(holderTo, g.ValidTo ?? Infinity)));
  const { at, zone, local } = input;
  const params = { from: w.time(from), to: w.time(to) };
  const data = { ValidFrom: new Date(from).toISOString(), ValidTo: new Date(to).toISOString() };
  if (at >= from && at <= to) return w.step('validity', 'pass', 'valid', params, data);
  // What the controller was given: dates only, of the span over every door of it.
  const span = input.onController ?? { from, to };
  const dates = {
    cfrom: controllerDate(span.from, zone),
    cto: controllerDate(span.to, zone),
    date: local.date,
  };
  if (local.date >= dates.cfrom && local.date <= dates.cto)
    return w.step('validity', 'warn', 'validDatesOnly', { ...params, ...dates }, data);
  return at < from
    ? w.step('validity', 'refuse', 'notYetValid', params, data)
    : w.step('validity', 'refuse', 'expired', params, data);
}

/**
 * The time profile: "at any time" when one of the holder's authorisations on the door has none, else the newest
 * one's (the device sync's rule for one door value), judged at the minute with the area's holidays.
 */
function profileStep(w: Words, live: CheckedGrant[], input: ServerInputs): AccessCheckStep {
  if (live.some((g) => g.TimeProfileId === null)) return w.step('timeProfile', 'pass', 'anyTime');
  const grant = live.at(-1)!;
  const id = grant.TimeProfileId!;
  const name = grant.ProfileName ?? String(id);
  const verdict = profileGrantsAt(id, input.profiles, input.holidays, input.local);
  const data = { TimeProfileId: id, ProfileName: name, At: w.time(input.at) };
  const params = { profile: name, time: w.time(input.at) };
  if (verdict.missing) return w.step('timeProfile', 'refuse', 'profileMissing', params, data);
  if (verdict.granted) {
    const by = verdict.grantedBy === null ? null : (input.profiles.get(verdict.grantedBy)?.Name ?? null);
    return by !== null && verdict.grantedBy !== id
      ? w.step('timeProfile', 'pass', 'inLinkedProfile', { ...params, by }, { ...data, GrantedBy: by })
      : w.step('timeProfile', 'pass', 'inProfile', params, data);
  }
  if (verdict.holiday !== null)
    return w.step(
      'timeProfile',
      'refuse',
      'holidayProfile',
      { ...params, date: input.local.date, holiday: verdict.holiday },
      { ...data, Holiday: verdict.holiday },
    );
  return w.step('timeProfile', 'refuse', 'outsideProfile', params, data);
}

/** The door at that time: the area's lockdown, the door's schedules, its mode, interlock and anti-passback. */
function doorSteps(w: Words, input: ServerInputs): AccessCheckStep[] {
  const { lockdown, scheduled, ruleMode, door } = input;
  const steps: AccessCheckStep[] = [];
  if (lockdown) {
    const mode = lockdown.Mode as LockdownMode;
    const params = { since: w.time(lockdown.StartedAt) };
    const data = { Mode: mode, StartedAt: new Date(lockdown.StartedAt).toISOString() };
    steps.push(
      LOCKDOWN_DOOR_MODE[mode] === 2
        ? w.step('lockdown', 'refuse', 'lockedDown', params, data)
        : w.step('lockdown', 'pass', 'evacuated', params, data),
    );
    // While it lasts no schedule sets a door's mode (the controller's task list leaves them out).
    steps.push(w.step('schedule', 'pass', 'schedulePaused'));
  } else {
    steps.push(w.step('lockdown', 'pass', 'noLockdown'));
    steps.push(
      scheduled === null
        ? w.step('schedule', 'pass', 'noSchedule')
        : w.step(
            'schedule',
            modeVerdict(scheduled),
            'scheduleMode',
            { mode: w.mode(scheduled) },
            { Mode: scheduled },
          ),
    );
  }
  const byHand = ruleMode ?? 3;
  const data = { Mode: ruleMode };
  steps.push(
    lockdown || scheduled !== null
      ? w.step('doorMode', 'pass', 'modeOverridden', { mode: w.mode(byHand) }, data)
      : w.step('doorMode', modeVerdict(byHand), `mode${byHand}`, { mode: w.mode(byHand) }, data),
  );
  steps.push(interlockStep(w, door), antiPassbackStep(w, input));
  return steps;
}

/** A door normally closed opens to no card; normally open or controlled lets the card's own decision stand. */
const modeVerdict = (mode: number) => (mode === 2 ? 'refuse' : 'pass');

/** The doors each interlock mode ties together (0xA2; uhppote-core types/interlock.go). */
const INTERLOCKED: Record<number, number[][]> = {
  1: [[1, 2]],
  2: [[3, 4]],
  3: [
    [1, 2],
    [3, 4],
  ],
  4: [[1, 2, 3]],
  8: [[1, 2, 3, 4]],
};

function interlockStep(w: Words, door: CheckedDoor): AccessCheckStep {
  const mode = door.Interlock;
  if (mode === 0) return w.step('interlock', 'pass', 'interlockOff');
  const group = (INTERLOCKED[mode] ?? []).find((g) => g.includes(door.DoorNumber));
  const label = enumLabel(w.lang, interlockMode, mode);
  if (!group) return w.step('interlock', 'pass', 'interlockOther', { mode: label }, { Interlock: mode });
  const others = group.filter((d) => d !== door.DoorNumber).join(', ');
  return w.step('interlock', 'warn', 'interlockOn', { mode: label, doors: others }, { Interlock: mode });
}

/**
 * Anti-passback depends on where the card last passed, which the controller remembers and Gatehouse only sees
 * in the swipes it stored: a caveat naming the last passage, never a verdict Gatehouse cannot know.
 */
function antiPassbackStep(w: Words, input: ServerInputs): AccessCheckStep {
  const mode = input.door.AntiPassback;
  if (mode === 0) return w.step('antiPassback', 'pass', 'antiPassbackOff');
  const label = enumLabel(w.lang, antiPassbackMode, mode);
  const last = input.lastPassage;
  const data = {
    AntiPassback: mode,
    LastPassageAt: last ? new Date(last.At).toISOString() : null,
    LastPassageChannel: last?.ChannelName ?? null,
  };
  return last
    ? w.step(
        'antiPassback',
        'warn',
        'antiPassbackOn',
        { mode: label, time: w.time(last.At), channel: last.ChannelName ?? '' },
        data,
      )
    : w.step('antiPassback', 'pass', 'antiPassbackNoPassage', { mode: label }, data);
}
