// One driven WG controller's session (issue 28): all this instance knows of the controller while it drives it,
// and its collect, sync and command work. The gateway (gateway.ts) creates one when it starts driving a
// controller (its lease taken; in one process, the controller listed) and disposes of it as a whole when it
// stops (the lease lost, the controller gone): a later tenure starts from a new session, so nothing a former
// tenure learnt (a failed sync's back-off and count, the drift and reset-check times, the cards expected) is
// taken for true of a controller another instance drove meanwhile.

import {
  DoorControllerError,
  clearSyncBackoff,
  holdController,
  lockdownHoldMode,
  saveDeviceState,
  type ControllerCardRead,
  type ControllerRef,
  type StoredControllerRecord,
} from '../../modules/access-control/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { doorCount } from '@gatehouse/shared';
import { readCardAt } from './card-read.ts';
import { collectRecords } from './collector.ts';
import { checkForgotten, checkRecordRing, controllerOnline, lookAtDoors } from './door-watch.ts';
import { WgError, type WgDevice, type WgDeviceChange, type WgDriver } from './driver.ts';
import { advertiseFor } from './local-address.ts';
import {
  DEFAULT_BACKOFF,
  logControllerFailure,
  type GatewayLog,
  type HubLike,
  type WgGatewayOptions,
} from './options.ts';
import { runSyncPass, type SyncStatus } from './session-sync.ts';
import { toLocalDateTime } from './time.ts';

/** What a session uses of the gateway that holds it: shared by every session, owned by none. */
export interface SessionEnv {
  readonly driver: WgDriver;
  readonly hub: HubLike | undefined;
  readonly log: GatewayLog;
  readonly options: WgGatewayOptions;
  /** A context for the controller's writes (its actor, its area, this instance's lease on it). */
  ctx(device: ControllerRef): ServiceContext;
  /** Whether this instance drives the controller now (its lease may lapse before the session is disposed). */
  drives(deviceId: number): boolean;
  /** The gateway closed: no new pass starts. */
  closed(): boolean;
  /** Where pushed events arrive, if listening. */
  listening(): { address: string; port: number } | undefined;
  /** Records just stored: counted, and told to the area's browsers. */
  announce(rows: StoredControllerRecord[], via: 'push' | 'poll'): void;
}

export class ControllerSession {
  /** The controller as last read (its address, zone and area may change while it is driven). */
  device: ControllerRef;
  private readonly env: SessionEnv;
  /** The passes of the session before this one, still winding down: this one's first pass waits for them. */
  private readonly previous: Promise<unknown>;
  private collecting: Promise<unknown> | undefined;
  private syncing: Promise<unknown> | undefined;
  /** Compare in full at the next sync round (start of the session, back online, sync now, count mismatch). */
  private fullSync = true;
  private fullSyncAfter = 0;
  private failedSyncs = 0;
  /** Its next rules pass also writes again what cannot be read back (sync now). */
  private compareRules = false;
  /** Cards it held after its last clean sync: a different count means it was cleared. */
  private expectedCards: number | undefined;
  private configured = false;
  private driftAt = 0;
  /** Where its listener was set, and when it was last checked (door-watch.ts checkForgotten). */
  private listenerSet: string | undefined;
  private resetCheckedAt = 0;
  private offlineTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** The sync pass in flight, for the screens. */
  progress: SyncStatus | undefined;

  constructor(env: SessionEnv, device: ControllerRef, previous: Promise<unknown> = Promise.resolve()) {
    this.env = env;
    this.device = device;
    this.previous = previous;
  }

  get id(): number {
    return this.device.Id;
  }

  private get ctx(): ServiceContext {
    return this.env.ctx(this.device);
  }

  private wg(): WgDevice | undefined {
    return wgDevice(this.device);
  }

  /** Whether a pass may start: the session live, the gateway open, the controller still driven here. */
  private active(): boolean {
    return !this.disposed && !this.env.closed() && this.env.drives(this.id);
  }

  /**
   * Ends the session: no timer of it fires again. Passes in flight run to their end (a write of theirs finds
   * the lease gone and is refused); what they learn stays in this object, which nobody reads any more.
   * Resolves when they have ended, for the next session of the controller to wait on.
   */
  dispose(): Promise<unknown> {
    this.disposed = true;
    clearTimeout(this.offlineTimer);
    this.offlineTimer = undefined;
    return this.settled();
  }

  /** The passes in flight, ended either way. */
  settled(): Promise<unknown> {
    return Promise.allSettled([this.previous, this.collecting, this.syncing]);
  }

  // ---- collection ------------------------------------------------------------------------------------------

  /** Collects its new records now (one pass at a time); resolves when the pass ends. */
  collect(): Promise<unknown> {
    return this.onePass('collecting', () => this.collectOnce());
  }

  /**
   * One pass of a kind at a time, after the former session's have ended: a call while one runs gets that one.
   */
  private onePass(kind: 'collecting' | 'syncing', run: () => Promise<void>): Promise<unknown> {
    const running = this[kind];
    if (running) return running;
    const task = this.previous.then(run).finally(() => {
      this[kind] = undefined;
    });
    this[kind] = task;
    return task;
  }

  private async collectOnce(): Promise<void> {
    const device = this.device;
    const wg = this.wg();
    if (!wg || !this.active()) return;
    const { driver } = this.env;
    try {
      if (!this.configured) await this.configure(wg);
      // A record ring that started over is a controller that forgot everything (also while Gatehouse was down).
      const { status, restarted } = await checkRecordRing(this.ctx, device, () => driver.getStatus(wg));
      if (restarted) await this.forgotten(wg, true);
      const result = await collectRecords(driver, this.ctx, device, wg, {
        onStored: (rows) => this.env.announce(rows, 'poll'),
      });
      if (result.lost > 0) {
        this.env.log.warn(
          { serial: device.SerialNumber, lost: result.lost },
          'wg records overwritten before collection',
        );
        this.env.hub?.publish(device.AreaId, { Type: 'RecordsLost', DeviceId: device.Id, Lost: result.lost });
      }
      await this.watch(wg);
      await saveDeviceState(this.ctx, device.Id, { Online: 1, LastSeenAt: this.ctx.clock.now() });
      await lookAtDoors(this.ctx, device, status, doorCount(device.Type), this.env.hub);
    } catch (error) {
      if (!(error instanceof WgError))
        logControllerFailure(this.env.log, error, device.SerialNumber, 'wg collection');
    }
  }

  /** The first exchange with the controller: firmware, where to push events, door events recorded too. */
  private async configure(wg: WgDevice): Promise<void> {
    const { driver, options } = this.env;
    const device = this.device;
    const info = await driver.getDevice(wg);
    // Back after a silence: a listener no longer where it was set is the evidence of a reset, looked at before
    // it is set again (which would erase it).
    await this.forgotten(wg);
    const patch: Parameters<typeof saveDeviceState>[2] = { Firmware: info.version };
    const target = advertiseFor(this.env.listening(), options.advertise, device.Ip);
    // Given away while the exchange above ran: the new owner points the listener at itself, not to be undone.
    if (!this.env.drives(device.Id)) return;
    if (target && options.configureControllers !== false) {
      try {
        await driver.setListener(wg, target.host, target.port);
        patch.ListenerAddress = `${target.host}:${target.port}`;
        this.listenerSet = patch.ListenerAddress;
        this.resetCheckedAt = Date.now();
      } catch (error) {
        // A controller refusing the listener is still collected by polling.
        if (!(error instanceof WgError) || error.code !== 'refused') throw error;
        this.env.log.warn({ serial: device.SerialNumber }, 'wg controller refused the event listener');
      }
      await driver.recordSpecialEvents(wg, true).catch(() => {});
    }
    await saveDeviceState(this.ctx, device.Id, patch);
    this.configured = true;
  }

  /** Clock drift now and then, and a card count that no longer matches (a cleared or replaced controller). */
  private async watch(wg: WgDevice): Promise<void> {
    const { driver, options } = this.env;
    const device = this.device;
    const now = Date.now();
    if (now - this.driftAt >= (options.driftMinutes ?? 10) * 60_000) {
      const { driftSeconds } = await driver.clockDrift(wg, device.TimeZone);
      this.driftAt = now;
      await saveDeviceState(this.ctx, device.Id, {
        ClockDriftSeconds: driftSeconds,
        DriftCheckedAt: this.ctx.clock.now(),
      });
    }
    if (now - this.resetCheckedAt >= (options.resetCheckSeconds ?? 30) * 1000 && (await this.forgotten(wg)))
      return;
    if (await this.lockdownBroken(wg)) return;
    const expected = this.expectedCards;
    if (expected !== undefined && !this.syncing) {
      const count = await driver.getCardCount(wg);
      if (count !== expected && !this.syncing) {
        this.env.log.warn(
          { serial: device.SerialNumber, count, expected },
          'wg card list differs: rebuilding',
        );
        this.expectedCards = undefined;
        this.fullSync = true;
      }
    }
  }

  /**
   * While its area is locked down or evacuated, every door is read back (0x82) at each poll: a door no longer in
   * the lockdown's mode (the controller reset, or another tool set it) calls for a full pass now, which holds it
   * again, instead of waiting for the next look at whether the controller forgot its settings.
   */
  private async lockdownBroken(wg: WgDevice): Promise<boolean> {
    if (this.syncing) return false;
    const mode = await lockdownHoldMode(this.ctx.db.kysely, this.device.AreaId);
    if (mode === null) return false;
    for (let door = 1; door <= doorCount(this.device.Type); door++) {
      if ((await this.env.driver.getDoorControl(wg, door)).mode === mode) continue;
      this.env.log.warn(
        { serial: this.device.SerialNumber, door },
        'wg door left the lockdown: holding it again',
      );
      await holdController(this.ctx, this.device.Id);
      this.fullSync = true;
      this.fullSyncAfter = 0;
      return true;
    }
    return false;
  }

  /** Whether the controller forgot its settings; if so, it is given back its listener, cards and every rule. */
  private async forgotten(wg: WgDevice, ringRestarted = false): Promise<boolean> {
    const { driver, hub, log } = this.env;
    const device = this.device;
    this.resetCheckedAt = Date.now();
    const set = this.listenerSet;
    const ctx = this.ctx;
    const evidence = ringRestarted
      ? await checkForgotten(driver, ctx, device, wg, set, hub, 'record ring started over')
      : await checkForgotten(driver, ctx, device, wg, set, hub);
    if (!evidence) return false;
    log.warn({ serial: device.SerialNumber, evidence }, 'wg controller forgot its settings: restoring');
    this.listenerSet = undefined;
    this.configured = false;
    this.expectedCards = undefined;
    this.fullSync = true;
    return true;
  }

  // ---- its state as the driver sees it ---------------------------------------------------------------------

  /** The driver's view of the controller changed (answers, silence, firmware). */
  deviceChanged({ state, previous }: WgDeviceChange): void {
    const device = this.device;
    if (state.online !== previous?.online) {
      if (state.online) {
        // Back (or first seen): point its listener at us again and compare its card list in full, now: the
        // back-off its failed passes earned was for a controller that did not answer, and what it missed (an area's
        // lockdown above all) is due as soon as it answers.
        this.configured = false;
        this.fullSync = true;
        this.fullSyncAfter = 0;
        this.failedSyncs = 0;
      }
      this.doorsOnline(state.online);
      this.env.hub?.publish(device.AreaId, {
        Type: 'DeviceStatus',
        DeviceId: device.Id,
        Online: state.online,
        LastSeenAt: state.lastSeen?.toISOString() ?? null,
        Firmware: state.firmware,
      });
    }
    saveDeviceState(this.ctx, device.Id, {
      Online: state.online === null ? null : state.online ? 1 : 0,
      LastSeenAt: state.lastSeen?.getTime() ?? null,
      // The firmware is learnt from 0x94 (configure); a state change before that must not erase it.
      ...(state.firmware ? { Firmware: state.firmware } : {}),
      LastError: state.lastError,
    }).catch((error: unknown) =>
      logControllerFailure(this.env.log, error, device.SerialNumber, 'wg device state'),
    );
  }

  /**
   * The door monitor hears of a controller gone silent only once it stayed so for `offlineAlarmSeconds` (a lost
   * reply or two under packet loss is not an outage); of its return at once.
   */
  private doorsOnline(online: boolean | null): void {
    clearTimeout(this.offlineTimer);
    this.offlineTimer = undefined;
    const device = this.device;
    const tell = (value: boolean) =>
      controllerOnline(this.ctx, device.Id, value, this.env.hub).catch((error: unknown) =>
        this.env.log.error({ err: error }, 'wg door monitor'),
      );
    if (online === true) void tell(true);
    if (online !== false || this.disposed) return;
    this.offlineTimer = setTimeout(
      () => {
        this.offlineTimer = undefined;
        if (!this.env.closed() && this.env.driver.state(Number(device.SerialNumber))?.online === false)
          void tell(false);
      },
      (this.env.options.offlineAlarmSeconds ?? 60) * 1000,
    ).unref();
  }

  // ---- sync ------------------------------------------------------------------------------------------------

  /** Whether the sync round should run a pass now: a full compare whose back-off is over, or a sync now. */
  syncWanted(now: number): boolean {
    return (this.fullSync && this.fullSyncAfter <= now) || this.compareRules;
  }

  /** Runs one sync pass unless one is running; resolves when it ends. */
  sync(): Promise<unknown> {
    return this.onePass('syncing', () => this.syncOnce());
  }

  private async syncOnce(): Promise<void> {
    const device = this.device;
    const wg = this.wg();
    if (!wg || !this.active()) return;
    // A full pass (start, back online, sync now, after a reset) reads back the rules it can.
    // "Sync now" also writes again what cannot be read back (tasks, interlock, keypads, passcodes).
    const rewrite = this.compareRules;
    this.compareRules = false;
    const compare = this.fullSync || rewrite;
    this.fullSync = false;
    await runSyncPass(this.env, device, wg, this.ctx, {
      compare,
      rewrite,
      progress: (status) => (this.progress = status),
      ended: (ok, expectedCards) => this.syncEnded(ok, expectedCards),
    });
  }

  /** A pass ended: its card count kept, or the whole controller compared again after a back-off of its own. */
  private syncEnded(ok: boolean, expectedCards: number): void {
    this.progress = undefined;
    if (ok) {
      this.failedSyncs = 0;
      this.expectedCards = expectedCards;
      return;
    }
    this.failedSyncs += 1;
    const { baseMs, maxMs } = this.env.options.backoff ?? DEFAULT_BACKOFF;
    this.fullSync = true;
    this.fullSyncAfter = Date.now() + Math.min(maxMs, baseMs * 2 ** Math.min(this.failedSyncs - 1, 20));
  }

  // ---- commands from the API -------------------------------------------------------------------------------

  /**
   * A command for the controller as the caller read it just now (`device`: its address may be newer than the
   * session's), its failure said in the operator's terms.
   */
  private async command<T>(device: ControllerRef, run: (wg: WgDevice) => Promise<T>): Promise<T> {
    const wg = wgDevice(device);
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
    await this.command(device, (wg) => this.env.driver.openDoor(wg, door));
  }

  async setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void> {
    await this.command(device, (wg) => this.env.driver.setDoorControl(wg, door, { mode, delay }));
  }

  /** An access check's read of one card at one door (card-read.ts): nothing written, failures in the operator's terms. */
  readCard(device: ControllerRef, card: number, door: number): Promise<ControllerCardRead> {
    return this.command(device, (wg) => readCardAt(this.env.driver, wg, device, card, door));
  }

  async setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }> {
    const { driver } = this.env;
    return this.command(device, async (wg) => {
      const before = await driver.clockDrift(wg, device.TimeZone);
      await driver.setTime(wg, toLocalDateTime(new Date(), device.TimeZone));
      const after = await driver.clockDrift(wg, device.TimeZone);
      this.driftAt = Date.now();
      await saveDeviceState(this.env.ctx(device), device.Id, {
        ClockDriftSeconds: after.driftSeconds,
        DriftCheckedAt: this.ctx.clock.now(),
      });
      return { driftSeconds: before.driftSeconds };
    });
  }

  /** "Sync now": a pass that compares everything and writes again what cannot be read back, with no back-off. */
  syncNow(): void {
    this.fullSyncAfter = 0;
    this.failedSyncs = 0;
    this.compareRules = true;
    // A pass already running planned its work before this request (it took the rewrite flag at its start, or
    // never saw it): "sync now" is a pass that starts after it, so the running one is waited for first. Without
    // the wait the request joined the running pass and the flag stayed set with nothing to run it (CI: a task
    // list emptied behind the gateway's back was not written again while a back-online pass ran).
    clearSyncBackoff(this.ctx, this.id)
      .then(() => this.syncing?.catch(() => {}))
      .then(() => this.sync())
      .catch((error: unknown) => this.env.log.error({ err: error }, 'wg sync now'));
  }
}

/** Where the driver reaches a controller; none without an address. */
function wgDevice(device: ControllerRef): WgDevice | undefined {
  if (!device.Ip) return undefined;
  return { serial: Number(device.SerialNumber), host: device.Ip, port: device.Port ?? undefined };
}
