// N virtual WG controllers on loopback UDP: one socket per controller, plus an optional shared socket that
// answers for all of them (so a search with serial 0 gets one reply per controller, as on a LAN broadcast).
import dgram from 'node:dgram';
import { once } from 'node:events';
import {
  VirtualController,
  type ControllerOptions,
  type SimRecord,
  type SwipeOptions,
} from './controller.ts';
import type { SimDateTime } from './protocol.ts';

export interface SimulatorOptions {
  /** serial numbers, or full options per controller */
  controllers: (number | ControllerOptions)[];
  /** bind address (default 127.0.0.1) */
  host?: string;
  /** controller i listens on basePort + i; 0 (default) picks free ports */
  basePort?: number;
  /** also open one socket answering for every controller (0 picks a free port); off when undefined */
  sharedPort?: number;
  /** default ring size for controllers that do not set their own */
  recordCapacity?: number;
  /** zone of the controllers' wall clock (default: this process's zone) */
  timeZone?: string;
  /** share of datagrams lost, each direction (0..1) */
  dropRate?: number;
  /** random source for drops (tests inject a seeded one) */
  random?: () => number;
  /**
   * The instant the controllers' clocks start from (default: the real clock). Tests inject one to put every
   * controller at a chosen time ("03:00 on a Sunday"); each controller still keeps its own drift on top of it.
   */
  now?: () => Date;
}

export interface SimulatorStats {
  received: number;
  replied: number;
  pushed: number;
  droppedIn: number;
  droppedOut: number;
  ignored: number;
}

export interface Endpoint {
  host: string;
  port: number;
}

export class WgSimulator {
  readonly controllers = new Map<number, VirtualController>();
  readonly stats: SimulatorStats = {
    received: 0,
    replied: 0,
    pushed: 0,
    droppedIn: 0,
    droppedOut: 0,
    ignored: 0,
  };
  /** share of datagrams lost, both directions */
  dropRate: number;
  private readonly sockets = new Map<number, dgram.Socket>();
  private shared: dgram.Socket | undefined;
  private readonly random: () => number;
  private readonly host: string;
  private readonly timeZone: string;
  private readonly clock: () => Date;
  private readonly ticker: NodeJS.Timeout;
  private readonly lastAutoSend = new Map<number, number>();

  private constructor(options: SimulatorOptions) {
    this.host = options.host ?? '127.0.0.1';
    this.dropRate = options.dropRate ?? 0;
    this.random = options.random ?? Math.random;
    this.timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    this.clock = options.now ?? (() => new Date());
    // Every second: auto-send (listener interval, 0x90 offset 14) pushes the status every `interval` seconds, and
    // each controller runs the tasks of its task list that came due.
    this.ticker = setInterval(() => {
      for (const c of this.controllers.values()) if (!c.offline) c.tick();
      this.autoSend();
    }, 1000);
    this.ticker.unref();
  }

  static async start(options: SimulatorOptions): Promise<WgSimulator> {
    const sim = new WgSimulator(options);
    try {
      let i = 0;
      for (const c of options.controllers) {
        const opts: ControllerOptions = typeof c === 'number' ? { serial: c } : c;
        const controller = new VirtualController(
          { recordCapacity: options.recordCapacity, ...opts },
          () => wallClock(sim.timeZone, sim.clock()),
          sim.host,
        );
        if (sim.controllers.has(controller.serial)) throw new Error(`duplicate serial ${controller.serial}`);
        sim.controllers.set(controller.serial, controller);
        controller.onRecord = (record) => sim.push(controller, record);
        const port = opts.port ?? (options.basePort ? options.basePort + i : 0);
        sim.sockets.set(controller.serial, await sim.bind(port, [controller]));
        i++;
      }
      if (options.sharedPort !== undefined)
        sim.shared = await sim.bind(options.sharedPort, [...sim.controllers.values()]);
    } catch (e) {
      await sim.close();
      throw e;
    }
    return sim;
  }

  private async bind(port: number, controllers: VirtualController[]): Promise<dgram.Socket> {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => this.receive(socket, controllers, msg, rinfo));
    socket.on('error', () => {}); // loopback send errors (closed peer) are not the simulator's concern
    socket.bind(port, this.host);
    await once(socket, 'listening');
    return socket;
  }

  private lose(): boolean {
    return this.dropRate > 0 && this.random() < this.dropRate;
  }

  private receive(
    socket: dgram.Socket,
    controllers: VirtualController[],
    msg: Buffer,
    rinfo: dgram.RemoteInfo,
  ): void {
    this.stats.received++;
    if (this.lose()) {
      this.stats.droppedIn++;
      return;
    }
    let answered = false;
    for (const c of controllers) {
      if (c.offline) continue;
      const reply = c.handle(msg);
      if (!reply) continue;
      answered = true;
      this.send(socket, reply, rinfo.port, rinfo.address);
      this.stats.replied++;
    }
    if (!answered) this.stats.ignored++;
  }

  private send(socket: dgram.Socket, bytes: Uint8Array, port: number, address: string): void {
    if (this.lose()) {
      this.stats.droppedOut++;
      return;
    }
    socket.send(bytes, port, address);
  }

  private push(c: VirtualController, record?: SimRecord): void {
    const { address, port } = c.listener;
    if (c.offline || port === 0 || address === '0.0.0.0') return;
    const socket = this.sockets.get(c.serial);
    if (!socket) return;
    this.lastAutoSend.set(c.serial, Date.now());
    this.stats.pushed++;
    this.send(socket, c.status(0, record), port, address);
  }

  private autoSend(): void {
    const now = Date.now();
    for (const c of this.controllers.values()) {
      const interval = c.listener.interval;
      if (interval > 0 && now - (this.lastAutoSend.get(c.serial) ?? 0) >= interval * 1000) this.push(c);
    }
  }

  // ---- control API -------------------------------------------------------------------------------------------

  controller(serial: number): VirtualController {
    const c = this.controllers.get(serial);
    if (!c) throw new RangeError(`no simulated controller ${serial}`);
    return c;
  }

  /** Where controller `serial` listens. */
  address(serial: number): Endpoint {
    const socket = this.sockets.get(serial);
    if (!socket) throw new RangeError(`no simulated controller ${serial}`);
    return { host: this.host, port: socket.address().port };
  }

  /** The socket answering for every controller, when `sharedPort` was given. */
  sharedAddress(): Endpoint | undefined {
    return this.shared && { host: this.host, port: this.shared.address().port };
  }

  /** A card at a reader; `options.pin` keys in a PIN, `options.at` sets the controller's clock first. */
  swipe(serial: number, card: number, door: number, direction = 1, options: SwipeOptions = {}): SimRecord {
    return this.controller(serial).swipe(card, door, direction, options);
  }

  pressButton(serial: number, door: number, options: Pick<SwipeOptions, 'at'> = {}): SimRecord | null {
    return this.controller(serial).pressButton(door, options);
  }

  /** A passcode keyed in at a door's reader; null when it opened nothing. */
  enterPasscode(
    serial: number,
    door: number,
    code: number,
    options: Pick<SwipeOptions, 'at'> = {},
  ): SimRecord | null {
    return this.controller(serial).enterPasscode(door, code, options);
  }

  /** What 0xC8 with the magic word does, without the network. */
  restoreDefaults(serial: number): void {
    this.controller(serial).restoreDefaults();
  }

  /** Sets a controller's clock to a local time, as 0x30 would. */
  setClock(serial: number, time: SimDateTime): void {
    this.controller(serial).setClock(time);
  }

  forceDoor(serial: number, door: number): SimRecord {
    return this.controller(serial).forceDoor(door);
  }

  setDoorSensor(serial: number, door: number, open: boolean): SimRecord | null {
    return this.controller(serial).setDoorSensor(door, open);
  }

  /** Takes every controller (or one) off the network: no replies, no pushes. */
  setOffline(offline: boolean, serial?: number): void {
    for (const c of serial === undefined ? this.controllers.values() : [this.controller(serial)])
      c.offline = offline;
  }

  /** Shifts a controller's clock by `seconds` against the wall clock. */
  setDrift(serial: number, seconds: number): void {
    this.controller(serial).clockOffsetMs = seconds * 1000;
  }

  /** A summary of every controller, for the HTTP API and logs. */
  describe(): object[] {
    return [...this.controllers.values()].map((c) => ({
      serial: c.serial,
      doors: c.doors,
      address: this.address(c.serial),
      offline: c.offline,
      cards: c.cardCount,
      records: { first: c.firstIndex, last: c.lastIndex, capacity: c.recordCapacity, readIndex: c.readIndex },
      listener: c.listener,
      clock: c.now(),
      doorModes: c.doorMode.slice(0, c.doors),
      interlock: c.rules.interlock,
      antiPassback: c.rules.antiPassback,
      timeProfiles: c.rules.profiles.size,
      tasks: c.rules.tasks.length,
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.ticker);
    for (const c of this.controllers.values()) c.close();
    const all = [...this.sockets.values(), ...(this.shared ? [this.shared] : [])];
    this.sockets.clear();
    this.shared = undefined;
    await Promise.all(all.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** Current wall-clock time in `timeZone`. */
export function wallClock(timeZone: string, at = new Date()): SimDateTime {
  let f = clockFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}
