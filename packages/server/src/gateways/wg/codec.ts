// Codec for the WG / UHPPOTE UT0311-L0x UDP protocol: one 64-byte datagram each way.
//
// Every offset below comes from uhppoted/uhppote-core `messages/*.go` (struct tags `uhppote:"offset:N"`) and is
// checked against the byte fixtures in `messages/*_test.go` (see test/wg-codec.test.ts). The layout table
// `MESSAGES` is the single description of the wire format: encoders, decoders, the TypeScript types and the
// protocol table in docs/devices.md all follow it.
//
// Rules the decoders keep (the caller counts the rejections, nothing is ever thrown out of a decoder):
//   - a datagram is exactly 64 bytes, byte 0 is 0x17 (0x19 only for pushed events), byte 1 a known function;
//   - BCD dates and times must be real dates and times; all-zero means "no date" and decodes to null.
// Dates are controller wall-clock values with no zone: they decode to plain `LocalDateTime` objects and the
// caller converts them with the area's zone (see time.ts).

import { CARD_DELETED, CARD_NONE, MAGIC_WORD, PACKET_SIZE, RecordType, SOM, SOM_V6_62 } from './constants.ts';

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface LocalTime {
  hour: number;
  minute: number;
  second: number;
}

export interface LocalDateTime extends LocalDate, LocalTime {}

/**
 * A card number as the controller means it: 0 is "no card" (not found / end of the list), 0xFFFFFFFF is a
 * deleted slot of the card list. Anything else is a card (including 0xFFFFFF, a legal 24-bit reader value).
 */
export type CardRef = { kind: 'card'; number: number } | { kind: 'none' } | { kind: 'deleted' };

/** One record of the controller's event ring, as carried by 0xB0, 0x20 and pushed events. */
export interface WgRecord {
  /** Ring index (1-based, increasing); 0 when the controller has no record. */
  index: number;
  /** RecordType: 0 none, 1 swipe, 2 door/button/remote/power-on, 3 alarm, 0xFF overwritten. */
  type: number;
  granted: boolean;
  door: number;
  /** Direction: 1 in, 2 out. */
  direction: number;
  card: CardRef;
  time: LocalDateTime | null;
  /** Reason code (see `Reason`); unknown codes pass through. */
  reason: number;
}

export type Doors4<T> = [T, T, T, T];

/** Why a datagram was rejected. */
export type DropReason = 'length' | 'type' | 'function' | 'bcd';

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: DropReason; detail: string };

// ---------------------------------------------------------------------------------------------------------------
// Field kinds and the message table

interface KindValue {
  u8: number;
  u16: number;
  u32: number;
  bool: boolean;
  /** a card number written by the host (must be 1..0xFFFFFFFE) */
  cardno: number;
  /** a card number read from the controller, with its special values */
  card: CardRef;
  /** 4-byte BCD YYYYMMDD */
  date: LocalDate | null;
  /** 7-byte BCD YYYYMMDDhhmmss */
  datetime: LocalDateTime | null;
  /** 3-byte BCD YYMMDD at `at` and 3-byte BCD hhmmss at `at2` (the status reply's system clock) */
  sysdatetime: LocalDateTime | null;
  ipv4: string;
  mac: string;
  /** 2 bytes, shown as the vendor does: 0x08 0x92 is "8.92" */
  version: string;
  /** 24-bit little-endian keypad PIN */
  pin: number;
  u8x4: Doors4<number>;
  bool4: Doors4<boolean>;
  /** 20-byte record at 8..27 */
  record: WgRecord;
  /** the guard word 0x55AAAA55: true when present */
  magic: boolean;
}

type Kind = keyof KindValue;

interface FieldSpec<K extends Kind = Kind> {
  at: number;
  kind: K;
  at2?: number;
}

function f<K extends Kind>(at: number, kind: K, at2?: number): FieldSpec<K> {
  return at2 === undefined ? { at, kind } : { at, kind, at2 };
}

interface MessageSpec {
  fn: number;
  /** uhppote-core file the layout was taken from */
  source: string;
  request: Record<string, FieldSpec>;
  response: Record<string, FieldSpec>;
}

const cardFields = {
  card: f(8, 'card'),
  from: f(12, 'date'),
  to: f(16, 'date'),
  doors: f(20, 'u8x4'),
  pin: f(24, 'pin'),
};

const statusFields = {
  event: f(8, 'record'),
  doors: f(28, 'bool4'),
  buttons: f(32, 'bool4'),
  systemError: f(36, 'u8'),
  systemTime: f(51, 'sysdatetime', 37),
  specialInfo: f(48, 'u8'),
  /** bitmap, bit n = relay of door n+1 energised (unlocked) */
  relays: f(49, 'u8'),
  /** bitmap, bit 0 force locked, bit 1 fire alarm */
  inputs: f(50, 'u8'),
};

const okField = { ok: f(8, 'bool') };

/** The protocol subset, by function. */
export const MESSAGES = {
  getDevice: {
    fn: 0x94,
    source: 'messages/get_device.go',
    request: {},
    response: {
      address: f(8, 'ipv4'),
      netmask: f(12, 'ipv4'),
      gateway: f(16, 'ipv4'),
      mac: f(20, 'mac'),
      version: f(26, 'version'),
      releaseDate: f(28, 'date'),
    },
  },
  getStatus: { fn: 0x20, source: 'messages/get_status.go', request: {}, response: statusFields },
  setTime: {
    fn: 0x30,
    source: 'messages/set_time.go',
    request: { time: f(8, 'datetime') },
    response: { time: f(8, 'datetime') },
  },
  getTime: { fn: 0x32, source: 'messages/get_time.go', request: {}, response: { time: f(8, 'datetime') } },
  openDoor: { fn: 0x40, source: 'messages/open.go', request: { door: f(8, 'u8') }, response: okField },
  putCard: {
    fn: 0x50,
    source: 'messages/put_card.go',
    request: { ...cardFields, card: f(8, 'cardno') },
    response: okField,
  },
  deleteCard: {
    fn: 0x52,
    source: 'messages/delete_card.go',
    request: { card: f(8, 'cardno') },
    response: okField,
  },
  deleteAllCards: {
    fn: 0x54,
    source: 'messages/delete_cards.go',
    request: { magic: f(8, 'magic') },
    response: okField,
  },
  getCardCount: { fn: 0x58, source: 'messages/get_cards.go', request: {}, response: { count: f(8, 'u32') } },
  getCard: {
    fn: 0x5a,
    source: 'messages/get_card.go',
    request: { card: f(8, 'cardno') },
    response: cardFields,
  },
  getCardByIndex: {
    fn: 0x5c,
    source: 'messages/get_card.go',
    request: { index: f(8, 'u32') },
    response: cardFields,
  },
  setDoorControl: {
    fn: 0x80,
    source: 'messages/set_door_control_state.go',
    request: { door: f(8, 'u8'), mode: f(9, 'u8'), delay: f(10, 'u8') },
    response: { door: f(8, 'u8'), mode: f(9, 'u8'), delay: f(10, 'u8') },
  },
  getDoorControl: {
    fn: 0x82,
    source: 'messages/get_door_control_state.go',
    request: { door: f(8, 'u8') },
    response: { door: f(8, 'u8'), mode: f(9, 'u8'), delay: f(10, 'u8') },
  },
  recordSpecialEvents: {
    fn: 0x8e,
    source: 'messages/record_special_events.go',
    request: { enable: f(8, 'bool') },
    response: okField,
  },
  setListener: {
    fn: 0x90,
    source: 'messages/set_listener.go',
    request: { address: f(8, 'ipv4'), port: f(12, 'u16'), interval: f(14, 'u8') },
    response: okField,
  },
  getListener: {
    fn: 0x92,
    source: 'messages/get_listener.go',
    request: {},
    response: { address: f(8, 'ipv4'), port: f(12, 'u16'), interval: f(14, 'u8') },
  },
  getRecord: {
    fn: 0xb0,
    source: 'messages/get_event.go',
    request: { index: f(8, 'u32') },
    response: { record: f(8, 'record') },
  },
  setReadIndex: {
    fn: 0xb2,
    source: 'messages/set_event_index.go',
    request: { index: f(8, 'u32'), magic: f(12, 'magic') },
    response: okField,
  },
  getReadIndex: {
    fn: 0xb4,
    source: 'messages/get_event_index.go',
    request: {},
    response: { index: f(8, 'u32') },
  },
} as const satisfies Record<string, MessageSpec>;

type Spec = typeof MESSAGES;
export type MessageName = keyof Spec;

type ValueOf<F> = F extends FieldSpec<infer K> ? KindValue[K] : never;
type MagicKeys<L> = { [P in keyof L]: L[P] extends FieldSpec<'magic'> ? P : never }[keyof L];
type Writable<T> = { -readonly [P in keyof T]: T[P] };
/** Fields a caller passes to encode: the guard word is written for them (pass `magic: false` to omit it). */
type InputFields<L> = Writable<{ [P in Exclude<keyof L, MagicKeys<L>>]: ValueOf<L[P]> }> & {
  [P in MagicKeys<L>]?: boolean;
};
type OutputFields<L> = Writable<{ [P in keyof L]: ValueOf<L[P]> }>;

/** What a host sends: `{ kind: 'putCard', serial, card, from, to, doors, pin }`. Serial 0 addresses every controller (search). */
export type RequestOf<N extends MessageName> = { kind: N; serial: number } & InputFields<Spec[N]['request']>;
/** A request as a controller reads it. */
export type DecodedRequestOf<N extends MessageName> = {
  kind: N;
  serial: number;
  sequence: number;
} & OutputFields<Spec[N]['request']>;
/** A controller's reply. `sequence` is bytes 40..43 (see docs/devices.md on matching). */
export type ResponseOf<N extends MessageName> = { kind: N; serial: number; sequence: number } & OutputFields<
  Spec[N]['response']
>;

export type WgRequest = { [N in MessageName]: RequestOf<N> }[MessageName];
export type WgDecodedRequest = { [N in MessageName]: DecodedRequestOf<N> }[MessageName];
export type WgResponse = { [N in MessageName]: ResponseOf<N> }[MessageName];

/** A status/event datagram a controller pushes to its listener (same layout as the 0x20 reply). */
export type WgPushedEvent = { kind: 'event'; serial: number; sequence: number; som: number } & OutputFields<
  typeof statusFields
>;

export type StatusResponse = ResponseOf<'getStatus'>;
export type DeviceResponse = ResponseOf<'getDevice'>;
export type CardResponse = ResponseOf<'getCard'>;

const byFunction = new Map<number, MessageName>(
  (Object.entries(MESSAGES) as [MessageName, MessageSpec][]).map(([name, spec]) => [spec.fn, name]),
);

/** The message name of a function code, if it is in the supported subset. */
export function messageName(fn: number): MessageName | undefined {
  return byFunction.get(fn);
}

// ---------------------------------------------------------------------------------------------------------------
// Cards

/** Reads a raw 32-bit card value the way the controllers mean it. */
export function cardRef(raw: number): CardRef {
  if (raw === CARD_NONE) return { kind: 'none' };
  if (raw === CARD_DELETED) return { kind: 'deleted' };
  return { kind: 'card', number: raw };
}

export function cardRaw(ref: CardRef): number {
  return ref.kind === 'card' ? ref.number : ref.kind === 'deleted' ? CARD_DELETED : CARD_NONE;
}

// ---------------------------------------------------------------------------------------------------------------
// BCD

class BcdError extends Error {}

function bcdByte(b: number): number {
  const hi = b >> 4;
  const lo = b & 0x0f;
  if (hi > 9 || lo > 9) throw new BcdError(`0x${b.toString(16).padStart(2, '0')} is not BCD`);
  return hi * 10 + lo;
}

function toBcd(n: number): number {
  return ((Math.floor(n / 10) % 10) << 4) | (n % 10);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isZero(buf: Buffer, at: number, length: number): boolean {
  for (let i = at; i < at + length; i++) if (buf[i] !== 0) return false;
  return true;
}

function checkDate(d: LocalDate): void {
  if (d.year < 1 || d.month < 1 || d.month > 12 || d.day < 1 || d.day > daysInMonth(d.year, d.month))
    throw new BcdError(`impossible date ${d.year}-${d.month}-${d.day}`);
}

function checkTime(t: LocalTime): void {
  if (t.hour > 23 || t.minute > 59 || t.second > 59)
    throw new BcdError(`impossible time ${t.hour}:${t.minute}:${t.second}`);
}

function readDate(buf: Buffer, at: number): LocalDate | null {
  if (isZero(buf, at, 4)) return null;
  const d = {
    year: bcdByte(buf[at]!) * 100 + bcdByte(buf[at + 1]!),
    month: bcdByte(buf[at + 2]!),
    day: bcdByte(buf[at + 3]!),
  };
  checkDate(d);
  return d;
}

function readTime(buf: Buffer, at: number): LocalTime {
  const t = { hour: bcdByte(buf[at]!), minute: bcdByte(buf[at + 1]!), second: bcdByte(buf[at + 2]!) };
  checkTime(t);
  return t;
}

function readDateTime(buf: Buffer, at: number): LocalDateTime | null {
  if (isZero(buf, at, 7)) return null;
  const date = { year: bcdByte(buf[at]!) * 100 + bcdByte(buf[at + 1]!), month: 0, day: 0 };
  date.month = bcdByte(buf[at + 2]!);
  date.day = bcdByte(buf[at + 3]!);
  checkDate(date);
  return { ...date, ...readTime(buf, at + 4) };
}

function readSysDateTime(buf: Buffer, dateAt: number, timeAt: number): LocalDateTime | null {
  if (isZero(buf, dateAt, 3) && isZero(buf, timeAt, 3)) return null;
  // The status reply carries a two-digit year (YYMMDD); the controllers only exist in this century.
  const date = {
    year: 2000 + bcdByte(buf[dateAt]!),
    month: bcdByte(buf[dateAt + 1]!),
    day: bcdByte(buf[dateAt + 2]!),
  };
  checkDate(date);
  return { ...date, ...readTime(buf, timeAt) };
}

function assertDate(d: LocalDate, yearMin = 1, yearMax = 9999): void {
  if (!Number.isInteger(d.year) || d.year < yearMin || d.year > yearMax)
    throw new RangeError(`year ${d.year}`);
  try {
    checkDate(d);
  } catch (e) {
    throw new RangeError((e as Error).message, { cause: e });
  }
}

function assertTime(t: LocalTime): void {
  if (![t.hour, t.minute, t.second].every((n) => Number.isInteger(n) && n >= 0)) throw new RangeError('time');
  try {
    checkTime(t);
  } catch (e) {
    throw new RangeError((e as Error).message, { cause: e });
  }
}

function writeDate(buf: Buffer, at: number, d: LocalDate | null): void {
  if (d === null) return;
  assertDate(d);
  buf[at] = toBcd(Math.floor(d.year / 100));
  buf[at + 1] = toBcd(d.year % 100);
  buf[at + 2] = toBcd(d.month);
  buf[at + 3] = toBcd(d.day);
}

function writeTime(buf: Buffer, at: number, t: LocalTime): void {
  assertTime(t);
  buf[at] = toBcd(t.hour);
  buf[at + 1] = toBcd(t.minute);
  buf[at + 2] = toBcd(t.second);
}

function writeDateTime(buf: Buffer, at: number, dt: LocalDateTime | null): void {
  if (dt === null) return;
  writeDate(buf, at, dt);
  writeTime(buf, at + 4, dt);
}

function writeSysDateTime(buf: Buffer, dateAt: number, timeAt: number, dt: LocalDateTime | null): void {
  if (dt === null) return;
  assertDate(dt, 2000, 2099);
  buf[dateAt] = toBcd(dt.year % 100);
  buf[dateAt + 1] = toBcd(dt.month);
  buf[dateAt + 2] = toBcd(dt.day);
  writeTime(buf, timeAt, dt);
}

// ---------------------------------------------------------------------------------------------------------------
// Fields

function readRecord(buf: Buffer, at: number): WgRecord {
  const type = buf[at + 4]!;
  let time: LocalDateTime | null;
  try {
    time = readDateTime(buf, at + 12);
  } catch (e) {
    // "No record" and "overwritten" slots carry no meaningful timestamp; do not drop the marker for it.
    if (type === RecordType.None || type === RecordType.Overwritten) time = null;
    else throw e;
  }
  return {
    index: buf.readUInt32LE(at),
    type,
    granted: buf[at + 5] !== 0,
    door: buf[at + 6]!,
    direction: buf[at + 7]!,
    card: cardRef(buf.readUInt32LE(at + 8)),
    time,
    reason: buf[at + 19]!,
  };
}

function writeRecord(buf: Buffer, at: number, r: WgRecord): void {
  buf.writeUInt32LE(r.index, at);
  buf[at + 4] = r.type;
  buf[at + 5] = r.granted ? 1 : 0;
  buf[at + 6] = r.door;
  buf[at + 7] = r.direction;
  buf.writeUInt32LE(cardRaw(r.card), at + 8);
  writeDateTime(buf, at + 12, r.time);
  buf[at + 19] = r.reason;
}

function readField(buf: Buffer, spec: FieldSpec): unknown {
  const at = spec.at;
  switch (spec.kind) {
    case 'u8':
      return buf[at]!;
    case 'u16':
      return buf.readUInt16LE(at);
    case 'u32':
    case 'cardno':
      return buf.readUInt32LE(at);
    case 'bool':
      return buf[at] !== 0;
    case 'magic':
      return buf.readUInt32LE(at) === MAGIC_WORD;
    case 'card':
      return cardRef(buf.readUInt32LE(at));
    case 'date':
      return readDate(buf, at);
    case 'datetime':
      return readDateTime(buf, at);
    case 'sysdatetime':
      return readSysDateTime(buf, at, spec.at2!);
    case 'ipv4':
      return `${buf[at]}.${buf[at + 1]}.${buf[at + 2]}.${buf[at + 3]}`;
    case 'mac':
      return [...buf.subarray(at, at + 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
    case 'version':
      return `${buf[at]!.toString(16)}.${buf[at + 1]!.toString(16).padStart(2, '0')}`;
    case 'pin':
      return buf.readUIntLE(at, 3);
    case 'u8x4':
      return [buf[at]!, buf[at + 1]!, buf[at + 2]!, buf[at + 3]!];
    case 'bool4':
      return [buf[at] !== 0, buf[at + 1] !== 0, buf[at + 2] !== 0, buf[at + 3] !== 0];
    case 'record':
      return readRecord(buf, at);
  }
}

function uint(value: unknown, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new RangeError(`${what}: ${String(value)} is not an integer in 0..${max}`);
  return value;
}

function writeField(buf: Buffer, spec: FieldSpec, value: unknown, name: string): void {
  const at = spec.at;
  switch (spec.kind) {
    case 'u8':
      buf[at] = uint(value, 0xff, name);
      return;
    case 'u16':
      buf.writeUInt16LE(uint(value, 0xffff, name), at);
      return;
    case 'u32':
      buf.writeUInt32LE(uint(value, 0xffffffff, name), at);
      return;
    case 'cardno': {
      const card = uint(value, 0xffffffff, name);
      if (card === CARD_NONE || card === CARD_DELETED)
        throw new RangeError(`${name}: ${card} is a reserved card value`);
      buf.writeUInt32LE(card, at);
      return;
    }
    case 'bool':
      buf[at] = value ? 1 : 0;
      return;
    case 'magic':
      if (value !== false) buf.writeUInt32LE(MAGIC_WORD, at);
      return;
    case 'card':
      buf.writeUInt32LE(cardRaw(value as CardRef), at);
      return;
    case 'date':
      writeDate(buf, at, value as LocalDate | null);
      return;
    case 'datetime':
      writeDateTime(buf, at, value as LocalDateTime | null);
      return;
    case 'sysdatetime':
      writeSysDateTime(buf, at, spec.at2!, value as LocalDateTime | null);
      return;
    case 'ipv4': {
      const parts = String(value).split('.');
      if (parts.length !== 4) throw new RangeError(`${name}: ${String(value)} is not an IPv4 address`);
      parts.forEach((p, i) => (buf[at + i] = uint(/^\d{1,3}$/.test(p) ? Number(p) : NaN, 255, name)));
      return;
    }
    case 'mac': {
      const parts = String(value).split(':');
      if (parts.length !== 6 || !parts.every((p) => /^[0-9a-f]{2}$/i.test(p)))
        throw new RangeError(`${name}: ${String(value)} is not a MAC address`);
      parts.forEach((p, i) => (buf[at + i] = parseInt(p, 16)));
      return;
    }
    case 'version': {
      const m = /^([0-9a-f]{1,2})\.([0-9a-f]{2})$/i.exec(String(value));
      if (!m) throw new RangeError(`${name}: ${String(value)} is not a version like 8.92`);
      buf[at] = parseInt(m[1]!, 16);
      buf[at + 1] = parseInt(m[2]!, 16);
      return;
    }
    case 'pin':
      buf.writeUIntLE(uint(value, 0xffffff, name), at, 3);
      return;
    case 'u8x4':
    case 'bool4': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length !== 4) throw new RangeError(`${name}: expected 4 values`);
      list.forEach((v, i) => (buf[at + i] = spec.kind === 'bool4' ? (v ? 1 : 0) : uint(v, 0xff, name)));
      return;
    }
    case 'record':
      writeRecord(buf, at, value as WgRecord);
      return;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Envelope

function envelope(fn: number, serial: number, sequence: number, som = SOM): Buffer {
  const buf = Buffer.alloc(PACKET_SIZE);
  buf[0] = som;
  buf[1] = fn;
  buf.writeUInt32LE(uint(serial, 0xffffffff, 'serial'), 4);
  buf.writeUInt32LE(uint(sequence, 0xffffffff, 'sequence'), 40);
  return buf;
}

function writeFields(
  buf: Buffer,
  layout: Record<string, FieldSpec>,
  values: Record<string, unknown>,
): Buffer {
  for (const [name, spec] of Object.entries(layout)) writeField(buf, spec, values[name], name);
  return buf;
}

function readFields(buf: Buffer, layout: Record<string, FieldSpec>, into: Record<string, unknown>): void {
  for (const [name, spec] of Object.entries(layout)) {
    try {
      into[name] = readField(buf, spec);
    } catch (e) {
      if (e instanceof BcdError) throw new BcdError(`${name}: ${e.message}`);
      throw e;
    }
  }
}

/** Header of any 64-byte datagram, without judging the rest. Null when the length is wrong. */
export interface WgHeader {
  som: number;
  fn: number;
  serial: number;
  sequence: number;
}

export function peekHeader(buf: Uint8Array): WgHeader | null {
  if (buf.length !== PACKET_SIZE) return null;
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return { som: b[0]!, fn: b[1]!, serial: b.readUInt32LE(4), sequence: b.readUInt32LE(40) };
}

function decodeWith<T>(
  raw: Uint8Array,
  soms: readonly number[],
  pick: (fn: number) => { name: string; layout: Record<string, FieldSpec> } | undefined,
): Decoded<T> {
  try {
    if (raw.length !== PACKET_SIZE)
      return { ok: false, reason: 'length', detail: `${raw.length} bytes, expected ${PACKET_SIZE}` };
    const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (!soms.includes(buf[0]!))
      return { ok: false, reason: 'type', detail: `type byte 0x${buf[0]!.toString(16).padStart(2, '0')}` };
    const picked = pick(buf[1]!);
    if (!picked)
      return { ok: false, reason: 'function', detail: `function 0x${buf[1]!.toString(16).padStart(2, '0')}` };
    const value: Record<string, unknown> = {
      kind: picked.name,
      serial: buf.readUInt32LE(4),
      sequence: buf.readUInt32LE(40),
    };
    readFields(buf, picked.layout, value);
    return { ok: true, value: value as T };
  } catch (e) {
    // BcdError is the only expected failure; anything else is a codec bug, still reported, never thrown.
    return { ok: false, reason: 'bcd', detail: e instanceof Error ? e.message : String(e) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Public encoders and decoders

/**
 * Encodes a host request. `sequence` goes to bytes 40..43 (0 reproduces the uhppote-core fixtures byte for byte).
 * Throws RangeError for values the protocol cannot carry (a programming error, not a wire condition).
 */
export function encodeRequest(req: WgRequest, sequence = 0): Buffer {
  const spec: MessageSpec = MESSAGES[req.kind];
  return writeFields(envelope(spec.fn, req.serial, sequence), spec.request, req as Record<string, unknown>);
}

/** Encodes a controller reply (used by tests and tools; the simulator has its own, independent codec). */
export function encodeResponse(res: WgResponse): Buffer {
  const spec: MessageSpec = MESSAGES[res.kind];
  return writeFields(
    envelope(spec.fn, res.serial, res.sequence),
    spec.response,
    res as Record<string, unknown>,
  );
}

/** Encodes a pushed status/event datagram (0x17, or 0x19 as firmware v6.62 sends it). */
export function encodeEvent(ev: WgPushedEvent): Buffer {
  return writeFields(envelope(MESSAGES.getStatus.fn, ev.serial, ev.sequence, ev.som), statusFields, ev);
}

/** Decodes a controller reply. Never throws. */
export function decodeResponse(raw: Uint8Array): Decoded<WgResponse> {
  return decodeWith<WgResponse>(raw, [SOM], (fn) => {
    const name = byFunction.get(fn);
    return name && { name, layout: (MESSAGES[name] as MessageSpec).response };
  });
}

/** Decodes a host request (as a controller would). Never throws. */
export function decodeRequest(raw: Uint8Array): Decoded<WgDecodedRequest> {
  return decodeWith<WgDecodedRequest>(raw, [SOM], (fn) => {
    const name = byFunction.get(fn);
    return name && { name, layout: (MESSAGES[name] as MessageSpec).request };
  });
}

/** Decodes a datagram pushed to the listener: type 0x17 or 0x19, function 0x20. Never throws. */
export function decodeEvent(raw: Uint8Array): Decoded<WgPushedEvent> {
  const decoded = decodeWith<WgPushedEvent>(raw, [SOM, SOM_V6_62], (fn) =>
    fn === MESSAGES.getStatus.fn ? { name: 'event', layout: statusFields } : undefined,
  );
  if (decoded.ok) decoded.value.som = raw[0]!;
  return decoded;
}

/** `2024-03-01T08:05:09`, the ISO local date-time form (no zone). */
export function formatLocalDateTime(t: LocalDateTime): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(t.year, 4)}-${p(t.month)}-${p(t.day)}T${p(t.hour)}:${p(t.minute)}:${p(t.second)}`;
}

/** `2024-03-01` */
export function formatLocalDate(d: LocalDate): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}
