// Field kinds of the WG datagrams: how each kind of value sits in the 64 bytes, read and written. The message
// table (`MESSAGES` in codec.ts, the rule messages in codec-rules.ts) names a kind and an offset per field; this
// file is the only place that turns bytes into values and back.
//
// Readers throw `WgDecodeError` and nothing else on bad wire data (a date or time that does not exist, a nibble
// that is not a decimal digit). The decoders in codec.ts catch exactly that class and report it as a rejection;
// any other exception out of a reader is a bug in this code and must surface (the fuzz tests rely on it).

import { CARD_DELETED, CARD_NONE, MAGIC_WORD, RecordType } from './constants.ts';

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

/** A wall-clock minute, as time profiles, tasks and first-card windows carry it (BCD `HHmm`; 24:00 allowed). */
export interface LocalHHmm {
  hour: number;
  minute: number;
}

/** One flag per weekday, Monday first on the wire (set time profile 0x88 offsets 17..23, add task 0xA8 16..22). */
export interface Weekdays {
  monday: boolean;
  tuesday: boolean;
  wednesday: boolean;
  thursday: boolean;
  friday: boolean;
  saturday: boolean;
  sunday: boolean;
}

/** Wire order of the weekday flags. */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const satisfies readonly (keyof Weekdays)[];

/** One time-profile segment: access from `start` to `end`, both inclusive (minute resolution). */
export interface TimeSegment {
  start: LocalHHmm;
  end: LocalHHmm;
}

export type Segments3 = [TimeSegment, TimeSegment, TimeSegment];

/**
 * Thrown by the field readers, and only by them, for wire data that cannot be a value of its kind. The decoders
 * turn it into a `bcd` rejection; every other exception is a programming error and propagates.
 */
export class WgDecodeError extends Error {
  override readonly name = 'WgDecodeError';
}

// ---------------------------------------------------------------------------------------------------------------
// Field kinds

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
  /** 2-byte BCD HHmm */
  hhmm: LocalHHmm;
  /** 7 flags, Monday first */
  weekdays: Weekdays;
  /** 3 × (start HHmm, end HHmm): 12 bytes */
  segments: Segments3;
  /** 4 × uint32 little-endian (door passcodes) */
  u32x4: Doors4<number>;
}

export type Kind = keyof KindValue;
export type KindValueOf<K extends Kind> = KindValue[K];

export interface FieldSpec<K extends Kind = Kind> {
  at: number;
  kind: K;
  at2?: number;
}

export function f<K extends Kind>(at: number, kind: K, at2?: number): FieldSpec<K> {
  return at2 === undefined ? { at, kind } : { at, kind, at2 };
}

/** One function of the protocol: its code, where its layout was read, and the fields of each direction. */
export interface MessageSpec {
  fn: number;
  /** uhppote-core file the layout was taken from */
  source: string;
  request: Record<string, FieldSpec>;
  response: Record<string, FieldSpec>;
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

function bcdByte(b: number): number {
  const hi = b >> 4;
  const lo = b & 0x0f;
  if (hi > 9 || lo > 9) throw new WgDecodeError(`0x${b.toString(16).padStart(2, '0')} is not BCD`);
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
    throw new WgDecodeError(`impossible date ${d.year}-${d.month}-${d.day}`);
}

function checkTime(t: LocalTime): void {
  if (t.hour > 23 || t.minute > 59 || t.second > 59)
    throw new WgDecodeError(`impossible time ${t.hour}:${t.minute}:${t.second}`);
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

/** True for 00:00..23:59 and for 24:00, the end of a day (uhppote-core types/HHmm.go accepts 24:00 too). */
export function isHHmm(t: LocalHHmm): boolean {
  if (!Number.isInteger(t.hour) || !Number.isInteger(t.minute) || t.hour < 0 || t.minute < 0) return false;
  return (t.hour <= 23 && t.minute <= 59) || (t.hour === 24 && t.minute === 0);
}

function readHHmm(buf: Buffer, at: number): LocalHHmm {
  const t = { hour: bcdByte(buf[at]!), minute: bcdByte(buf[at + 1]!) };
  if (!isHHmm(t)) throw new WgDecodeError(`impossible time of day ${t.hour}:${t.minute}`);
  return t;
}

function writeHHmm(buf: Buffer, at: number, t: LocalHHmm, name: string): void {
  if (!t || !isHHmm(t))
    throw new RangeError(`${name}: ${JSON.stringify(t)} is not a time of day 00:00..24:00`);
  buf[at] = toBcd(t.hour);
  buf[at + 1] = toBcd(t.minute);
}

// ---------------------------------------------------------------------------------------------------------------
// Fields

function readRecord(buf: Buffer, at: number): WgRecord {
  const type = buf[at + 4]!;
  let time: LocalDateTime | null;
  try {
    time = readDateTime(buf, at + 12);
  } catch (e) {
    // "No record" and "overwritten" slots carry no meaningful timestamp; do not drop the marker for it. Only a
    // decode error is forgiven: anything else is a bug and must not be hidden behind a null time.
    if (e instanceof WgDecodeError && (type === RecordType.None || type === RecordType.Overwritten))
      time = null;
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

export function readField(buf: Buffer, spec: FieldSpec): unknown {
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
    case 'hhmm':
      return readHHmm(buf, at);
    case 'weekdays':
      return Object.fromEntries(WEEKDAYS.map((day, i) => [day, buf[at + i] !== 0]));
    case 'segments':
      return [0, 1, 2].map((i) => ({ start: readHHmm(buf, at + 4 * i), end: readHHmm(buf, at + 4 * i + 2) }));
    case 'u32x4':
      return [0, 1, 2, 3].map((i) => buf.readUInt32LE(at + 4 * i));
  }
}

export function uint(value: unknown, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new RangeError(`${what}: ${String(value)} is not an integer in 0..${max}`);
  return value;
}

function writeCardNo(buf: Buffer, at: number, value: unknown, name: string): void {
  const card = uint(value, 0xffffffff, name);
  if (card === CARD_NONE || card === CARD_DELETED)
    throw new RangeError(`${name}: ${card} is a reserved card value`);
  buf.writeUInt32LE(card, at);
}

function writeIpv4(buf: Buffer, at: number, value: unknown, name: string): void {
  const parts = String(value).split('.');
  if (parts.length !== 4) throw new RangeError(`${name}: ${String(value)} is not an IPv4 address`);
  parts.forEach((p, i) => (buf[at + i] = uint(/^\d{1,3}$/.test(p) ? Number(p) : NaN, 255, name)));
}

function writeMac(buf: Buffer, at: number, value: unknown, name: string): void {
  const parts = String(value).split(':');
  if (parts.length !== 6 || !parts.every((p) => /^[0-9a-f]{2}$/i.test(p)))
    throw new RangeError(`${name}: ${String(value)} is not a MAC address`);
  parts.forEach((p, i) => (buf[at + i] = parseInt(p, 16)));
}

function writeVersion(buf: Buffer, at: number, value: unknown, name: string): void {
  const m = /^([0-9a-f]{1,2})\.([0-9a-f]{2})$/i.exec(String(value));
  if (!m) throw new RangeError(`${name}: ${String(value)} is not a version like 8.92`);
  buf[at] = parseInt(m[1]!, 16);
  buf[at + 1] = parseInt(m[2]!, 16);
}

/** The four one-byte values of a `u8x4` or `bool4` field. */
function writeFourBytes(buf: Buffer, at: number, value: unknown, name: string, flags: boolean): void {
  const list = value as unknown[];
  if (!Array.isArray(list) || list.length !== 4) throw new RangeError(`${name}: expected 4 values`);
  list.forEach((v, i) => (buf[at + i] = flags ? (v ? 1 : 0) : uint(v, 0xff, name)));
}

function writeWeekdays(buf: Buffer, at: number, value: unknown, name: string): void {
  const days = value as Weekdays;
  if (!days || typeof days !== 'object') throw new RangeError(`${name}: expected weekday flags`);
  WEEKDAYS.forEach((day, i) => (buf[at + i] = days[day] ? 1 : 0));
}

function writeSegments(buf: Buffer, at: number, value: unknown, name: string): void {
  const list = value as TimeSegment[];
  if (!Array.isArray(list) || list.length !== 3) throw new RangeError(`${name}: expected 3 segments`);
  list.forEach((s, i) => {
    writeHHmm(buf, at + 4 * i, s.start, `${name}[${i}].start`);
    writeHHmm(buf, at + 4 * i + 2, s.end, `${name}[${i}].end`);
  });
}

function writeU32x4(buf: Buffer, at: number, value: unknown, name: string): void {
  const list = value as unknown[];
  if (!Array.isArray(list) || list.length !== 4) throw new RangeError(`${name}: expected 4 values`);
  list.forEach((v, i) => buf.writeUInt32LE(uint(v, 0xffffffff, name), at + 4 * i));
}

export function writeField(buf: Buffer, spec: FieldSpec, value: unknown, name: string): void {
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
    case 'cardno':
      return writeCardNo(buf, at, value, name);
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
      return writeDate(buf, at, value as LocalDate | null);
    case 'datetime':
      return writeDateTime(buf, at, value as LocalDateTime | null);
    case 'sysdatetime':
      return writeSysDateTime(buf, at, spec.at2!, value as LocalDateTime | null);
    case 'ipv4':
      return writeIpv4(buf, at, value, name);
    case 'mac':
      return writeMac(buf, at, value, name);
    case 'version':
      return writeVersion(buf, at, value, name);
    case 'pin':
      buf.writeUIntLE(uint(value, 0xffffff, name), at, 3);
      return;
    case 'u8x4':
    case 'bool4':
      return writeFourBytes(buf, at, value, name, spec.kind === 'bool4');
    case 'record':
      return writeRecord(buf, at, value as WgRecord);
    case 'hhmm':
      return writeHHmm(buf, at, value as LocalHHmm, name);
    case 'weekdays':
      return writeWeekdays(buf, at, value, name);
    case 'segments':
      return writeSegments(buf, at, value, name);
    case 'u32x4':
      return writeU32x4(buf, at, value, name);
  }
}
