// The WG device gateway (docs/devices.md, "Gateway"): drives the access-control module's WG controllers.
// Started in the house's gateway shape (`wgGateway`, started by buildApp when the config enables it); owns a driver,
// the listener for pushed events, the polling loop (record collection, the watchdog behind pushes) and the
// sync loop (authorisations pending on a controller), and reports to the live hub. Services are called with
// the controller as the actor; the module is reached only through its face.

import {
  DoorControllerError,
  clearSyncBackoff,
  devicesDueForRules,
  devicesDueForSync,
  installAlarmEvents,
  installDoorControllers,
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
import type { Clock } from '../../platform/clock.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import { deviceActor, systemActor, type ServiceContext } from '../../platform/context.ts';
import { doorCount } from '@gatehouse/shared';
import { collectRecords, recordInput } from './collector.ts';
import { checkForgotten, checkRecordRing, controllerOnline, lookAtDoors } from './door-watch.ts';
import { syncRules } from './rules-sync.ts';
import { localAddressFacing } from './local-address.ts';
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
}

const noLog: GatewayLog = { info() {}, warn() {}, error() {} };

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
  private controllers = new Map<number, ControllerRef>();
  private bySerial = new Map<number, ControllerRef>();
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
  }

  /** Opens the driver (and the listener), installs the door-controller seam and starts both loops. */
  static async start(options: WgGatewayOptions): Promise<WgGateway> {
    const driver = await WgDriver.open(options.driver);
    const gateway = new WgGateway(driver, options);
    try {
      if (options.listen) gateway.listenAddress = await driver.listen(options.listen);
    } catch (error) {
      await driver.close();
      throw error;
    }
    driver.on('event', (e) => gateway.onPushed(e));
    driver.on('device', (c) => gateway.onDeviceChange(c));
    installDoorControllers(options.db, gateway);
    installAlarmEvents(options.db, options.hub);
    await gateway.refresh();
    for (const id of gateway.controllers.keys()) gateway.fullSync.add(id);
    gateway.loop(options.pollSeconds ?? 5, () => gateway.pollAll());
    gateway.loop(options.syncSeconds ?? 2, () => gateway.syncDue());
    return gateway;
  }

  /** How many controllers it drives now. */
  controllerCount(): number {
    return this.controllers.size;
  }

  /** Where pushed events arrive (the bound listener), if listening. */
  listenerAddress(): { address: string; port: number } | undefined {
    return this.listenAddress;
  }

  private loop(seconds: number, tick: () => Promise<void>): void {
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
    schedule(0);
  }

  private ctx(device?: ControllerRef): ServiceContext {
    return {
      db: this.db,
      clock: this.clock,
      lang: 'en',
      actor: device ? deviceActor(device.Id, device.Name) : systemActor('wg-gateway'),
      areaId: device?.AreaId,
    };
  }

  private wg(device: ControllerRef): WgDevice | undefined {
    if (!device.Ip) return undefined;
    return { serial: Number(device.SerialNumber), host: device.Ip, port: device.Port ?? undefined };
  }

  /** Reads the controllers to drive from the database (new ones, address changes, disabled ones gone). */
  async refresh(): Promise<ControllerRef[]> {
    const list = await wgControllers(this.ctx());
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
    if (!device || !wg || this.closed) return;
    try {
      if (!this.configured.has(device.Id)) await this.configure(device, wg);
      const status = await this.driver.getStatus(wg);
      // A record ring that started over is a controller that forgot everything (also while Gatehouse was down).
      if (await checkRecordRing(this.ctx(device), device, status)) await this.forgotten(device, wg, true);
      const result = await collectRecords(this.driver, this.ctx(device), device, wg, {
        onStored: (rows) => this.announce(rows),
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
    if (!device || event.event.type === RecordType.None || event.event.type === RecordType.Overwritten)
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
            batches.map((b) => ({ deviceId: b.device.Id, inputs: b.inputs })),
          ),
        );
      } catch {
        // All or nothing failed: store each controller's own, so a bad one (removed meanwhile, moved out of
        // its area) costs only its records, which the next poll reads again if they are still wanted.
        for (const { device, inputs } of batches)
          await storeControllerRecords(this.ctx(device), device.Id, inputs)
            .then((rows) => this.announce(rows))
            .catch((error: unknown) =>
              this.log.error({ err: error, serial: device.SerialNumber }, 'wg pushed event'),
            );
      }
    });
    return this.flushing;
  }

  private announce(rows: StoredControllerRecord[]): void {
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
    if (!device || !wg || this.closed) return;
    // A full pass (start, back online, sync now, after a reset) reads back the rules it can.
    // "Sync now" also writes again what cannot be read back (tasks, interlock, keypads, passcodes).
    const rewrite = this.compareRules.delete(deviceId);
    const compare = this.fullSync.has(deviceId) || rewrite;
    this.fullSync.delete(deviceId);
    const ctx = this.ctx(device);
    const started = this.clock.now();
    let lastReport = 0;
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
      saveDeviceState(ctx, deviceId, {
        SyncState: phase === 'done' ? 'done' : 'running',
        SyncPhase: phase,
        SyncDone: done,
        SyncTotal: total,
      }).catch(() => {});
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
    await this.command(device, (wg) => this.driver.openDoor(wg, door));
    // The remote-open record: pushed when a listener is set, else fetched now rather than at the next poll.
    if (!this.listenAddress) void this.collect(device.Id);
  }

  async setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void> {
    await this.command(device, (wg) => this.driver.setDoorControl(wg, door, { mode, delay }));
  }

  async setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }> {
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
    this.controllers.set(device.Id, device);
    this.bySerial.set(Number(device.SerialNumber), device);
    this.fullSyncAfter.delete(device.Id);
    this.failedSyncs.delete(device.Id);
    this.compareRules.add(device.Id);
    clearSyncBackoff(this.ctx(device), device.Id)
      .then(() => this.sync(device.Id))
      .catch((error: unknown) => this.log.error({ err: error }, 'wg sync now'));
  }

  /** Stops both loops, waits for passes in flight, closes the sockets. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of [...this.timers, ...this.offlineTimers.values()]) clearTimeout(t);
    clearTimeout(this.flushTimer);
    installDoorControllers(this.db, undefined);
    installAlarmEvents(this.db, undefined);
    await this.driver.close();
    // What was pushed before the close is stored, not dropped (the poll that would read it again has stopped).
    await this.flushPushed();
    await Promise.allSettled([...this.collecting.values(), ...this.syncing.values()]);
  }
}
