// Protocol constants of the WG / UHPPOTE UT0311-L0x access controllers.
// Source for every value here: uhppoted/uhppote-core messages/get_status.go, messages/events.go and
// messages/get_event.go (the "Type", "Direction" and "Reason" comment tables), read through `search`.

/** Start-of-message byte of every request and reply (byte 0). */
export const SOM = 0x17;
/** Start-of-message byte of events pushed by firmware v6.62 (messages/events.go, EventV6_62). */
export const SOM_V6_62 = 0x19;
/** Every datagram is exactly this long, both ways. */
export const PACKET_SIZE = 64;
/** Guard word for destructive requests: delete all cards 0x54 (offset 8), set read index 0xB2 (offset 12). */
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
 * Known reason codes (offset 27 of a record). Kept as plain numbers on the wire objects: controllers may send
 * codes not in this table (the source lists several as "reserved"), and those must pass through unchanged.
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
