// Codec for the WG / UHPPOTE UT0311-L0x UDP protocol: one 64-byte datagram each way.
//
// Every offset below comes from uhppoted/uhppote-core `messages/*.go` (struct tags `uhppote:"offset:N"`) and is
// checked against the byte fixtures in `messages/*_test.go` (see test/wg-codec.test.ts). The layout table
// `MESSAGES` is the single description of the wire format: encoders, decoders, the TypeScript types and the
// protocol table in docs/devices.md all follow it.
//
// Rules the decoders keep (the caller counts the rejections; a decoder only throws for a bug in this code):
//   - a datagram is exactly 64 bytes, byte 0 is 0x17 (0x19 only for pushed events), byte 1 a known function;
//   - BCD dates and times must be real dates and times; all-zero means "no date" and decodes to null.
// Dates are controller wall-clock values with no zone: they decode to plain `LocalDateTime` objects and the
// caller converts them with the area's zone (see time.ts). The field kinds live in codec-fields.ts, the
// access-rule messages (time profiles, tasks, interlock, anti-passback, keypads, passcodes…) in codec-rules.ts.

import { PACKET_SIZE, SOM, SOM_V6_62 } from './constants.ts';
import {
  WgDecodeError,
  f,
  readField,
  uint,
  writeField,
  type FieldSpec,
  type Kind,
  type KindValueOf,
  type LocalDate,
  type LocalDateTime,
  type MessageSpec,
} from './codec-fields.ts';
import { RULE_MESSAGES } from './codec-rules.ts';

export {
  WEEKDAYS,
  WgDecodeError,
  cardRaw,
  cardRef,
  isHHmm,
  type CardRef,
  type Doors4,
  type LocalDate,
  type LocalDateTime,
  type LocalHHmm,
  type LocalTime,
  type Segments3,
  type TimeSegment,
  type Weekdays,
  type WgRecord,
} from './codec-fields.ts';
export * from './codec-rules.ts';

/** Why a datagram was rejected. */
export type DropReason = 'length' | 'type' | 'function' | 'bcd';

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: DropReason; detail: string };

// ---------------------------------------------------------------------------------------------------------------
// The message table

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
  ...RULE_MESSAGES,
} as const satisfies Record<string, MessageSpec>;

type Spec = typeof MESSAGES;
export type MessageName = keyof Spec;

type ValueOf<F> = F extends FieldSpec<infer K extends Kind> ? KindValueOf<K> : never;
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
      if (e instanceof WgDecodeError) throw new WgDecodeError(`${name}: ${e.message}`, { cause: e });
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
  try {
    readFields(buf, picked.layout, value);
  } catch (e) {
    // Only the readers' own error is a wire condition (an impossible BCD date or time). Anything else is a bug in
    // the codec: it propagates, so tests (and the fuzz tests in particular) see it instead of a harmless "bcd".
    if (e instanceof WgDecodeError) return { ok: false, reason: 'bcd', detail: e.message };
    throw e;
  }
  return { ok: true, value: value as T };
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

/** Decodes a controller reply. Rejections are results; it throws only for a bug in the codec. */
export function decodeResponse(raw: Uint8Array): Decoded<WgResponse> {
  return decodeWith<WgResponse>(raw, [SOM], (fn) => {
    const name = byFunction.get(fn);
    return name && { name, layout: (MESSAGES[name] as MessageSpec).response };
  });
}

/** Decodes a host request (as a controller would). Rejections are results, as for `decodeResponse`. */
export function decodeRequest(raw: Uint8Array): Decoded<WgDecodedRequest> {
  return decodeWith<WgDecodedRequest>(raw, [SOM], (fn) => {
    const name = byFunction.get(fn);
    return name && { name, layout: (MESSAGES[name] as MessageSpec).request };
  });
}

/** Decodes a datagram pushed to the listener: type 0x17 or 0x19, function 0x20. Rejections are results. */
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
