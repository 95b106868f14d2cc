// Controller-side view of the UHPPOTE UT0311-L0x datagrams, written from uhppoted/uhppote-core
// `messages/*.go` independently of Gatehouse's codec, so the two implementations check each other in tests.
//
// A datagram: 64 bytes; [0] 0x17; [1] function; [4..7] serial (uint32 LE); [8..39] data; [40..43] sequence;
// integers little-endian, dates BCD.

export const LENGTH = 64;
export const START = 0x17;
export const MAGIC = 0x55aaaa55;

export const F = {
  STATUS: 0x20,
  SET_TIME: 0x30,
  GET_TIME: 0x32,
  OPEN_DOOR: 0x40,
  PUT_CARD: 0x50,
  DELETE_CARD: 0x52,
  DELETE_ALL: 0x54,
  CARD_COUNT: 0x58,
  GET_CARD: 0x5a,
  CARD_AT: 0x5c,
  SET_DOOR: 0x80,
  GET_DOOR: 0x82,
  SPECIAL_EVENTS: 0x8e,
  SET_LISTENER: 0x90,
  GET_LISTENER: 0x92,
  SEARCH: 0x94,
  GET_EVENT: 0xb0,
  SET_EVENT_INDEX: 0xb2,
  GET_EVENT_INDEX: 0xb4,
  // access rules
  SET_ANTIPASSBACK: 0x84,
  GET_ANTIPASSBACK: 0x86,
  SET_TIME_PROFILE: 0x88,
  CLEAR_TIME_PROFILES: 0x8a,
  SET_PASSCODES: 0x8c,
  GET_TIME_PROFILE: 0x98,
  SET_INTERLOCK: 0xa2,
  ACTIVATE_KEYPADS: 0xa4,
  CLEAR_TASKS: 0xa6,
  ADD_TASK: 0xa8,
  SET_FIRST_CARD: 0xaa,
  REFRESH_TASKS: 0xac,
  RESTORE_DEFAULTS: 0xc8,
} as const;

export interface SimDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type SimDate = Pick<SimDateTime, 'year' | 'month' | 'day'>;

/** A wall-clock minute (BCD `HHmm` on the wire): 00:00..23:59, or 24:00 for the end of a day. */
export interface SimHHmm {
  hour: number;
  minute: number;
}

export interface Incoming {
  fn: number;
  serial: number;
  seq: number;
  data: DataView;
  bytes: Uint8Array;
}

/** Null when the datagram is not a request this controller could read (length, start byte). */
export function parse(bytes: Uint8Array): Incoming | null {
  if (bytes.length !== LENGTH || bytes[0] !== START) return null;
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { fn: bytes[1]!, serial: data.getUint32(4, true), seq: data.getUint32(40, true), data, bytes };
}

export class Out {
  readonly bytes = new Uint8Array(LENGTH);
  readonly view = new DataView(this.bytes.buffer);
  constructor(fn: number, serial: number, seq = 0) {
    this.bytes[0] = START;
    this.bytes[1] = fn;
    this.view.setUint32(4, serial, true);
    this.view.setUint32(40, seq, true);
  }
  u8(at: number, v: number): this {
    this.bytes[at] = v & 0xff;
    return this;
  }
  u16(at: number, v: number): this {
    this.view.setUint16(at, v, true);
    return this;
  }
  u32(at: number, v: number): this {
    this.view.setUint32(at, v >>> 0, true);
    return this;
  }
  bcd(at: number, digits: string): this {
    for (let i = 0; i < digits.length / 2; i++)
      this.bytes[at + i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
    return this;
  }
  date(at: number, d: SimDate | null): this {
    return d ? this.bcd(at, pad(d.year, 4) + pad(d.month) + pad(d.day)) : this;
  }
  dateTime(at: number, t: SimDateTime | null): this {
    return t ? this.date(at, t).bcd(at + 4, pad(t.hour) + pad(t.minute) + pad(t.second)) : this;
  }
  hhmm(at: number, t: SimHHmm): this {
    return this.bcd(at, pad(t.hour) + pad(t.minute));
  }
  /** 7 flags from `at`, Monday first (0x98 reply offsets 17..23). */
  flags(at: number, list: readonly boolean[]): this {
    list.forEach((v, i) => (this.bytes[at + i] = v ? 1 : 0));
    return this;
  }
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** Decimal value of BCD bytes, or NaN when a nibble is not a digit. */
function bcdValue(bytes: Uint8Array, at: number, n: number): number {
  let s = '';
  for (let i = 0; i < n; i++) s += bytes[at + i]!.toString(16).padStart(2, '0');
  return /^\d+$/.test(s) ? Number(s) : NaN;
}

function valid(d: SimDate): boolean {
  if (!(d.year >= 1 && d.month >= 1 && d.month <= 12 && d.day >= 1)) return false;
  return d.day <= new Date(Date.UTC(d.year, d.month, 0)).getUTCDate();
}

/** BCD YYYYMMDD at `at`: null when all zero, undefined when impossible. */
export function readDate(bytes: Uint8Array, at: number): SimDate | null | undefined {
  if (bytes.subarray(at, at + 4).every((b) => b === 0)) return null;
  const d = {
    year: bcdValue(bytes, at, 2),
    month: bcdValue(bytes, at + 2, 1),
    day: bcdValue(bytes, at + 3, 1),
  };
  return valid(d) ? d : undefined;
}

/** BCD YYYYMMDDhhmmss at `at`: undefined when impossible or absent. */
export function readDateTime(bytes: Uint8Array, at: number): SimDateTime | undefined {
  const d = readDate(bytes, at);
  if (!d) return undefined;
  const t = {
    hour: bcdValue(bytes, at + 4, 1),
    minute: bcdValue(bytes, at + 5, 1),
    second: bcdValue(bytes, at + 6, 1),
  };
  if (!(t.hour <= 23 && t.minute <= 59 && t.second <= 59)) return undefined;
  return { ...d, ...t };
}

export function ipv4(bytes: Uint8Array, at: number): string {
  return Array.from(bytes.subarray(at, at + 4)).join('.');
}

export function putIpv4(out: Out, at: number, address: string): void {
  address.split('.').forEach((p, i) => out.u8(at + i, Number(p)));
}

/** BCD HHmm at `at`: undefined when it is not a time of day (00:00..23:59, or 24:00). */
export function readHHmm(bytes: Uint8Array, at: number): SimHHmm | undefined {
  const t = { hour: bcdValue(bytes, at, 1), minute: bcdValue(bytes, at + 1, 1) };
  return (t.hour <= 23 && t.minute <= 59) || (t.hour === 24 && t.minute === 0) ? t : undefined;
}

/** `n` flags from `at` (any non-zero byte is set). */
export function readFlags(bytes: Uint8Array, at: number, n: number): boolean[] {
  return Array.from(bytes.subarray(at, at + n), (b) => b !== 0);
}
