// The access-rule messages of the WG / UHPPOTE UT0311-L0x protocol: time profiles, the task list (door schedules),
// interlock, anti-passback, keypads, door passcodes, first card and restore-default-parameters. Each layout is the
// struct of uhppoted/uhppote-core `messages/<file>.go` named in `source` (struct tags `uhppote:"offset:N"`), and
// test/wg-codec-rules.test.ts replays the byte fixtures of the matching `messages/*_test.go` in both directions.
// codec.ts merges this table into `MESSAGES`, so the generic encoders and decoders handle these functions too.

import {
  f,
  type LocalDate,
  type LocalHHmm,
  type MessageSpec,
  type Segments3,
  type Weekdays,
} from './codec-fields.ts';
import { CardDoor } from './constants.ts';

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
