// Protocol constants of the WG / UHPPOTE UT0311-L0x access controllers.
// Source for every value here: uhppoted/uhppote-core messages/get_status.go, messages/events.go and
// messages/get_event.go (the "Type", "Direction" and "Reason" comment tables), and for the access-rule values
// uhppote-core types/*.go (task.go, interlock.go, anti_passback.go, door.go, card.go), read through `search`.

/** Start-of-message byte of every request and reply (byte 0). */
export const SOM = 0x17;
/** Start-of-message byte of events pushed by firmware v6.62 (messages/events.go, EventV6_62). */
export const SOM_V6_62 = 0x19;
/** Every datagram is exactly this long, both ways. */
export const PACKET_SIZE = 64;
/**
 * Guard word for destructive requests: delete all cards 0x54 (offset 8), set read index 0xB2 (offset 12), clear
 * time profiles 0x8A, clear task list 0xA6, refresh task list 0xAC and restore default parameters 0xC8 (offset 8).
 */
export const MAGIC_WORD = 0x55aaaa55;
/** The controllers' UDP port. */
export const DEFAULT_PORT = 60000;

/** Card value the controller uses for "no card here" (get card 0x5A not found, end of list in 0x5C). */
export const CARD_NONE = 0;
/** Card value the controller uses for a deleted slot in its card list (0x5C). */
export const CARD_DELETED = 0xffffffff;

/** Record (event) type at offset 12 of a record. */
export const RecordType = {
  None: 0x00,
  Swipe: 0x01,
  /** door status, push button, device reboot, remote open door */
  Door: 0x02,
  /** "warn record" */
  Alarm: 0x03,
  /** the ring slot for this index has been overwritten by newer records */
  Overwritten: 0xff,
} as const;

/** Direction at offset 15 of a record. */
export const Direction = { In: 0x01, Out: 0x02 } as const;

/** Door control mode, offset 9 of 0x80 / 0x82. */
export const DoorMode = { NormallyOpen: 1, NormallyClosed: 2, Controlled: 3 } as const;

/**
 * A card's value per door (put card 0x50 offsets 20..23, and the same bytes of the 0x5A / 0x5C replies): 0 no
 * access, 1 access at any time, 2..254 the id of the time profile that grants it (uhppote-core types/card.go
 * prints 0 as "N", 1 as "Y", 2..254 as the profile; 255 is not a profile and reads as no access).
 */
export const CardDoor = { None: 0, Always: 1, FirstProfile: 2, LastProfile: 254 } as const;

/** Time profile ids a controller stores (0x88 offset 8): 0 and 1 mean "no access" and "always" on a card. */
export const TimeProfileId = { First: 2, Last: 254 } as const;

/**
 * Task types of the task list (add task 0xA8 offset 26). uhppote-core types/task.go numbers them from 0 with iota
 * (its text and TSV forms use 1..13 and subtract 1 before sending), so the byte on the wire is the value here.
 */
export const TaskType = {
  DoorControlled: 0,
  DoorNormallyOpen: 1,
  DoorNormallyClosed: 2,
  DisableTimeProfile: 3,
  EnableTimeProfile: 4,
  CardNoPassword: 5,
  CardInPassword: 6,
  CardInOutPassword: 7,
  EnableMoreCards: 8,
  DisableMoreCards: 9,
  TriggerOnce: 10,
  DisablePushButton: 11,
  EnablePushButton: 12,
} as const;

/**
 * Interlock modes (set interlock 0xA2 offset 8), from uhppote-core types/interlock.go @11f5ee4 and the fixture of
 * messages/set_interlock_test.go @6e4dc3a (doors 1&2&3&4 is 0x08, not 0x04). The older table of
 * messages/set_interlock.go (`InterlockMode`: 1 = 1&2 + 3&4, 2 = 1&3 + 2&4, 3 = 1&2&3, 4 = all four) is superseded:
 * the vendor's own PC software maps 1 and 3 to "1&2", 2 and 3 to "3&4", 4 to "1&2&3" and 8 to "1&2&3&4".
 */
export const Interlock = {
  None: 0x00,
  Doors12: 0x01,
  Doors34: 0x02,
  Doors12And34: 0x03,
  Doors123: 0x04,
  Doors1234: 0x08,
} as const;

/**
 * Anti-passback modes (0x84 set / 0x86 get, offset 8), uhppote-core types/anti_passback.go: a card that passed a
 * reader of one side is refused at that side until it has passed the other side.
 */
export const AntiPassback = {
  Disabled: 0x00,
  /** readers 1:2 and 3:4, independently */
  Readers12_34: 0x01,
  /** readers (1,3):(2,4) */
  Readers13_24: 0x02,
  /** readers 1:(2,3) */
  Readers1_23: 0x03,
  /** readers 1:(2,3,4) */
  Readers1_234: 0x04,
} as const;

/** Door state at the start and end of a first-card window (0xAA offsets 11 and 14), uhppote-core types/door.go. */
export const FirstCardMode = { NormallyOpen: 1, NormallyClosed: 2, Controlled: 3, FirstCardOnly: 4 } as const;

/** Highest door passcode (0x8C offsets 12..27); 0 means "no passcode" (messages/set_door_passcodes.go). */
export const MAX_PASSCODE = 999999;

/**
 * Known reason codes (offset 27 of a record), the table at the end of uhppote-core messages/events.go @589dad3.
 * Kept as plain numbers on the wire objects: controllers may send codes not in this table (the source lists several
 * as "reserved"), and those must pass through unchanged. Refusals a rule causes: 6 no privilege (no card, door
 * value 0, outside the card's dates), 7 wrong PIN, 8 anti-passback, 9 more cards, 10 first card, 11 door normally
 * closed, 12 interlock, 13 limited times, 15 invalid time zone (the card's time profile does not cover now).
 */
export const Reason = {
  Swipe: 1,
  DeniedPcControl: 5,
  DeniedNoPrivilege: 6,
  DeniedWrongPassword: 7,
  DeniedAntiPassback: 8,
  DeniedMoreCards: 9,
  DeniedFirstCardOpen: 10,
  DeniedDoorNormallyClosed: 11,
  DeniedInterlock: 12,
  DeniedLimitedTimes: 13,
  DeniedInvalidTimezone: 15,
  Denied: 18,
  PushButton: 20,
  DoorOpened: 23,
  DoorClosed: 24,
  SuperPasswordOpen: 25,
  PowerOn: 28,
  Reset: 29,
  /** listed as "(Reserved | Pushbutton disabled by task)": a button pressed while a task disabled it */
  PushButtonDisabledByTask: 30,
  ButtonInvalidForcedLock: 31,
  ButtonInvalidNotOnline: 32,
  ButtonInvalidInterlock: 33,
  Threat: 34,
  OpenTooLong: 37,
  ForcedOpen: 38,
  Fire: 39,
  ForcedClose: 40,
  GuardAgainstTheft: 41,
  Zone24x7: 42,
  EmergencyCall: 43,
  RemoteOpen: 44,
  RemoteOpenUsbReader: 45,
} as const;

export type ReasonName = keyof typeof Reason;

const reasonNames = new Map<number, ReasonName>(
  (Object.entries(Reason) as [ReasonName, number][]).map(([name, code]) => [code, name]),
);

/** Name of a known reason code, or undefined for a code the sources do not define. */
export function reasonName(code: number): ReasonName | undefined {
  return reasonNames.get(code);
}
