// UDP transport for WG controllers, the base of WgDriver (whose calls are in driver.ts and driver-rules.ts):
// requests with retries, one request in flight per controller, device online/offline tracking, and a listener
// for the events controllers push. Pure transport: no database, no services.
//
// Matching a reply: same serial, same function, and a sequence id (bytes 40..43) that is either the request's
// or one this driver never used for that controller. Real controllers are documented to echo the sequence id,
// other implementations (and some firmware for 0x20) put 0 or their own counter there; a reply carrying the id
// of an earlier, finished request to the same controller is a late duplicate and is dropped ("stale").

import type dgram from 'node:dgram';
import { EventEmitter } from 'node:events';
import {
  decodeEvent,
  decodeResponse,
  encodeRequest,
  peekHeader,
  type DeviceResponse,
  type Doors4,
  type DropReason,
  type LocalDate,
  type MessageName,
  type RequestOf,
  type ResponseOf,
  type WgPushedEvent,
  type WgRequest,
  type WgResponse,
} from './codec.ts';
import { DEFAULT_PORT, SOM } from './constants.ts';
import { ListenerThread } from './listener-thread.ts';

/** How to reach one controller. */
export interface WgDevice {
  serial: number;
  host: string;
  /** default 60000 */
  port?: number;
}

export type WgErrorCode =
  /** no valid reply after every try, and the device was answering before (or never asked) */
  | 'timeout'
  /** no valid reply after every try, and the device was already offline */
  | 'offline'
  /** the controller answered "not done" (byte 8 = 0 of a set-type reply, or a different door setting) */
  | 'refused'
  /** the controller answered, but only with datagrams the codec rejects (reason in the message) */
  | 'bad-reply'
  /** the driver was closed */
  | 'closed';

export class WgError extends Error {
  constructor(
    readonly code: WgErrorCode,
    message: string,
    readonly serial: number,
    readonly fn: MessageName,
  ) {
    super(message);
    this.name = 'WgError';
  }
}

export interface WgDeviceState {
  serial: number;
  host: string;
  port: number;
  /** null until the first exchange */
  online: boolean | null;
  lastSeen: Date | null;
  /** from 0x94, e.g. "8.92" */
  firmware: string | null;
  releaseDate: LocalDate | null;
  lastError: WgErrorCode | null;
}

export interface WgDeviceChange {
  state: WgDeviceState;
  previous: WgDeviceState | null;
}

export interface WgEventFrom {
  event: WgPushedEvent;
  from: { address: string; port: number };
}

/** Dropped datagrams by reason. `unmatched`: valid but nobody waits for it; `stale`: a late duplicate. */
export type DropCounters = Record<DropReason | 'unmatched' | 'stale', number>;

export interface WgDriverOptions {
  /** wait per try, ms (default 300) */
  timeoutMs?: number;
  /** tries per request (default 3) */
  tries?: number;
  /** local address of the request socket (default 0.0.0.0, any port) */
  bindAddress?: string;
  bindPort?: number;
  /** put a sequence id in bytes 40..43 (default true); false sends 0 as uhppoted does */
  sequence?: boolean;
  /** clock for lastSeen (tests) */
  now?: () => Date;
}

export interface CardRecord {
  card: number;
  from: LocalDate | null;
  to: LocalDate | null;
  /** per door: 0 no access, 1 access, 2..254 time profile */
  doors: Doors4<number>;
  pin: number;
}

export type CardSlot = ({ kind: 'card' } & CardRecord) | { kind: 'none' } | { kind: 'deleted' };

export interface DoorControl {
  /** 1 normally open, 2 normally closed, 3 controlled */
  mode: number;
  /** seconds the lock stays open */
  delay: number;
}

interface Pending {
  serial: number;
  kind: MessageName;
  fn: number;
  sequence: number;
  badReply: string | null;
  resolve: (r: WgResponse) => void;
}

type Events = {
  device: [WgDeviceChange];
  event: [WgEventFrom];
  drop: [{ reason: keyof DropCounters; socket: 'requests' | 'listener'; from: string }];
};

const STALE_MEMORY = 32;

export class WgTransport extends EventEmitter<Events> {
  /** dropped datagrams on the request socket */
  readonly dropped: DropCounters = zeroCounters();
  /** dropped datagrams on the listener socket */
  readonly droppedListener: DropCounters = zeroCounters();
  private readonly timeoutMs: number;
  private readonly tries: number;
  private readonly useSequence: boolean;
  private readonly now: () => Date;
  private readonly pending = new Map<number, Pending>();
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly recent = new Map<number, number[]>();
  private readonly states = new Map<number, WgDeviceState>();
  private searches = new Set<(r: DeviceResponse) => void>();
  private listener: ListenerThread | undefined;
  private closed = false;
  private sequence = 0;

  protected constructor(
    private readonly socket: dgram.Socket,
    options: WgDriverOptions,
  ) {
    super();
    this.timeoutMs = options.timeoutMs ?? 300;
    this.tries = Math.max(1, options.tries ?? 3);
    this.useSequence = options.sequence ?? true;
    this.now = options.now ?? (() => new Date());
    socket.on('message', (msg, rinfo) => this.onReply(msg, rinfo));
    socket.on('error', () => {}); // ICMP unreachable and the like: the request simply times out
  }

  /** Local address of the request socket. */
  address(): { address: string; port: number } {
    return this.socket.address();
  }

  // ---- listener ----------------------------------------------------------------------------------------------

  /**
   * Receives pushed events on `address` ("host:port", e.g. the `WG_LISTEN` setting "0.0.0.0:60001"; port 0 picks
   * one). Emits `event` for each decoded datagram; the rest is counted in `droppedListener`.
   */
  async listen(address: string | { host: string; port: number }): Promise<{ address: string; port: number }> {
    if (this.listener) throw new Error('already listening');
    const { host, port } = typeof address === 'string' ? parseHostPort(address) : address;
    // Read in a thread of its own, so that a statement running here does not leave pushes to overflow the socket.
    this.listener = await ListenerThread.open(host, port, (msg, rinfo) =>
      this.onPushed(msg, rinfo, 'listener'),
    );
    return this.listener.address;
  }

  private onPushed(msg: Buffer, rinfo: dgram.RemoteInfo, socket: 'requests' | 'listener'): void {
    const decoded = decodeEvent(msg);
    if (!decoded.ok) {
      this.drop(decoded.reason, socket, rinfo);
      return;
    }
    const event = decoded.value;
    this.seen(event.serial, rinfo);
    this.emit('event', { event, from: { address: rinfo.address, port: rinfo.port } });
  }

  // ---- request/response --------------------------------------------------------------------------------------

  private drop(reason: keyof DropCounters, socket: 'requests' | 'listener', rinfo: dgram.RemoteInfo): void {
    (socket === 'requests' ? this.dropped : this.droppedListener)[reason]++;
    this.emit('drop', { reason, socket, from: `${rinfo.address}:${rinfo.port}` });
  }

  private onReply(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const header = peekHeader(msg);
    const decoded = decodeResponse(msg);
    if (!decoded.ok) {
      // Pushed v6.62 events (0x19) can reach this socket when a listener points at it.
      if (header && header.fn === 0x20 && header.som !== SOM) return this.onPushed(msg, rinfo, 'requests');
      const waiting = header && this.pending.get(header.serial);
      if (waiting && header.fn === waiting.fn) waiting.badReply = decoded.detail;
      return this.drop(decoded.reason, 'requests', rinfo);
    }
    const reply = decoded.value;
    if (reply.kind === 'getDevice' && this.searches.size > 0) {
      this.seen(reply.serial, rinfo, reply);
      for (const collect of this.searches) collect(reply);
      if (!this.pending.has(reply.serial)) return;
    }
    const waiting = this.pending.get(reply.serial);
    if (!waiting || waiting.kind !== reply.kind) {
      if (reply.kind === 'getStatus') return this.onPushed(msg, rinfo, 'requests');
      return this.drop('unmatched', 'requests', rinfo);
    }
    if (reply.sequence !== waiting.sequence && this.recent.get(reply.serial)?.includes(reply.sequence))
      return this.drop('stale', 'requests', rinfo);
    this.seen(reply.serial, rinfo, reply.kind === 'getDevice' ? reply : undefined);
    waiting.resolve(reply);
  }

  private nextSequence(): number {
    if (!this.useSequence) return 0;
    this.sequence = this.sequence >= 0xffffffff ? 1 : this.sequence + 1;
    return this.sequence;
  }

  /** Runs `task` after every earlier request to `serial` has finished: one request in flight per controller. */
  protected enqueue<T>(serial: number, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(serial) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => {});
    this.queues.set(serial, tail);
    void tail.then(() => {
      if (this.queues.get(serial) === tail) this.queues.delete(serial);
    });
    return run;
  }

  /**
   * Sends any request of the subset and resolves with the matching reply. Rejects with WgError; a reply saying
   * "not done" is returned as is here (the typed helpers below turn it into `refused`).
   */
  /** `tries`: this request's own number of sends (1 for one that must not be repeated, such as add task). */
  request<N extends MessageName>(
    device: WgDevice,
    req: RequestOf<N>,
    tries = this.tries,
  ): Promise<ResponseOf<N>> {
    if (req.serial !== device.serial) throw new RangeError('request serial differs from the device serial');
    if (device.serial === 0) throw new RangeError('serial 0 addresses every controller: use search()');
    this.track(device);
    const reply = this.enqueue(device.serial, () => this.exchange(device, req as WgRequest, tries));
    return reply as unknown as Promise<ResponseOf<N>>;
  }

  protected async exchange(device: WgDevice, req: WgRequest, tries = this.tries): Promise<WgResponse> {
    if (this.closed) throw new WgError('closed', 'driver closed', device.serial, req.kind);
    const sequence = this.nextSequence();
    const bytes = encodeRequest(req, sequence);
    const port = device.port ?? DEFAULT_PORT;
    let timer: NodeJS.Timeout | undefined;
    let resolveReply!: (r: WgResponse) => void;
    const replied = new Promise<WgResponse>((resolve) => (resolveReply = resolve));
    const pending: Pending = {
      serial: device.serial,
      kind: req.kind,
      fn: bytes[1]!,
      sequence,
      badReply: null,
      resolve: resolveReply,
    };
    this.pending.set(device.serial, pending);
    try {
      for (let attempt = 0; attempt < tries && !this.closed; attempt++) {
        this.socket.send(bytes, port, device.host);
        const timedOut = new Promise<null>(
          (resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)),
        );
        const reply = await Promise.race([replied, timedOut]);
        clearTimeout(timer);
        if (reply) return reply;
      }
    } finally {
      if (this.pending.get(device.serial) === pending) this.pending.delete(device.serial);
      if (sequence !== 0) this.remember(device.serial, sequence);
    }
    if (this.closed) throw new WgError('closed', 'driver closed', device.serial, req.kind);
    const wasOffline = this.states.get(device.serial)?.online === false;
    const code: WgErrorCode = pending.badReply ? 'bad-reply' : wasOffline ? 'offline' : 'timeout';
    // A request sent fewer times than usual on purpose (add task, once) says too little to call the link down.
    if (tries >= this.tries) this.failed(device.serial, code);
    const message = pending.badReply
      ? `controller ${device.serial} sent an unreadable ${req.kind} reply: ${pending.badReply}`
      : `controller ${device.serial} did not answer ${req.kind} (${tries} × ${this.timeoutMs} ms)`;
    throw new WgError(code, message, device.serial, req.kind);
  }

  private remember(serial: number, sequence: number): void {
    const list = this.recent.get(serial) ?? [];
    list.push(sequence);
    if (list.length > STALE_MEMORY) list.shift();
    this.recent.set(serial, list);
  }

  /**
   * Broadcast search (0x94 with serial 0): every controller reachable at `host:port` answers once. Collects
   * replies for `waitMs`.
   */
  async search(options: { host?: string; port?: number; waitMs?: number } = {}): Promise<DeviceResponse[]> {
    const found = new Map<number, DeviceResponse>();
    const collect = (r: DeviceResponse) => found.set(r.serial, r);
    this.searches.add(collect);
    try {
      const bytes = encodeRequest({ kind: 'getDevice', serial: 0 }, this.nextSequence());
      this.socket.send(bytes, options.port ?? DEFAULT_PORT, options.host ?? '255.255.255.255');
      await new Promise((r) => setTimeout(r, options.waitMs ?? 1000));
    } finally {
      this.searches.delete(collect);
    }
    return [...found.values()].sort((a, b) => a.serial - b.serial);
  }

  // ---- device state ------------------------------------------------------------------------------------------

  protected track(device: WgDevice): WgDeviceState {
    const port = device.port ?? DEFAULT_PORT;
    let state = this.states.get(device.serial);
    if (!state) {
      state = {
        serial: device.serial,
        host: device.host,
        port,
        online: null,
        lastSeen: null,
        firmware: null,
        releaseDate: null,
        lastError: null,
      };
      this.states.set(device.serial, state);
    } else {
      state.host = device.host;
      state.port = port;
    }
    return state;
  }

  protected update(serial: number, change: Partial<WgDeviceState>, notify: boolean): void {
    const state = this.states.get(serial);
    if (!state) return;
    const previous = { ...state };
    Object.assign(state, change);
    if (notify) this.emit('device', { state: { ...state }, previous });
  }

  private seen(serial: number, rinfo: dgram.RemoteInfo, device?: DeviceResponse): void {
    if (!this.states.has(serial)) this.track({ serial, host: rinfo.address, port: rinfo.port });
    const state = this.states.get(serial)!;
    const firmware = device ? device.version : state.firmware;
    const notify = state.online !== true || firmware !== state.firmware;
    this.update(
      serial,
      {
        online: true,
        lastSeen: this.now(),
        lastError: null,
        firmware,
        releaseDate: device ? device.releaseDate : state.releaseDate,
      },
      notify,
    );
  }

  private failed(serial: number, code: WgErrorCode): void {
    const state = this.states.get(serial);
    if (!state) return;
    const goesOffline = code === 'timeout' || code === 'offline';
    this.update(
      serial,
      { lastError: code, online: goesOffline ? false : state.online },
      goesOffline && state.online !== false,
    );
  }

  /** What the driver knows about a controller (copy), or undefined if it never talked to it. */
  state(serial: number): WgDeviceState | undefined {
    const s = this.states.get(serial);
    return s && { ...s };
  }

  /** Every controller the driver talked to or heard from. */
  devices(): WgDeviceState[] {
    return [...this.states.values()].map((s) => ({ ...s }));
  }

  /** Forgets a controller (removed from the database). */
  forget(serial: number): void {
    this.states.delete(serial);
    this.recent.delete(serial);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.resolve(undefined as never);
    const listener = this.listener;
    this.listener = undefined;
    await Promise.all([
      new Promise<void>((resolve) => this.socket.close(() => resolve())),
      listener?.close(),
    ]);
  }

  // ---- typed helpers -----------------------------------------------------------------------------------------

  protected refused(device: WgDevice, kind: MessageName, what: string): never {
    this.update(device.serial, { lastError: 'refused' }, false);
    throw new WgError('refused', `controller ${device.serial} refused ${what}`, device.serial, kind);
  }

  protected async must(device: WgDevice, req: WgRequest, what: string, tries?: number): Promise<void> {
    const r = (await this.request(device, req as RequestOf<MessageName>, tries)) as { ok?: boolean };
    if (r.ok !== true) this.refused(device, req.kind, what);
  }
}

function zeroCounters(): DropCounters {
  return { length: 0, type: 0, function: 0, bcd: 0, unmatched: 0, stale: 0 };
}

/** "host:port" → parts; a bare port means all interfaces. */
export function parseHostPort(value: string): { host: string; port: number } {
  const m = /^(?:(.*):)?(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new RangeError(`"${value}" is not host:port`);
  return { host: m[1] || '0.0.0.0', port };
}
