// One virtual WG controller: card list, record ring, doors, clock, listener, and the access rules of rules.ts
// (time profiles, task list, interlock, anti-passback, keypads, passcodes). Pure state machine: the network side
// lives in simulator.ts.
import { AccessRules, type RulesSnapshot } from './rules.ts';
import {
  F,
  MAGIC,
  Out,
  ipv4,
  parse,
  putIpv4,
  readDate,
  readDateTime,
  type Incoming,
  type SimDate,
  type SimDateTime,
} from './protocol.ts';

export interface CardEntry {
  card: number;
  from: SimDate | null;
  to: SimDate | null;
  /** per door: 0 no access, 1 access, 2..254 the time profile that grants it (255: no access) */
  doors: [number, number, number, number];
  pin: number;
}

export interface SimRecord {
  index: number;
  type: number;
  granted: boolean;
  door: number;
  direction: number;
  card: number;
  time: SimDateTime;
  reason: number;
}

/** How a swipe happens, besides card and door. */
export interface SwipeOptions {
  /** PIN keyed in after the card, for a reader whose keypad is on */
  pin?: number;
  /** the controller's clock is set to this local time first (as 0x30 would), so a test can swipe "at 03:00" */
  at?: SimDateTime;
}

export interface ControllerOptions {
  serial: number;
  /** UDP port of this controller's own socket (0: any free port) */
  port?: number;
  /** ring size; the oldest record is overwritten when full (real controllers hold about 200,000) */
  recordCapacity?: number;
  /** initial clock offset against the simulator's wall clock, seconds */
  driftSeconds?: number;
  /** firmware as the vendor shows it, e.g. "8.92" (bytes 0x08 0x92 in the 0x94 reply) */
  version?: string;
  /** card list capacity */
  cardCapacity?: number;
}

/** Door count from the serial's leading digit: 1 → one door, 2 → two, anything else → four. */
export function doorCount(serial: number): number {
  const lead = String(serial)[0];
  return lead === '1' ? 1 : lead === '2' ? 2 : 4;
}

const RT_SWIPE = 1;
const RT_DOOR = 2;
const RT_ALARM = 3;
const RT_OVERWRITTEN = 0xff;
/** Door mode and delay after restore default parameters (uhppote-simulator entities/door.go NewDoor and its
 * restore_default_parameters.go: controlled, 5 s). */
const FACTORY_DOOR = { mode: 3, delay: 5 };

export class VirtualController {
  readonly serial: number;
  readonly doors: number;
  readonly recordCapacity: number;
  readonly cardCapacity: number;
  version: string;
  /** card list in slot order; null marks a deleted slot */
  readonly slots: (CardEntry | null)[] = [];
  private readonly bySlot = new Map<number, number>();
  private readonly ring: (SimRecord | undefined)[];
  /** index of the newest record; 0 while there is none */
  lastIndex = 0;
  readIndex = 0;
  readonly doorMode: { mode: number; delay: number }[];
  /** time profiles, task list, interlock, anti-passback, keypads, passcodes, first card */
  readonly rules: AccessRules;
  readonly doorOpen = [false, false, false, false];
  readonly buttons = [false, false, false, false];
  relays = 0;
  specialEvents = false;
  listener = { address: '0.0.0.0', port: 0, interval: 0 };
  offline = false;
  /** controller clock minus wall clock, ms */
  clockOffsetMs: number;
  /** called for every new record (the simulator pushes it to the listener) */
  onRecord: (record: SimRecord) => void = () => {};
  private readonly relayTimers = new Set<NodeJS.Timeout>();

  constructor(
    options: ControllerOptions,
    private readonly wallClock: () => SimDateTime,
    readonly host: string,
  ) {
    this.serial = options.serial;
    this.doors = doorCount(options.serial);
    this.recordCapacity = options.recordCapacity ?? 1000;
    this.cardCapacity = options.cardCapacity ?? 60_000;
    this.version = options.version ?? '8.92';
    this.clockOffsetMs = (options.driftSeconds ?? 0) * 1000;
    this.ring = new Array(this.recordCapacity);
    this.doorMode = Array.from({ length: 4 }, () => ({ mode: 3, delay: 3 }));
    this.rules = new AccessRules(this.doors);
  }

  // ---- clock -------------------------------------------------------------------------------------------------

  now(): SimDateTime {
    return fromMs(toMs(this.wallClock()) + this.clockOffsetMs);
  }

  setClock(t: SimDateTime): void {
    this.clockOffsetMs = toMs(t) - toMs(this.wallClock());
  }

  // ---- cards -------------------------------------------------------------------------------------------------

  get cardCount(): number {
    return this.bySlot.size;
  }

  cards(): CardEntry[] {
    return this.slots.filter((c): c is CardEntry => c !== null);
  }

  putCard(entry: CardEntry): boolean {
    const slot = this.bySlot.get(entry.card);
    if (slot !== undefined) this.slots[slot] = entry;
    else {
      if (this.slots.length >= this.cardCapacity) return false;
      this.bySlot.set(entry.card, this.slots.length);
      this.slots.push(entry);
    }
    return true;
  }

  deleteCard(card: number): boolean {
    const slot = this.bySlot.get(card);
    if (slot === undefined) return false;
    this.slots[slot] = null;
    this.bySlot.delete(card);
    return true;
  }

  deleteAllCards(): void {
    this.slots.length = 0;
    this.bySlot.clear();
  }

  getCard(card: number): CardEntry | undefined {
    const slot = this.bySlot.get(card);
    return slot === undefined ? undefined : (this.slots[slot] ?? undefined);
  }

  // ---- records -----------------------------------------------------------------------------------------------

  addRecord(r: Omit<SimRecord, 'index' | 'time'>): SimRecord {
    const record: SimRecord = { ...r, index: ++this.lastIndex, time: this.now() };
    this.ring[(record.index - 1) % this.recordCapacity] = record;
    this.onRecord(record);
    return record;
  }

  /** Oldest index still in the ring (0 when empty). */
  get firstIndex(): number {
    return this.lastIndex === 0 ? 0 : Math.max(1, this.lastIndex - this.recordCapacity + 1);
  }

  /**
   * Record at `index`: 0 asks for the oldest, 0xFFFFFFFF for the newest (as uhppoted-nodejs src/get-events.js
   * uses them); an index beyond the newest has no record
   * (undefined); an index that fell out of the ring is reported as overwritten (type 0xFF).
   */
  recordAt(index: number): SimRecord | 'overwritten' | undefined {
    if (this.lastIndex === 0) return undefined;
    const i = index === 0 ? this.firstIndex : index === 0xffffffff ? this.lastIndex : index;
    if (i > this.lastIndex) return undefined;
    if (i < this.firstIndex) return 'overwritten';
    return this.ring[(i - 1) % this.recordCapacity];
  }

  // ---- physical actions ----------------------------------------------------------------------------------------

  private checkDoor(door: number): void {
    if (!Number.isInteger(door) || door < 1 || door > this.doors)
      throw new RangeError(`controller ${this.serial} has doors 1..${this.doors}, not ${door}`);
  }

  /** The door's mode now: a task's override, else the 0x80 setting (1 open, 2 closed, 3 controlled). */
  effectiveMode(door: number): number {
    return this.rules.doors[door - 1]!.mode ?? this.doorMode[door - 1]!.mode;
  }

  /** The stored rules, plus each door's configured and effective mode, for the control API and tests. */
  rulesSnapshot(): RulesSnapshot & { doors: { mode: number; delay: number; effectiveMode: number }[] } {
    const doors = this.doorMode
      .slice(0, this.doors)
      .map((d, i) => ({ ...d, effectiveMode: this.effectiveMode(i + 1) }));
    return { ...this.rules.snapshot(), doors };
  }

  /**
   * Whether the door's lock is released: always when normally open, never when normally closed (a swipe, a button
   * or a remote open does not release it), else while a pulse holds its relay (uhppote-simulator entities/door.go
   * `unlocked`: the mode first, then the unlock time).
   */
  isUnlocked(door: number): boolean {
    const mode = this.effectiveMode(door);
    if (mode === 1) return true;
    if (mode === 2) return false;
    return (this.relays & (1 << (door - 1))) !== 0;
  }

  /** The relay bitmap a status reports (byte 49): the doors unlocked now (uhppote-simulator `relays()`). */
  relayState(): number {
    let state = 0;
    for (let door = 1; door <= this.doors; door++) if (this.isUnlocked(door)) state |= 1 << (door - 1);
    return state;
  }

  /** Runs the task list up to the controller's clock (the simulator calls it every second, and every action does). */
  tick(): void {
    this.rules.runTasks(this.now(), (door) => this.pulseRelay(door));
  }

  private before(options: SwipeOptions): void {
    if (options.at) this.setClock(options.at);
    this.tick();
  }

  /**
   * A card at a reader. The checks run in uhppote-simulator's order (actions.go Swipe: card and door value,
   * time profile, normally closed), then interlock and anti-passback as uhppoted-breakout's UT0311 emulation
   * orders them, then the PIN.
   */
  swipe(card: number, door: number, direction = 1, options: SwipeOptions = {}): SimRecord {
    this.checkDoor(door);
    this.before(options);
    const reason = this.judge(card, door, direction, options.pin);
    const granted = reason === 1;
    if (granted) {
      this.pulseRelay(door);
      this.rules.passed(card, door);
    }
    return this.addRecord({ type: RT_SWIPE, granted, door, direction, card, reason });
  }

  private judge(card: number, door: number, direction: number, pin: number | undefined): number {
    const entry = this.getCard(card);
    const today = this.now();
    if (!entry) return 6; // no privilege
    if ((entry.from && cmp(today, entry.from) < 0) || (entry.to && cmp(today, entry.to) > 0)) return 6;
    const value = entry.doors[door - 1]!;
    if (value === 0 || value === 255) return 6;
    if (value >= 2) {
      // the door value is a time profile: 15 "invalid timezone" when it does not cover now
      if (this.rules.doors[door - 1]!.profileDisabled) return 15;
      if (!this.rules.profileAllows(value, today)) return 15;
    }
    if (this.effectiveMode(door) === 2) return 11; // door normally closed
    const others = this.rules.interlockedWith(door);
    if (others.some((d) => this.doorOpen[d - 1] || this.isUnlocked(d))) return 12; // interlock
    if (!this.rules.passbackAllows(card, door)) return 8; // anti-passback
    if (entry.pin !== 0 && this.rules.pinRequired(door, direction) && pin !== entry.pin) return 7; // wrong PIN
    return 1;
  }

  /**
   * The door's push button. A button disabled by a task (reason 30), on a door held normally closed (reason 31,
   * "button invalid (forced lock)" in uhppote-core's reason table; uhppote-simulator door.go PressButton refuses it
   * too, logging 20) or blocked by an interlocked door that is open or unlocked (reason 33) does not unlock; as on
   * the device, button records exist only with special events on (uhppote-simulator actions.go ButtonPressed:
   * refusals are type 3 records).
   */
  pressButton(door: number, options: Pick<SwipeOptions, 'at'> = {}): SimRecord | null {
    this.checkDoor(door);
    this.before(options);
    const blocked = this.rules.doors[door - 1]!.buttonDisabled
      ? 30
      : this.effectiveMode(door) === 2
        ? 31
        : this.rules.interlockedWith(door).some((d) => this.doorOpen[d - 1] || this.isUnlocked(d))
          ? 33
          : 0;
    if (blocked)
      return this.specialEvents
        ? this.addRecord({ type: RT_ALARM, granted: false, door, direction: 1, card: 0, reason: blocked })
        : null;
    this.pulseRelay(door);
    return this.specialEvents
      ? this.addRecord({ type: RT_DOOR, granted: true, door, direction: 1, card: 0, reason: 20 })
      : null;
  }

  /**
   * A passcode keyed in at the door's reader (its keypad must be on, 0xA4): one of the door's passcodes (0x8C)
   * opens it and logs reason 25 "super password open door" (messages/events.go); anything else is ignored
   * (the reason table has no refusal for a wrong passcode).
   */
  enterPasscode(door: number, code: number, options: Pick<SwipeOptions, 'at'> = {}): SimRecord | null {
    this.checkDoor(door);
    this.before(options);
    if (!this.rules.keypads[door - 1] || !this.rules.passcodeOpens(door, code)) return null;
    this.pulseRelay(door);
    return this.addRecord({ type: RT_DOOR, granted: true, door, direction: 1, card: 0, reason: 25 });
  }

  /**
   * Restore default parameters (0xC8), as uhppote-simulator's restore_default_parameters.go does it: listener off,
   * cards, records and read index cleared, doors controlled with 5 s, passcodes and anti-passback cleared, and
   * here also the time profiles, task list, interlock, keypads and first-card rules. The network address stays
   * (the simulator's socket is the controller's address), and no power-on record is written: neither uhppote-core
   * nor uhppote-simulator describes one.
   */
  restoreDefaults(): void {
    this.listener = { address: '0.0.0.0', port: 0, interval: 0 };
    this.deleteAllCards();
    this.ring.fill(undefined);
    this.lastIndex = 0;
    this.readIndex = 0;
    for (const d of this.doorMode) Object.assign(d, FACTORY_DOOR);
    this.rules.reset();
  }

  forceDoor(door: number): SimRecord {
    this.checkDoor(door);
    this.doorOpen[door - 1] = true;
    return this.addRecord({ type: RT_ALARM, granted: false, door, direction: 1, card: 0, reason: 38 });
  }

  /** Door sensor change; recorded (23 open / 24 closed) only when special events are on, as on the device. */
  setDoorSensor(door: number, open: boolean): SimRecord | null {
    this.checkDoor(door);
    this.doorOpen[door - 1] = open;
    return this.specialEvents
      ? this.addRecord({ type: RT_DOOR, granted: true, door, direction: 1, card: 0, reason: open ? 23 : 24 })
      : null;
  }

  private pulseRelay(door: number): void {
    const bit = 1 << (door - 1);
    this.relays |= bit;
    const timer = setTimeout(
      () => {
        this.relays &= ~bit;
        this.relayTimers.delete(timer);
      },
      Math.max(1, this.doorMode[door - 1]!.delay) * 1000,
    );
    timer.unref();
    this.relayTimers.add(timer);
  }

  close(): void {
    for (const t of this.relayTimers) clearTimeout(t);
    this.relayTimers.clear();
  }

  // ---- protocol ------------------------------------------------------------------------------------------------

  /** The status datagram (reply to 0x20, and what is pushed to the listener). */
  status(seq: number, record?: SimRecord): Uint8Array {
    const out = new Out(F.STATUS, this.serial, seq);
    const latest = record ?? this.recordAt(0xffffffff);
    if (latest && latest !== 'overwritten') writeRecord(out, latest);
    for (let d = 0; d < 4; d++) {
      out.u8(28 + d, this.doorOpen[d] ? 1 : 0);
      out.u8(32 + d, this.buttons[d] ? 1 : 0);
    }
    const now = this.now();
    out.bcd(37, pad2(now.hour) + pad2(now.minute) + pad2(now.second));
    out.bcd(51, pad2(now.year % 100) + pad2(now.month) + pad2(now.day));
    out.u8(49, this.relayState());
    return out.bytes;
  }

  /** Answers one request; null means the controller stays silent (not addressed, unknown, or malformed). */
  handle(bytes: Uint8Array): Uint8Array | null {
    const req = parse(bytes);
    if (!req) return null;
    if (req.serial !== this.serial && !(req.fn === F.SEARCH && req.serial === 0)) return null;
    return this.answer(req);
  }

  private answer(req: Incoming): Uint8Array | null {
    const { fn, seq, data, bytes } = req;
    const out = new Out(fn, this.serial, seq);
    this.tick();
    const rule = this.rules.answer(fn, bytes, out, this.now());
    if (rule) return rule;
    const handler = this.handlers[fn];
    if (!handler) return null;
    return handler({
      seq,
      data,
      bytes,
      out,
      u32: (at) => data.getUint32(at, true),
      result: (ok) => out.u8(8, ok ? 1 : 0).bytes,
    });
  }

  /** The answer to each function code but the access rules' (rules.ts); a code not here gets none. */
  private readonly handlers: Partial<Record<number, (call: Call) => Uint8Array | null>> = {
    [F.SEARCH]: ({ out }) => {
      putIpv4(out, 8, this.host);
      putIpv4(out, 12, '255.255.255.0');
      const mac = [0x00, 0x66, ...[3, 2, 1, 0].map((s) => (this.serial >>> (s * 8)) & 0xff)];
      mac.forEach((b, i) => out.u8(20 + i, b));
      const [major, minor] = this.version.split('.');
      out.u8(26, parseInt(major ?? '0', 16)).u8(27, parseInt(minor ?? '0', 16));
      return out.date(28, { year: 2018, month: 8, day: 16 }).bytes;
    },
    [F.STATUS]: ({ seq }) => this.status(seq),
    [F.SET_TIME]: ({ bytes, out }) => {
      const t = readDateTime(bytes, 8);
      if (t) this.setClock(t);
      return out.dateTime(8, this.now()).bytes;
    },
    [F.GET_TIME]: ({ out }) => out.dateTime(8, this.now()).bytes,
    [F.OPEN_DOOR]: ({ bytes, result }) => {
      const door = bytes[8]!;
      if (door < 1 || door > this.doors) return result(false);
      // A door held normally closed stays locked; the controller still answers and logs the remote open
      // (uhppote-simulator open_door.go: Doors.Unlock refuses a normally closed door, the reply says done).
      if (this.effectiveMode(door) !== 2) this.pulseRelay(door);
      this.addRecord({ type: RT_DOOR, granted: true, door, direction: 1, card: 0, reason: 44 });
      return result(true);
    },
    [F.PUT_CARD]: ({ bytes, u32, result }) => {
      const card = u32(8);
      const from = readDate(bytes, 12);
      const to = readDate(bytes, 16);
      if (card === 0 || card === 0xffffffff || from === undefined || to === undefined) return result(false);
      const doors: CardEntry['doors'] = [bytes[20]!, bytes[21]!, bytes[22]!, bytes[23]!];
      const pin = bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16);
      return result(this.putCard({ card, from, to, doors, pin }));
    },
    [F.DELETE_CARD]: ({ u32, result }) => result(this.deleteCard(u32(8))),
    [F.DELETE_ALL]: ({ u32, result }) => {
      if (u32(8) !== MAGIC) return result(false);
      this.deleteAllCards();
      return result(true);
    },
    [F.CARD_COUNT]: ({ out }) => out.u32(8, this.cardCount).bytes,
    [F.GET_CARD]: ({ out, u32 }) => writeCard(out, this.getCard(u32(8))),
    [F.CARD_AT]: ({ out, u32 }) => {
      const index = u32(8);
      if (index < 1 || index > this.slots.length) return out.bytes; // card 0: no card at this index
      const entry = this.slots[index - 1];
      return entry ? writeCard(out, entry) : out.u32(8, 0xffffffff).bytes;
    },
    [F.SET_DOOR]: ({ bytes, out }) => {
      const door = bytes[8]!;
      const mode = bytes[9]!;
      if (door < 1 || door > this.doors || mode < 1 || mode > 3) return out.bytes;
      this.doorMode[door - 1] = { mode, delay: bytes[10]! };
      // The newer instruction wins over a mode a task forced earlier (uhppote-simulator keeps the task's
      // override, so a door set by hand would stay as the task left it until the next task).
      this.rules.doors[door - 1]!.mode = null;
      return out.u8(8, door).u8(9, mode).u8(10, bytes[10]!).bytes;
    },
    [F.GET_DOOR]: ({ bytes, out }) => {
      const door = bytes[8]!;
      if (door < 1 || door > this.doors) return out.bytes;
      const d = this.doorMode[door - 1]!;
      return out.u8(8, door).u8(9, d.mode).u8(10, d.delay).bytes;
    },
    [F.SPECIAL_EVENTS]: ({ bytes, result }) => {
      this.specialEvents = bytes[8] !== 0;
      return result(true);
    },
    [F.SET_LISTENER]: ({ bytes, data, result }) => {
      this.listener = { address: ipv4(bytes, 8), port: data.getUint16(12, true), interval: bytes[14]! };
      return result(true);
    },
    [F.GET_LISTENER]: ({ out }) => {
      putIpv4(out, 8, this.listener.address);
      return out.u16(12, this.listener.port).u8(14, this.listener.interval).bytes;
    },
    [F.GET_EVENT]: ({ out, u32 }) => {
      const r = this.recordAt(u32(8));
      if (r === undefined) return out.bytes;
      if (r === 'overwritten') return out.u32(8, u32(8)).u8(12, RT_OVERWRITTEN).bytes;
      writeRecord(out, r);
      return out.bytes;
    },
    [F.SET_EVENT_INDEX]: ({ u32, result }) => {
      if (u32(12) !== MAGIC) return result(false);
      this.readIndex = u32(8);
      return result(true);
    },
    [F.GET_EVENT_INDEX]: ({ out }) => out.u32(8, this.readIndex).bytes,
    [F.RESTORE_DEFAULTS]: ({ u32, result }) => {
      if (u32(8) !== MAGIC) return result(false);
      this.restoreDefaults();
      return result(true);
    },
  };
}

/** One request as its function's handler reads it, with the reply to fill in. */
interface Call {
  seq: number;
  data: DataView;
  bytes: Uint8Array;
  out: Out;
  /** The request's little-endian u32 at a byte offset. */
  u32(at: number): number;
  /** The reply with its result byte set: 1 done, 0 refused. */
  result(ok: boolean): Uint8Array;
}

function writeRecord(out: Out, r: SimRecord): void {
  out
    .u32(8, r.index)
    .u8(12, r.type)
    .u8(13, r.granted ? 1 : 0)
    .u8(14, r.door)
    .u8(15, r.direction);
  out.u32(16, r.card).dateTime(20, r.time).u8(27, r.reason);
}

function writeCard(out: Out, entry: CardEntry | undefined): Uint8Array {
  if (!entry) return out.bytes;
  out.u32(8, entry.card).date(12, entry.from).date(16, entry.to);
  entry.doors.forEach((d, i) => out.u8(20 + i, d));
  return out
    .u8(24, entry.pin & 0xff)
    .u8(25, (entry.pin >> 8) & 0xff)
    .u8(26, (entry.pin >> 16) & 0xff).bytes;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function cmp(a: SimDate, b: SimDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** Wall-clock fields as if UTC, in ms: arithmetic on zone-less times. */
export function toMs(t: SimDateTime): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

export function fromMs(ms: number): SimDateTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}
