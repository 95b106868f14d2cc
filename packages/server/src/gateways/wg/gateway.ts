// The WG device gateway (docs/devices.md, "Gateway"): drives the access-control module's WG controllers.
// Started in the house's gateway shape (`wgGateway`, started by buildApp when the config enables it); owns a driver,
// the listener for pushed events, the polling loop (record collection, the watchdog behind pushes) and the
// sync loop (authorisations pending on a controller), and reports to the live hub. Services are called with
// the controller as the actor; the module is reached only through its face.

import {
  DoorControllerError,
  clearSyncBackoff,
  type DoorControllerFailure,
  devicesDueForRules,
  devicesDueForSync,
  saveDeviceState,
  storeControllerRecords,
  storePushedRecords,
  swipeEvent,
  wgControllers,
  type ControllerRecordInput,
  type ControllerRef,
  type DoorControllers,
  type StoredControllerRecord,
} from '../../modules/access-control/index.ts';
import type { Db } from '../../db/database.ts';
import type { Json, OwnedDevices, OwnerCalls, Unsubscribe } from '../../platform/cluster/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import type { GatewayMetrics } from '../../platform/metrics.ts';
import { deviceActor, systemActor, type ServiceContext } from '../../platform/context.ts';
import { doorCount } from '@gatehouse/shared';
import { collectRecords, recordInput } from './collector.ts';
import { checkForgotten, checkRecordRing, controllerOnline, lookAtDoors } from './door-watch.ts';
import { syncRules } from './rules-sync.ts';
import { localAddressFacing } from './local-address.ts';
import { ListenerBindError } from './listener-thread.ts';
import { ConfigError } from '../../config.ts';
import { RecordType } from './constants.ts';
import {
  WgDriver,
  WgError,
  parseHostPort,
  type WgDevice,
  type WgDeviceChange,
  type WgDriverOptions,
  type WgEventFrom,
} from './driver.ts';
import { syncController, type SyncPhase } from './sync.ts';
import { toLocalDateTime } from './time.ts';

/** The live hub as the gateway sees it (tests hand it a recorder). */
export type HubLike = LiveEvents;

export interface GatewayLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WgGatewayOptions {
  db: Db;
  clock: Clock;
  hub?: HubLike;
  log?: GatewayLog;
  /** `WG_LISTEN`: where pushed events arrive ("host:port"); null: no listener, polling only. */
  listen?: string | null;
  /** `WG_ADVERTISE`: the address controllers push to (NAT); default the listener's own, or the local address facing each controller. */
  advertise?: string | null;
  /** seconds between collection polls (the watchdog behind pushes) */
  pollSeconds?: number;
  /** seconds between looks for authorisations waiting for a controller */
  syncSeconds?: number;
  /** minutes between clock-drift readings */
  driftMinutes?: number;
  /** back-off of failed syncs */
  backoff?: { baseMs: number; maxMs: number };
  driver?: WgDriverOptions;
  /** set each controller's listener (0x90) and special-event recording (0x8E) when it first answers */
  configureControllers?: boolean;
  /** seconds between looks at whether a controller forgot its settings (its listener, 0x92) */
  resetCheckSeconds?: number;
  /** seconds a controller stays silent before the door monitor raises its offline alarm */
  offlineAlarmSeconds?: number;
  /**
   * Several instances (docs/deployment.md, "Door controllers across instances"): the controllers this
   * instance drives, shared out by fenced leases, and the calls that carry a command to the instance driving a
   * controller. Without it this gateway drives every controller (one process).
   */
  ownership?: WgOwnership;
  /** Where the records stored are counted (platform/metrics.ts). */
  metrics?: GatewayMetrics;
}

export interface WgOwnership {
  /** Lease kind `wg`, keyed by the controller's id. */
  devices: OwnedDevices;
  owners: OwnerCalls;
  /** ms between ownership rounds (renew, balance): default 5 s, a quarter of the lease term. */
  everyMs?: number;
}

/** The service other instances address door commands to: channel `wg.cmd.<instance id>`. */
export const WG_COMMANDS = 'wg.cmd';
/**
 * How long a caller waits for the driving instance's answer: a command may wait there behind the sync pass in
 * flight to the same controller (docs/devices.md, "Commands"), then for the controller's own tries.
 */
const OWNER_CALL_MS = 40_000;
/**
 * How long the driving instance has to show it is there before the command is sent (owner-calls.ts, a probe):
 * one killed a moment ago still holds its leases and looks live for up to a lease term, and the operator is
 * told at once that nobody drives the controller now instead of waiting out OWNER_CALL_MS (issue 27).
 */
const OWNER_REACH_MS = 1_000;

/** A door command carried to the instance driving the controller. */
type WgCommand =
  | { op: 'openDoor'; deviceId: number; door: number }
  | { op: 'setDoorMode'; deviceId: number; door: number; mode: number; delay: number }
  | { op: 'setTime'; deviceId: number }
  | { op: 'syncNow'; deviceId: number };

/** Its answer: what the command returns there, or why it failed, in the operator's terms. */
type WgCommandReply = { value: Json } | { failure: DoorControllerFailure; message: string };

const noLog: GatewayLog = { info() {}, warn() {}, error() {} };

/**
 * A listener that cannot bind is a setting to change, said in one line naming the port and the setting (the
 * start stops with it: main.ts), not a worker thread's stack trace.
 */
function listenProblem(listen: string, error: unknown): unknown {
  if (!(error instanceof ListenerBindError)) return error;
  const where = `UDP port ${error.port} on ${error.host}`;
  const why =
    error.code === 'EADDRINUSE'
      ? `${where} is already in use (another Gatehouse instance or program listens there)`
      : error.code === 'EADDRNOTAVAIL'
        ? `${error.host} is not an address of this machine`
        : `${where} cannot be listened on (${error.message})`;
  return new ConfigError(
    'WG_LISTEN',
    `${why}; the controllers' pushed events arrive there (WG_LISTEN=${listen}): free it, or set WG_LISTEN to another host:port, or to off for polling only`,
  );
}

/** How long pushed records are gathered before they are stored together: short against a person at a door. */
const PUSH_GATHER_MS = 5;

interface SyncStatus {
  phase: SyncPhase;
  done: number;
  total: number;
}

export class WgGateway implements DoorControllers {
  readonly driver: WgDriver;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly hub: HubLike | undefined;
  private readonly log: GatewayLog;
  private readonly options: WgGatewayOptions;
  /** The controllers this instance drives (all of them in one process; its share of them in a cluster). */
  private controllers = new Map<number, ControllerRef>();
  private bySerial = new Map<number, ControllerRef>();
  private readonly ownership: WgOwnership | undefined;
  private stopServing: Unsubscribe | undefined;
  private readonly collecting = new Map<number, Promise<unknown>>();
  private readonly syncing = new Map<number, Promise<unknown>>();
  /** Pushed records waiting for the next flush, by controller, in arrival order. */
  private readonly pushed = new Map<number, { device: ControllerRef; inputs: ControllerRecordInput[] }>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** controllers to compare in full at the next sync tick (start, back online, sync now, count mismatch) */
  private readonly fullSync = new Set<number>();
  private readonly fullSyncAfter = new Map<number, number>();
  private readonly failedSyncs = new Map<number, number>();
  /** cards each controller held after its last clean sync: a different count means it was cleared */
  private readonly expectedCards = new Map<number, number>();
  private readonly configured = new Set<number>();
  private readonly driftAt = new Map<number, number>();
  /** where each controller's listener was set, and when it was last checked (door-watch.ts checkForgotten) */
  private readonly listenerSet = new Map<number, string>();
  private readonly resetCheckedAt = new Map<number, number>();
  private readonly offlineTimers = new Map<number, NodeJS.Timeout>();
  /** controllers whose next rules pass reads back what it can (sync now) */
  private readonly compareRules = new Set<number>();
  readonly progress = new Map<number, SyncStatus>();
  private listenAddress: { address: string; port: number } | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(driver: WgDriver, options: WgGatewayOptions) {
    this.driver = driver;
    this.db = options.db;
    this.clock = options.clock;
    this.hub = options.hub;
    this.log = options.log ?? noLog;
    this.options = options;
    this.ownership = options.ownership;
  }

  /** Opens the driver (and the listener), installs the door-controller seam and starts both loops. */
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
      gateway.stopServing = owners.serve(WG_COMMANDS, (message) =>
        gateway.serveCommand(message as unknown as WgCommand),
      );
      await owners.ready();
      // This instance's share first, so the first passes drive only what it holds.
      await gateway.ownRound().catch((error: unknown) => gateway.log.error({ err: error }, 'wg ownership'));
      gateway.loop((everyMs ?? 5000) / 1000, () => gateway.ownRound(), everyMs ?? 5000);
    }
    await gateway.refresh();
    for (const id of gateway.controllers.keys()) gateway.fullSync.add(id);
    gateway.loop(options.pollSeconds ?? 5, () => gateway.pollAll());
    gateway.loop(options.syncSeconds ?? 2, () => gateway.syncDue());
    return gateway;
  }

  /** Whether this instance drives the controller now (always in one process). */
  drives(deviceId: number): boolean {
    return !this.ownership || this.ownership.devices.holds(String(deviceId));
  }

  /**
   * One ownership round (OwnedDevices.round): a controller taken is configured afresh (its listener pointed
   * here) and compared in full; a controller lost is let go at once, whatever this instance was doing with it
   * (a pass in flight finds its fence gone and writes nothing more).
   */
  private async ownRound(): Promise<void> {
    const own = this.ownership;
    if (!own || this.closed) return;
    const all = await wgControllers(this.ctx());
    const { taken, lost } = await own.devices.round(all.map((d) => String(d.Id)));
    for (const key of lost) this.letGo(Number(key));
    for (const key of taken) {
      const id = Number(key);
      this.forget(id);
      this.fullSync.add(id);
    }
    if (taken.length + lost.length > 0)
      this.log.info(
        { taken: taken.length, lost: lost.length, held: own.devices.keys().length },
        'wg ownership',
      );
    // The same read of the controllers as the round's: no second query.
    await this.refresh(all);
    for (const key of taken) void this.collect(Number(key));
  }

  /** Stops driving a controller another instance drives from now on. */
  private letGo(deviceId: number): void {
    const device = this.controllers.get(deviceId);
    this.controllers.delete(deviceId);
    if (device) this.bySerial.delete(Number(device.SerialNumber));
    this.forget(deviceId);
  }

  /**
   * Forgets all this instance learnt of a controller (issue 28): what a former tenure learnt (a failed sync's
   * back-off and count, when it last read the drift or checked for a reset) is not true of the next one,
   * since another instance drove the controller meanwhile. Every per-controller map and set is here, so
   * losing and taking a controller clear the same, whole state (a re-taken controller whose last sync had
   * failed waited out that back-off before its full compare).
   */
  private forget(deviceId: number): void {
    const perController: { delete(id: number): unknown }[] = [
      this.configured,
      this.listenerSet,
      this.resetCheckedAt,
      this.expectedCards,
      this.fullSync,
      this.fullSyncAfter,
      this.failedSyncs,
      this.driftAt,
      this.compareRules,
      this.progress,
    ];
    for (const state of perController) state.delete(deviceId);
    clearTimeout(this.offlineTimers.get(deviceId));
    this.offlineTimers.delete(deviceId);
  }

  /** How many controllers it drives now. */
  controllerCount(): number {
    return this.controllers.size;
  }

  /** Where pushed events arrive (the bound listener), if listening. */
  listenerAddress(): { address: string; port: number } | undefined {
    return this.listenAddress;
  }

  private loop(seconds: number, tick: () => Promise<void>, firstMs = 0): void {
    const schedule = (ms: number) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        run();
      }, ms).unref();
      this.timers.add(timer);
    };
    const run = () => {
      if (this.closed) return;
      tick()
        .catch((error: unknown) => this.log.error({ err: error }, 'wg gateway tick'))
        .finally(() => {
          if (!this.closed) schedule(seconds * 1000);
        });
    };
    schedule(firstMs);
  }

  private ctx(device?: ControllerRef): ServiceContext {
    return {
      db: this.db,
      clock: this.clock,
      lang: 'en',
      actor: device ? deviceActor(device.Id, device.Name) : systemActor('wg-gateway'),
      areaId: device?.AreaId,
      // Writes for a controller go behind this instance's lease on it, at the epoch it drives it under now.
      ...(device && this.ownership ? { fence: this.ownership.devices.fence(String(device.Id)) } : {}),
    };
  }

  private wg(device: ControllerRef): WgDevice | undefined {
    if (!device.Ip) return undefined;
    return { serial: Number(device.SerialNumber), host: device.Ip, port: device.Port ?? undefined };
  }

  /** The controllers to drive (new ones, address changes, disabled ones gone), from `all` when the caller just read them. */
  async refresh(all?: ControllerRef[]): Promise<ControllerRef[]> {
    const list = (all ?? (await wgControllers(this.ctx()))).filter((d) => this.drives(d.Id));
    this.controllers = new Map(list.map((d) => [d.Id, d]));
    this.bySerial = new Map(list.map((d) => [Number(d.SerialNumber), d]));
    return list;
  }

  // ---- collection ------------------------------------------------------------------------------------------

  private async pollAll(): Promise<void> {
    const list = await this.refresh();
    await Promise.allSettled(list.map((d) => this.collect(d.Id)));
  }

  /** Collects one controller's new records now (one pass at a time per controller). */
  collect(deviceId: number): Promise<unknown> {
    const running = this.collecting.get(deviceId);
    if (running) return running;
    const task = this.collectOnce(deviceId).finally(() => this.collecting.delete(deviceId));
    this.collecting.set(deviceId, task);
    return task;
  }

  private async collectOnce(deviceId: number): Promise<void> {
    const device = this.controllers.get(deviceId);
    const wg = device && this.wg(device);
    if (!device || !wg || this.closed || !this.drives(deviceId)) return;
    try {
      if (!this.configured.has(device.Id)) await this.configure(device, wg);
      // A record ring that started over is a controller that forgot everything (also while Gatehouse was down).
      const { status, restarted } = await checkRecordRing(this.ctx(device), device, () =>
        this.driver.getStatus(wg),
      );
      if (restarted) await this.forgotten(device, wg, true);
      const result = await collectRecords(this.driver, this.ctx(device), device, wg, {
        onStored: (rows) => this.announce(rows, 'poll'),
      });
      if (result.lost > 0) {
        this.log.warn(
          { serial: device.SerialNumber, lost: result.lost },
          'wg records overwritten before collection',
        );
        this.hub?.publish(device.AreaId, { Type: 'RecordsLost', DeviceId: device.Id, Lost: result.lost });
      }
      await this.watch(device, wg);
      await saveDeviceState(this.ctx(device), device.Id, { Online: 1, LastSeenAt: this.clock.now() });
      await lookAtDoors(this.ctx(device), device, status, doorCount(device.Type), this.hub);
    } catch (error) {
      if (!(error instanceof WgError))
        this.log.error({ err: error, serial: device.SerialNumber }, 'wg collection');
    }
  }

  /** The first exchange with a controller: firmware, where to push events, door events recorded too. */
  private async configure(device: ControllerRef, wg: WgDevice): Promise<void> {
    const info = await this.driver.getDevice(wg);
    // Back after a silence: a listener no longer where it was set is the evidence of a reset, looked at before
    // it is set again (which would erase it).
    await this.forgotten(device, wg);
    const patch: Parameters<typeof saveDeviceState>[2] = { Firmware: info.version };
    const target = this.advertiseFor(device);
    // Given away while the exchange above ran: the new owner points the listener at itself, not to be undone.
    if (!this.drives(device.Id)) return;
    if (target && this.options.configureControllers !== false) {
      try {
        await this.driver.setListener(wg, target.host, target.port);
        patch.ListenerAddress = `${target.host}:${target.port}`;
        this.listenerSet.set(device.Id, patch.ListenerAddress);
        this.resetCheckedAt.set(device.Id, Date.now());
      } catch (error) {
        // A controller refusing the listener is still collected by polling.
        if (!(error instanceof WgError) || error.code !== 'refused') throw error;
        this.log.warn({ serial: device.SerialNumber }, 'wg controller refused the event listener');
      }
      await this.driver.recordSpecialEvents(wg, true).catch(() => {});
    }
    await saveDeviceState(this.ctx(device), device.Id, patch);
    this.configured.add(device.Id);
  }

  /** Clock drift now and then, and a card count that no longer matches (a cleared or replaced controller). */
  private async watch(device: ControllerRef, wg: WgDevice): Promise<void> {
    const now = Date.now();
    if (now - (this.driftAt.get(device.Id) ?? 0) >= (this.options.driftMinutes ?? 10) * 60_000) {
      const { driftSeconds } = await this.driver.clockDrift(wg, device.TimeZone);
      this.driftAt.set(device.Id, now);
      await saveDeviceState(this.ctx(device), device.Id, {
        ClockDriftSeconds: driftSeconds,
        DriftCheckedAt: this.clock.now(),
      });
    }
    if (
      now - (this.resetCheckedAt.get(device.Id) ?? 0) >= (this.options.resetCheckSeconds ?? 30) * 1000 &&
      (await this.forgotten(device, wg))
    )
      return;
    const expected = this.expectedCards.get(device.Id);
    if (expected !== undefined && !this.syncing.has(device.Id)) {
      const count = await this.driver.getCardCount(wg);
      if (count !== expected && !this.syncing.has(device.Id)) {
        this.log.warn({ serial: device.SerialNumber, count, expected }, 'wg card list differs: rebuilding');
        this.expectedCards.delete(device.Id);
        this.fullSync.add(device.Id);
      }
    }
  }

  /** Whether the controller forgot its settings; if so, it is given back its listener, cards and every rule. */
  private async forgotten(device: ControllerRef, wg: WgDevice, ringRestarted = false): Promise<boolean> {
    this.resetCheckedAt.set(device.Id, Date.now());
    const set = this.listenerSet.get(device.Id);
    const ctx = this.ctx(device);
    const evidence = ringRestarted
      ? await checkForgotten(this.driver, ctx, device, wg, set, this.hub, 'record ring started over')
      : await checkForgotten(this.driver, ctx, device, wg, set, this.hub);
    if (!evidence) return false;
    this.log.warn({ serial: device.SerialNumber, evidence }, 'wg controller forgot its settings: restoring');
    this.listenerSet.delete(device.Id);
    this.configured.delete(device.Id);
    this.expectedCards.delete(device.Id);
    this.fullSync.add(device.Id);
    return true;
  }

  private advertiseFor(device: ControllerRef): { host: string; port: number } | undefined {
    if (!this.listenAddress) return undefined;
    if (this.options.advertise) return parseHostPort(this.options.advertise);
    const port = this.listenAddress.port;
    if (this.listenAddress.address !== '0.0.0.0') return { host: this.listenAddress.address, port };
    return { host: localAddressFacing(device.Ip ?? '127.0.0.1'), port };
  }

  private onPushed({ event }: WgEventFrom): void {
    const device = this.bySerial.get(event.serial);
    // A controller not (or no longer) driven here: its new owner points its listener elsewhere and collects it.
    if (
      !device ||
      !this.drives(device.Id) ||
      event.event.type === RecordType.None ||
      event.event.type === RecordType.Overwritten
    )
      return;
    const input = recordInput(event.event, device, this.clock.now());
    if (!input || this.closed) return;
    // Gathered for a few milliseconds and stored together: under a burst from many controllers, one
    // transaction instead of one per datagram (docs/performance.md, "Door controllers at scale").
    const queued = this.pushed.get(device.Id);
    if (queued) queued.inputs.push(input);
    else this.pushed.set(device.Id, { device, inputs: [input] });
    this.flushTimer ??= setTimeout(() => void this.flushPushed(), PUSH_GATHER_MS);
  }

  /** Stores the gathered pushed records; one controller's failure does not hold back the others'. */
  private flushPushed(): Promise<void> {
    this.flushTimer = undefined;
    if (this.pushed.size === 0) return this.flushing;
    const batches = [...this.pushed.values()];
    this.pushed.clear();
    // One flush at a time, in arrival order: a cursor moves only over records stored before it.
    this.flushing = this.flushing.then(async () => {
      try {
        this.announce(
          await storePushedRecords(
            this.ctx(),
            batches.map((b) => ({
              deviceId: b.device.Id,
              inputs: b.inputs,
              fence: this.ctx(b.device).fence,
            })),
          ),
          'push',
        );
      } catch {
        // All or nothing failed: store each controller's own, so a bad one (removed meanwhile, moved out of
        // its area) costs only its records, which the next poll reads again if they are still wanted.
        for (const { device, inputs } of batches)
          await storeControllerRecords(this.ctx(device), device.Id, inputs)
            .then((rows) => this.announce(rows, 'push'))
            .catch((error: unknown) =>
              this.log.error({ err: error, serial: device.SerialNumber }, 'wg pushed event'),
            );
      }
    });
    return this.flushing;
  }

  /** Records just stored: counted, and told to the area's browsers. */
  private announce(rows: StoredControllerRecord[], via: 'push' | 'poll'): void {
    this.options.metrics?.swipesIngested(rows.length, via);
    if (!this.hub) return;
    for (const r of rows) this.hub.publish(r.AreaId, swipeEvent(r));
  }

  private onDeviceChange({ state, previous }: WgDeviceChange): void {
    const device = this.bySerial.get(state.serial);
    if (!device || this.closed) return;
    if (state.online !== previous?.online) {
      if (state.online) {
        // Back (or first seen): point its listener at us again and compare its card list in full.
        this.configured.delete(device.Id);
        this.fullSync.add(device.Id);
      }
      this.doorsOnline(device, state.online);
      this.hub?.publish(device.AreaId, {
        Type: 'DeviceStatus',
        DeviceId: device.Id,
        Online: state.online,
        LastSeenAt: state.lastSeen?.toISOString() ?? null,
        Firmware: state.firmware,
      });
    }
    saveDeviceState(this.ctx(device), device.Id, {
      Online: state.online === null ? null : state.online ? 1 : 0,
      LastSeenAt: state.lastSeen?.getTime() ?? null,
      // The firmware is learnt from 0x94 (configure); a state change before that must not erase it.
      ...(state.firmware ? { Firmware: state.firmware } : {}),
      LastError: state.lastError,
    }).catch((error: unknown) => this.log.error({ err: error }, 'wg device state'));
  }

  /**
   * The door monitor hears of a controller gone silent only once it stayed so for `offlineAlarmSeconds` (a lost
   * reply or two under packet loss is not an outage); of its return at once.
   */
  private doorsOnline(device: ControllerRef, online: boolean | null): void {
    clearTimeout(this.offlineTimers.get(device.Id));
    this.offlineTimers.delete(device.Id);
    const tell = (value: boolean) =>
      controllerOnline(this.ctx(device), device.Id, value, this.hub).catch((error: unknown) =>
        this.log.error({ err: error }, 'wg door monitor'),
      );
    if (online === true) void tell(true);
    if (online !== false) return;
    const timer = setTimeout(
      () => {
        this.offlineTimers.delete(device.Id);
        if (!this.closed && this.driver.state(Number(device.SerialNumber))?.online === false)
          void tell(false);
      },
      (this.options.offlineAlarmSeconds ?? 60) * 1000,
    ).unref();
    this.offlineTimers.set(device.Id, timer);
  }

  // ---- sync ------------------------------------------------------------------------------------------------

  private async syncDue(): Promise<void> {
    if (this.controllers.size === 0) await this.refresh();
    const due = new Set(await devicesDueForSync(this.ctx()));
    for (const id of await devicesDueForRules(this.ctx(), [...this.controllers.keys()])) due.add(id);
    const now = Date.now();
    for (const id of this.fullSync) if ((this.fullSyncAfter.get(id) ?? 0) <= now) due.add(id);
    // A "sync now" not yet served (its pass failed to start) is run at the next round.
    for (const id of this.compareRules) if (this.controllers.has(id)) due.add(id);
    for (const id of due) void this.sync(id);
  }

  /** Runs one sync pass of a controller unless one is running; resolves when it ends. */
  sync(deviceId: number): Promise<unknown> {
    const running = this.syncing.get(deviceId);
    if (running) return running;
    const task = this.syncOnce(deviceId).finally(() => this.syncing.delete(deviceId));
    this.syncing.set(deviceId, task);
    return task;
  }

  private async syncOnce(deviceId: number): Promise<void> {
    const device = this.controllers.get(deviceId);
    const wg = device && this.wg(device);
    if (!device || !wg || this.closed || !this.drives(deviceId)) return;
    // A full pass (start, back online, sync now, after a reset) reads back the rules it can.
    // "Sync now" also writes again what cannot be read back (tasks, interlock, keypads, passcodes).
    const rewrite = this.compareRules.delete(deviceId);
    const compare = this.fullSync.has(deviceId) || rewrite;
    this.fullSync.delete(deviceId);
    const ctx = this.ctx(device);
    const started = this.clock.now();
    let lastReport = 0;
    let progressWritten: Promise<void> = Promise.resolve();
    const report = (phase: SyncPhase, done: number, total: number) => {
      this.progress.set(deviceId, { phase, done, total });
      const t = Date.now();
      if (phase !== 'done' && done !== 0 && done !== total && t - lastReport < 500) return;
      lastReport = t;
      this.hub?.publish(device.AreaId, {
        Type: 'SyncProgress',
        DeviceId: deviceId,
        Phase: phase,
        Done: done,
        Total: total,
      });
      // One after another, and all written before the pass's final state: on PostgreSQL two writes in flight on
      // different connections may commit in either order, and a late "running" would stay after the end.
      progressWritten = progressWritten.then(() =>
        saveDeviceState(ctx, deviceId, {
          SyncState: phase === 'done' ? 'done' : 'running',
          SyncPhase: phase,
          SyncDone: done,
          SyncTotal: total,
        }).catch(() => {}),
      );
    };
    await saveDeviceState(ctx, deviceId, { SyncState: 'running', SyncStartedAt: started, SyncError: null });
    try {
      const backoff = this.options.backoff ?? { baseMs: 2000, maxMs: 300_000 };
      const outcome = await syncController(this.driver, ctx, device, wg, {
        backoff,
        onProgress: report,
        rulesFirst: () =>
          syncRules(this.driver, ctx, device, wg, { backoff, compare, rewrite, hub: this.hub }),
      });
      const failures = outcome.ok ? 0 : (this.failedSyncs.get(deviceId) ?? 0) + 1;
      if (outcome.ok) {
        this.failedSyncs.delete(deviceId);
        this.expectedCards.set(deviceId, outcome.expectedCards);
      } else {
        // The whole controller is compared again later, after a back-off of its own.
        this.failedSyncs.set(deviceId, failures);
        const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 2000, maxMs: 300_000 };
        this.fullSync.add(deviceId);
        this.fullSyncAfter.set(
          deviceId,
          Date.now() + Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 20)),
        );
      }
      this.progress.delete(deviceId);
      await progressWritten;
      await saveDeviceState(ctx, deviceId, {
        SyncState: outcome.ok ? 'done' : 'failed',
        SyncPhase: null,
        SyncFinishedAt: this.clock.now(),
        SyncError: outcome.error,
      });
      this.hub?.publish(device.AreaId, {
        Type: 'SyncProgress',
        DeviceId: deviceId,
        Phase: 'done',
        Ok: outcome.ok,
        Error: outcome.error,
        Issued: outcome.issued,
        Deleted: outcome.confirmedDeleted,
      });
    } catch (error) {
      this.progress.delete(deviceId);
      this.log.error({ err: error, serial: device.SerialNumber }, 'wg sync');
      await progressWritten;
      await saveDeviceState(ctx, deviceId, {
        SyncState: 'failed',
        SyncPhase: null,
        SyncFinishedAt: this.clock.now(),
      }).catch(() => {});
    }
  }

  // ---- DoorControllers: commands from the API --------------------------------------------------------------

  private async command<T>(device: ControllerRef, run: (wg: WgDevice) => Promise<T>): Promise<T> {
    const wg = this.wg(device);
    if (!wg)
      throw new DoorControllerError('noAddress', `controller ${device.SerialNumber} has no IP address`);
    try {
      return await run(wg);
    } catch (error) {
      if (error instanceof WgError) {
        const reason =
          error.code === 'refused' ? 'refused' : error.code === 'offline' ? 'offline' : 'timeout';
        throw new DoorControllerError(reason, error.message);
      }
      throw error;
    }
  }

  async openDoor(device: ControllerRef, door: number): Promise<void> {
    if (!this.drives(device.Id))
      return void (await this.atOwner(device, { op: 'openDoor', deviceId: device.Id, door }));
    await this.command(device, (wg) => this.driver.openDoor(wg, door));
    // The remote-open record: pushed when a listener is set, else fetched now rather than at the next poll.
    if (!this.listenAddress) void this.collect(device.Id);
  }

  async setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void> {
    if (!this.drives(device.Id))
      return void (await this.atOwner(device, { op: 'setDoorMode', deviceId: device.Id, door, mode, delay }));
    await this.command(device, (wg) => this.driver.setDoorControl(wg, door, { mode, delay }));
  }

  async setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }> {
    if (!this.drives(device.Id))
      return (await this.atOwner(device, { op: 'setTime', deviceId: device.Id })) as {
        driftSeconds: number | null;
      };
    return this.command(device, async (wg) => {
      const before = await this.driver.clockDrift(wg, device.TimeZone);
      await this.driver.setTime(wg, toLocalDateTime(new Date(), device.TimeZone));
      const after = await this.driver.clockDrift(wg, device.TimeZone);
      this.driftAt.set(device.Id, Date.now());
      await saveDeviceState(this.ctx(device), device.Id, {
        ClockDriftSeconds: after.driftSeconds,
        DriftCheckedAt: this.clock.now(),
      });
      return { driftSeconds: before.driftSeconds };
    });
  }

  syncNow(device: ControllerRef): void {
    if (!this.drives(device.Id)) {
      // Started there; a failure to reach it is logged (the screen follows the sync state as it does here).
      this.atOwner(device, { op: 'syncNow', deviceId: device.Id }).catch((error: unknown) =>
        this.log.warn({ err: error, serial: device.SerialNumber }, 'wg sync now at the driving instance'),
      );
      return;
    }
    this.controllers.set(device.Id, device);
    this.bySerial.set(Number(device.SerialNumber), device);
    this.fullSyncAfter.delete(device.Id);
    this.failedSyncs.delete(device.Id);
    this.compareRules.add(device.Id);
    // A pass already running planned its work before this request (it took the rewrite flag at its start, or
    // never saw it): "sync now" is a pass that starts after it, so the running one is waited for first. Without
    // the wait the request joined the running pass and the flag stayed set with nothing to run it (CI: a task
    // list emptied behind the gateway's back was not written again while a back-online pass ran).
    clearSyncBackoff(this.ctx(device), device.Id)
      .then(() => this.syncing.get(device.Id)?.catch(() => {}))
      .then(() => this.sync(device.Id))
      .catch((error: unknown) => this.log.error({ err: error }, 'wg sync now'));
  }

  /**
   * A command for a controller another instance drives, carried there over the cluster bus (owner-calls.ts)
   * and answered with what it answered: its value, or its failure in the operator's terms. Nobody driving it
   * (between a death and the takeover, at most a lease term) is said so at once, not sent anywhere: no holder,
   * a holder that is not a live instance, or one that does not answer the reach check. A holder that stops
   * answering while it runs the command is the same case (the controller itself is not to blame).
   */
  private async atOwner(device: ControllerRef, message: WgCommand): Promise<Json> {
    const own = this.ownership!;
    const notDriven = () =>
      new DoorControllerError('notDriven', `no instance drives controller ${device.SerialNumber} now`);
    const holder = await own.devices.holderOf(String(device.Id));
    if (holder === null || holder === own.devices.self) throw notDriven();
    const reply = await own.owners.call(
      WG_COMMANDS,
      holder,
      message as unknown as Json,
      OWNER_CALL_MS,
      OWNER_REACH_MS,
    );
    if (reply.kind === 'gone' || reply.kind === 'noAnswer') throw notDriven();
    if (reply.kind === 'failed') throw new Error(`instance ${holder}: ${reply.detail}`);
    const answer = reply.reply as WgCommandReply;
    if ('failure' in answer) throw new DoorControllerError(answer.failure, answer.message);
    return answer.value;
  }

  /** A command another instance carried here: run on this instance's own driver only (never forwarded again). */
  private async serveCommand(m: WgCommand): Promise<Json> {
    const [device] = await wgControllers(this.ctx(), m.deviceId);
    const reply = async (): Promise<WgCommandReply> => {
      if (!device || !this.drives(device.Id))
        return { failure: 'notDriven', message: `controller ${m.deviceId} is not driven by this instance` };
      switch (m.op) {
        case 'openDoor':
          await this.openDoor(device, m.door);
          return { value: null };
        case 'setDoorMode':
          await this.setDoorMode(device, m.door, m.mode, m.delay);
          return { value: null };
        case 'setTime':
          return { value: await this.setTime(device) };
        case 'syncNow':
          this.syncNow(device);
          return { value: null };
      }
    };
    try {
      return (await reply()) as unknown as Json;
    } catch (error) {
      if (error instanceof DoorControllerError) return { failure: error.reason, message: error.message };
      throw error;
    }
  }

  /** Stops both loops, waits for passes in flight, closes the sockets. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of [...this.timers, ...this.offlineTimers.values()]) clearTimeout(t);
    clearTimeout(this.flushTimer);
    this.stopServing?.();
    await this.driver.close();
    // What was pushed before the close is stored, not dropped (the poll that would read it again has stopped).
    await this.flushPushed();
    await Promise.allSettled([...this.collecting.values(), ...this.syncing.values()]);
    // Given up, so the other instances take these controllers at their next round instead of after a term.
    await this.ownership?.devices
      .releaseAll()
      .catch((error: unknown) => this.log.error({ err: error }, 'wg ownership release'));
  }
}
