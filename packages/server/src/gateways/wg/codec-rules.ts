// The access-rule messages of the WG / UHPPOTE UT0311-L0x protocol: time profiles, the task list (door schedules),
// interlock, anti-passback, keypads, door passcodes, first card and restore-default-parameters. Each layout is the
// struct of uhppoted/uhppote-core `messages/<file>.go` named in `source` (struct tags `uhppote:"offset:N"`), and
// test/wg-codec-rules.test.ts replays the byte fixtures of the matching `messages/*_test.go` in both directions.
// codec.ts merges this table into `MESSAGES`, so the generic encoders and decoders handle these functions too.

import {
  f,
  isHHmm,
  type Doors4,
  type LocalDate,
  type LocalHHmm,
  type MessageSpec,
  type Segments3,
  type Weekdays,
} from './codec-fields.ts';
import {
  AntiPassback,
  CardDoor,
  FirstCardMode,
  Interlock,
  MAX_PASSCODE,
  TaskType,
  TimeProfileId,
} from './constants.ts';

const ok = { ok: f(8, 'bool') };

/** Fields of a time profile: set time profile 0x88 request = get time profile 0x98 reply. */
const timeProfileFields = {
  /** profile id, 2..254 (0 in a 0x98 reply: the controller holds no such profile) */
  id: f(8, 'u8'),
  from: f(9, 'date'),
  to: f(13, 'date'),
  /** offsets 17..23, Monday first */
  weekdays: f(17, 'weekdays'),
  /** offsets 24..35: segment 1 start/end, segment 2 start/end, segment 3 start/end (BCD HHmm each) */
  segments: f(24, 'segments'),
  /** id of the profile checked next when this one does not grant access; 0 none */
  linked: f(36, 'u8'),
};

/** The access-rule subset, by function. */
export const RULE_MESSAGES = {
  setTimeProfile: {
    fn: 0x88,
    source: 'messages/set_time_profile.go',
    request: timeProfileFields,
    response: ok,
  },
  getTimeProfile: {
    fn: 0x98,
    source: 'messages/get_time_profile.go',
    request: { id: f(8, 'u8') },
    response: timeProfileFields,
  },
  clearTimeProfiles: {
    fn: 0x8a,
    source: 'messages/clear_time_profiles.go',
    request: { magic: f(8, 'magic') },
    response: ok,
  },
  addTask: {
    fn: 0xa8,
    source: 'messages/add_task.go',
    request: {
      from: f(8, 'date'),
      to: f(12, 'date'),
      /** offsets 16..22, Monday first */
      weekdays: f(16, 'weekdays'),
      start: f(23, 'hhmm'),
      door: f(25, 'u8'),
      /** TaskType, 0..12 */
      type: f(26, 'u8'),
      /** number of cards for "enable more cards" (uhppote-core `MoreCards`) */
      moreCards: f(27, 'u8'),
    },
    response: ok,
  },
  clearTasks: {
    fn: 0xa6,
    source: 'messages/clear_task_list.go',
    request: { magic: f(8, 'magic') },
    response: ok,
  },
  refreshTasks: {
    fn: 0xac,
    source: 'messages/refresh_tasklist.go',
    request: { magic: f(8, 'magic') },
    // uhppote-core calls it `Refreshed`; same byte, same meaning as every other "done" flag
    response: ok,
  },
  setInterlock: {
    fn: 0xa2,
    source: 'messages/set_interlock.go',
    /** Interlock: 0, 1, 2, 3, 4 or 8 */
    request: { interlock: f(8, 'u8') },
    response: ok,
  },
  setAntiPassback: {
    fn: 0x84,
    source: 'messages/set_anti_passback.go',
    /** AntiPassback: 0..4 */
    request: { antiPassback: f(8, 'u8') },
    response: ok,
  },
  getAntiPassback: {
    fn: 0x86,
    source: 'messages/get_anti_passback.go',
    request: {},
    response: { antiPassback: f(8, 'u8') },
  },
  activateKeypads: {
    fn: 0xa4,
    source: 'messages/activate_keypads.go',
    /** offsets 8..11: reader 1..4 keypad on */
    request: { readers: f(8, 'bool4') },
    response: ok,
  },
  setDoorPasscodes: {
    fn: 0x8c,
    source: 'messages/set_door_passcodes.go',
    /** door at 8, passcodes (uint32, 0..999999, 0 none) at 12, 16, 20, 24 */
    request: { door: f(8, 'u8'), passcodes: f(12, 'u32x4') },
    response: ok,
  },
  setFirstCard: {
    fn: 0xaa,
    source: 'messages/set_first_card.go',
    request: {
      door: f(8, 'u8'),
      start: f(9, 'hhmm'),
      /** FirstCardMode while the window is open */
      startMode: f(11, 'u8'),
      end: f(12, 'hhmm'),
      /** FirstCardMode after it */
      endMode: f(14, 'u8'),
      /** offsets 15..21, Monday first */
      weekdays: f(15, 'weekdays'),
    },
    response: ok,
  },
  restoreDefaults: {
    fn: 0xc8,
    source: 'messages/restore_default_parameters.go',
    request: { magic: f(8, 'magic') },
    response: ok,
  },
} as const satisfies Record<string, MessageSpec>;

/** A time profile as set with 0x88 and read with 0x98. */
export interface TimeProfile {
  /** 2..254 */
  id: number;
  from: LocalDate | null;
  to: LocalDate | null;
  weekdays: Weekdays;
  segments: Segments3;
  /** next profile of the chain (2..254), 0 for none */
  linked: number;
}

/** One entry of the task list (0xA8): from `start` on the matching days, `type` applies to `door`. */
export interface WgTask {
  /** TaskType */
  type: number;
  door: number;
  from: LocalDate | null;
  to: LocalDate | null;
  weekdays: Weekdays;
  start: LocalHHmm;
  /** cards needed for "enable more cards"; 0 otherwise */
  moreCards: number;
}

/** The first-card rule of one door (0xAA). */
export interface FirstCardRule {
  door: number;
  start: LocalHHmm;
  /** FirstCardMode */
  startMode: number;
  end: LocalHHmm;
  /** FirstCardMode */
  endMode: number;
  weekdays: Weekdays;
}

/** What a card's door value (0x50 / 0x5A / 0x5C offsets 20..23) grants. */
export type DoorAccess = { kind: 'none' } | { kind: 'always' } | { kind: 'profile'; profile: number };

/** Reads a card's door value: 0 none, 1 always, 2..254 a time profile; 255 is no profile and grants nothing. */
export function doorAccess(value: number): DoorAccess {
  if (value === CardDoor.Always) return { kind: 'always' };
  if (value >= CardDoor.FirstProfile && value <= CardDoor.LastProfile)
    return { kind: 'profile', profile: value };
  return { kind: 'none' };
}

/** The door value to write for an access. */
export function doorValue(access: DoorAccess): number {
  if (access.kind === 'none') return CardDoor.None;
  if (access.kind === 'always') return CardDoor.Always;
  if (
    !Number.isInteger(access.profile) ||
    access.profile < CardDoor.FirstProfile ||
    access.profile > CardDoor.LastProfile
  )
    throw new RangeError(`time profile ${access.profile} is not in 2..254`);
  return access.profile;
}

// ---------------------------------------------------------------------------------------------------------------
// What a controller accepts. The driver checks before sending, so a caller's mistake is a RangeError at once and
// not a "refused" after three tries.

const minutes = (t: LocalHHmm) => t.hour * 60 + t.minute;
const isId = (n: number) => Number.isInteger(n) && n >= TimeProfileId.First && n <= TimeProfileId.Last;
const isUint = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;

/**
 * A time profile a controller stores: id 2..254, linked 0 or another 2..254, both dates, and no segment ending
 * before it starts (uhppote-core uhppote/set_time_profile.go refuses a missing date or such a segment).
 */
export function checkTimeProfile(p: TimeProfile): void {
  if (!isId(p.id)) throw new RangeError(`time profile id ${p.id} is not in 2..254`);
  if (p.linked !== 0 && (!isId(p.linked) || p.linked === p.id))
    throw new RangeError(`time profile ${p.id}: linked profile ${p.linked} is not 0 or another id in 2..254`);
  if (!p.from || !p.to) throw new RangeError(`time profile ${p.id} needs both dates`);
  p.segments.forEach((s, i) => {
    if (!isHHmm(s.start) || !isHHmm(s.end) || minutes(s.end) < minutes(s.start))
      throw new RangeError(`time profile ${p.id}: segment ${i + 1} ends before it starts`);
  });
}

/** A task a controller runs: a known type, door 1..4, both dates (uhppote-core uhppote/add_task.go insists). */
export function checkTask(t: WgTask): void {
  if (!Object.values(TaskType).includes(t.type as never))
    throw new RangeError(`task type ${t.type} is not 0..12`);
  if (!isUint(t.door, 4) || t.door === 0) throw new RangeError(`task door ${t.door} is not 1..4`);
  if (!t.from || !t.to) throw new RangeError('a task needs both dates');
}

/** The interlock values of `Interlock` (0, 1, 2, 3, 4, 8); others are not modes. */
export function checkInterlock(mode: number): void {
  if (!Object.values(Interlock).includes(mode as never))
    throw new RangeError(`interlock ${mode} is not 0-4 or 8`);
}

export function checkAntiPassback(mode: number): void {
  if (!Object.values(AntiPassback).includes(mode as never))
    throw new RangeError(`anti-passback ${mode} is not 0..4`);
}

/** Up to four passcodes 0..999999 (0 none), padded with 0 as uhppote-core's SetDoorPasscodes does. */
export function passcodeList(codes: readonly number[]): Doors4<number> {
  if (codes.length > 4 || !codes.every((c) => isUint(c, MAX_PASSCODE)))
    throw new RangeError(`passcodes ${codes.join(', ')}: at most four, each 0..${MAX_PASSCODE}`);
  return [codes[0] ?? 0, codes[1] ?? 0, codes[2] ?? 0, codes[3] ?? 0];
}

export function checkFirstCard(r: FirstCardRule): void {
  const modes: number[] = Object.values(FirstCardMode);
  if (!isUint(r.door, 4) || r.door === 0) throw new RangeError(`first card door ${r.door} is not 1..4`);
  if (!modes.includes(r.startMode) || !modes.includes(r.endMode))
    throw new RangeError(`first card modes ${r.startMode} / ${r.endMode} are not 1..4`);
}
