// The WG device gateway (docs/devices.md, "Gateway"): drives the access-control module's WG controllers.
// Started in the house's gateway shape (`wgGateway`, started by buildApp when the config enables it). It is a
// registry of controller sessions (session.ts: one per controller driven, created when its lease is taken and
// disposed as a whole when it is lost; in one process, one per controller listed), the loops that drive them
// (collection polls, the watchdog behind pushes; sync rounds), the listener for pushed events (pushed.ts), and
// a routed face: a command for a controller driven here goes to its session, for one driven elsewhere to that
// instance (owner-commands.ts). Services are called with the controller as the actor, through the module's face.

import {
  devicesDueForRules,
  devicesDueForSync,
  swipeEvent,
  wgControllers,
  type ControllerCardRead,
  type ControllerRef,
  type DoorControllers,
  type StoredControllerRecord,
} from '../../modules/access-control/index.ts';
import type { Unsubscribe } from '../../platform/cluster/index.ts';
import { deviceActor, systemActor, type ServiceContext } from '../../platform/context.ts';
import { recordInput } from './collector.ts';
import { RecordType } from './constants.ts';
import { WgDriver, type WgDeviceChange, type WgEventFrom } from './driver.ts';
import { listenProblem } from './local-address.ts';
import { Loops } from './loops.ts';
import { noLog, type GatewayLog, type WgGatewayOptions, type WgOwnership } from './options.ts';
import { atOwner, serveWgCommands } from './owner-commands.ts';
import { PushedRecords } from './pushed.ts';
import { ControllerSession, type SessionEnv } from './session.ts';
import { SessionRegistry } from './sessions.ts';
import type { SyncStatus } from './session-sync.ts';

export type { GatewayLog, HubLike, WgGatewayOptions, WgOwnership } from './options.ts';
export { WG_COMMANDS } from './owner-commands.ts';

export class WgGateway implements DoorControllers {
  readonly driver: WgDriver;
  private readonly options: WgGatewayOptions;
  private readonly log: GatewayLog;
  private readonly ownership: WgOwnership | undefined;
  /** The controllers this instance drives (all of them in one process; its share of them in a cluster). */
  private readonly sessions: SessionRegistry;
  private readonly env: SessionEnv;
  private readonly pushed: PushedRecords;
  private stopServing: Unsubscribe | undefined;
  private listenAddress: { address: string; port: number } | undefined;
  private readonly loops: Loops;
  private closed = false;

  private constructor(driver: WgDriver, options: WgGatewayOptions) {
    this.driver = driver;
    this.options = options;
    this.log = options.log ?? noLog;
    this.ownership = options.ownership;
    this.loops = new Loops(this.log);
    this.env = {
      driver,
      hub: options.hub,
      log: this.log,
      options,
      ctx: (device) => this.ctx(device),
      drives: (id) => this.drives(id),
      closed: () => this.closed,
      listening: () => this.listenAddress,
      announce: (rows, via) => this.announce(rows, via),
    };
    this.pushed = new PushedRecords(this.env);
    this.sessions = new SessionRegistry(this.env);
  }

  /** Opens the driver (and the listener), serves commands carried here, and starts the loops. */
  static async start(options: WgGatewayOptions): Promise<WgGateway> {
    const driver = await WgDriver.open(options.driver);
    const gateway = new WgGateway(driver, options);
    try {
      if (options.listen) gateway.listenAddress = await driver.listen(options.listen);
    } catch (error) {
      await driver.close();
      throw listenProblem(options.listen!, error);
    }
    driver.on('event', (e) => gateway.onPushed(e));
    driver.on('device', (c) => gateway.onDeviceChange(c));
    if (options.ownership) {
      const { owners, everyMs } = options.ownership;
      gateway.stopServing = serveWgCommands(
        owners,
        gateway,
        async (id) => (await wgControllers(gateway.ctx(), id))[0],
      );
      await owners.ready();
      // This instance's share first, so the first passes drive only what it holds.
      await gateway.ownRound().catch((error: unknown) => gateway.log.error({ err: error }, 'wg ownership'));
      gateway.loops.every((everyMs ?? 5000) / 1000, () => gateway.ownRound(), everyMs ?? 5000);
    }
    // Every session starts with a full compare of its controller.
    await gateway.refresh();
    gateway.loops.every(options.pollSeconds ?? 5, () => gateway.pollAll());
    gateway.loops.every(options.syncSeconds ?? 2, () => gateway.syncDue());
    return gateway;
  }

  /** Whether this instance drives the controller now (always in one process). */
  drives(deviceId: number): boolean {
    return !this.ownership || this.ownership.devices.holds(String(deviceId));
  }

  /**
   * One ownership round (OwnedDevices.round): a controller lost is let go at once, whatever its session was
   * doing (a pass in flight finds its fence gone and writes nothing more); a controller taken gets a new
   * session, which configures it afresh (its listener pointed here) and compares it in full.
   */
  private async ownRound(): Promise<void> {
    const own = this.ownership;
    if (!own || this.closed) return;
    const all = await wgControllers(this.ctx());
    const { taken, lost } = await own.devices.round(all.map((d) => String(d.Id)));
    for (const key of [...lost, ...taken]) this.sessions.end(Number(key));
    if (taken.length + lost.length > 0)
      this.log.info(
        { taken: taken.length, lost: lost.length, held: own.devices.keys().length },
        'wg ownership',
      );
    // The same read of the controllers as the round's: no second query.
    await this.refresh(all);
    for (const key of taken) void this.collect(Number(key));
  }

  /** The controllers to drive (new ones, address changes, those no longer driven gone), from `all` when just read. */
  async refresh(all?: ControllerRef[]): Promise<ControllerRef[]> {
    const list = (all ?? (await wgControllers(this.ctx()))).filter((d) => this.drives(d.Id));
    this.sessions.keepOnly(new Set(list.map((d) => d.Id)));
    for (const device of list) this.sessions.begin(device);
    return list;
  }

  /** How many controllers it drives now. */
  controllerCount(): number {
    return this.sessions.size;
  }

  /** Where pushed events arrive (the bound listener), if listening. */
  listenerAddress(): { address: string; port: number } | undefined {
    return this.listenAddress;
  }

  /** The sync passes in flight, by controller (for the screens). */
  get progress(): ReadonlyMap<number, SyncStatus> {
    return this.sessions.progress();
  }

  private ctx(device?: ControllerRef): ServiceContext {
    return {
      db: this.options.db,
      clock: this.options.clock,
      lang: 'en',
      actor: device ? deviceActor(device.Id, device.Name) : systemActor('wg-gateway'),
      areaId: device?.AreaId,
      // Writes for a controller go behind this instance's lease on it, at the epoch it drives it under now.
      ...(device && this.ownership ? { fence: this.ownership.devices.fence(String(device.Id)) } : {}),
    };
  }

  // ---- the loops and what controllers say ------------------------------------------------------------------

  private async pollAll(): Promise<void> {
    const list = await this.refresh();
    await Promise.allSettled(list.map((d) => this.collect(d.Id)));
  }

  /** Collects one controller's new records now (one pass at a time per controller). */
  collect(deviceId: number): Promise<unknown> {
    return this.sessions.get(deviceId)?.collect() ?? Promise.resolve();
  }

  private async syncDue(): Promise<void> {
    if (this.sessions.size === 0) await this.refresh();
    const due = new Set(await devicesDueForSync(this.ctx()));
    for (const id of await devicesDueForRules(this.ctx(), this.sessions.ids())) due.add(id);
    const now = Date.now();
    // A full compare due (its back-off over), or a "sync now" not yet served (its pass failed to start).
    for (const session of this.sessions.all()) if (session.syncWanted(now)) due.add(session.id);
    for (const id of due)
      this.sync(id).catch((error: unknown) => this.log.error({ err: error }, 'wg sync round'));
  }

  /** Runs one sync pass of a controller unless one is running; resolves when it ends. */
  sync(deviceId: number): Promise<unknown> {
    return this.sessions.get(deviceId)?.sync() ?? Promise.resolve();
  }

  private onPushed({ event }: WgEventFrom): void {
    const session = this.sessions.ofSerial(event.serial);
    const type = event.event.type;
    // A controller not (or no longer) driven here: its new owner points its listener elsewhere and collects it.
    if (!session || !this.drives(session.id) || type === RecordType.None || type === RecordType.Overwritten)
      return;
    const input = recordInput(event.event, session.device, this.options.clock.now());
    if (!input || this.closed) return;
    this.pushed.add(session.device, input);
  }

  /**
   * Records just stored: counted, and told to the area's browsers, with the roll calls their swipes at a muster
   * point moved (each once, with its counts after them).
   */
  private announce(rows: StoredControllerRecord[], via: 'push' | 'poll'): void {
    this.options.metrics?.swipesIngested(rows.length, via);
    if (!this.options.hub) return;
    const musters = new Map<number, NonNullable<StoredControllerRecord['Muster']>>();
    for (const r of rows) {
      this.options.hub.publish(r.AreaId, swipeEvent(r));
      if (r.Muster) musters.set(r.Muster.Id, r.Muster);
    }
    for (const m of musters.values()) this.options.hub.publish(m.AreaId, { Type: 'Muster', ...m });
  }

  private onDeviceChange(change: WgDeviceChange): void {
    if (this.closed) return;
    this.sessions.ofSerial(change.state.serial)?.deviceChanged(change);
  }

  // ---- DoorControllers: commands from the API, to the session here or to the instance driving it ----------

  /** The controller's session, or one for this command alone when it has none (not listed when last read). */
  private commandSession(device: ControllerRef): ControllerSession {
    return this.sessions.get(device.Id) ?? new ControllerSession(this.env, device);
  }

  async openDoor(device: ControllerRef, door: number): Promise<void> {
    if (!this.drives(device.Id))
      return void (await atOwner(this.ownership!, device, { op: 'openDoor', deviceId: device.Id, door }));
    await this.commandSession(device).openDoor(device, door);
    // The remote-open record: pushed when a listener is set, else fetched now rather than at the next poll.
    if (!this.listenAddress) void this.collect(device.Id);
  }

  async setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void> {
    if (!this.drives(device.Id)) {
      const command = { op: 'setDoorMode' as const, deviceId: device.Id, door, mode, delay };
      return void (await atOwner(this.ownership!, device, command));
    }
    await this.commandSession(device).setDoorMode(device, door, mode, delay);
  }

  async readCard(device: ControllerRef, card: number, door: number): Promise<ControllerCardRead> {
    if (!this.drives(device.Id)) {
      const command = { op: 'readCard' as const, deviceId: device.Id, card, door };
      return (await atOwner(this.ownership!, device, command)) as unknown as ControllerCardRead;
    }
    return this.commandSession(device).readCard(device, card, door);
  }

  async setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }> {
    if (!this.drives(device.Id))
      return (await atOwner(this.ownership!, device, { op: 'setTime', deviceId: device.Id })) as {
        driftSeconds: number | null;
      };
    return this.commandSession(device).setTime(device);
  }

  syncNow(device: ControllerRef): void {
    if (!this.drives(device.Id)) {
      // Started there; a failure to reach it is logged (the screen follows the sync state as it does here).
      atOwner(this.ownership!, device, { op: 'syncNow', deviceId: device.Id }).catch((error: unknown) =>
        this.log.warn({ err: error, serial: device.SerialNumber }, 'wg sync now at the driving instance'),
      );
      return;
    }
    this.sessions.begin(device).syncNow();
  }

  /** Stops the loops, ends every session and waits for its passes in flight, closes the sockets. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.loops.stop();
    this.stopServing?.();
    await this.driver.close();
    // What was pushed before the close is stored, not dropped (the poll that would read it again has stopped).
    await this.pushed.flush();
    await this.sessions.endAll();
    // Given up, so the other instances take these controllers at their next round instead of after a term.
    await this.ownership?.devices
      .releaseAll()
      .catch((error: unknown) => this.log.error({ err: error }, 'wg ownership release'));
  }
}
