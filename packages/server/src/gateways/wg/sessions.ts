// The WG gateway's registry of controller sessions (session.ts): one per controller driven now, found by its id
// or by the serial number its datagrams carry. A session ended is gone from here at once; the next session of
// the same controller starts clean and waits for the passes of the ended one to wind down before its first.

import type { ControllerRef } from '../../modules/access-control/index.ts';
import { ControllerSession, type SessionEnv } from './session.ts';
import type { SyncStatus } from './session-sync.ts';

export class SessionRegistry {
  private readonly env: SessionEnv;
  private readonly byId = new Map<number, ControllerSession>();
  private readonly bySerial = new Map<number, ControllerSession>();
  /** Sessions ended whose passes are still winding down, by controller. */
  private readonly ending = new Map<number, Promise<unknown>>();

  constructor(env: SessionEnv) {
    this.env = env;
  }

  get size(): number {
    return this.byId.size;
  }

  get(deviceId: number): ControllerSession | undefined {
    return this.byId.get(deviceId);
  }

  /** The session of the controller with this serial number (a pushed datagram, a change of its state). */
  ofSerial(serial: number): ControllerSession | undefined {
    return this.bySerial.get(serial);
  }

  ids(): number[] {
    return [...this.byId.keys()];
  }

  all(): ControllerSession[] {
    return [...this.byId.values()];
  }

  /** The controller's session, begun if it has none; its reference updated to `device` (address, zone, area). */
  begin(device: ControllerRef): ControllerSession {
    let session = this.byId.get(device.Id);
    if (!session) {
      session = new ControllerSession(this.env, device, this.ending.get(device.Id));
      this.byId.set(device.Id, session);
    } else this.unlistSerial(session);
    session.device = device;
    this.bySerial.set(Number(device.SerialNumber), session);
    return session;
  }

  /** Ends the controller's session, if any: all it knew of the controller goes with it. */
  end(deviceId: number): void {
    const session = this.byId.get(deviceId);
    if (!session) return;
    this.byId.delete(deviceId);
    this.unlistSerial(session);
    const ended = session.dispose().finally(() => {
      if (this.ending.get(deviceId) === ended) this.ending.delete(deviceId);
    });
    this.ending.set(deviceId, ended);
  }

  /** Ends every session but those of `driven`. */
  keepOnly(driven: ReadonlySet<number>): void {
    for (const id of this.ids()) if (!driven.has(id)) this.end(id);
  }

  /** Ends every session; resolves once their passes have ended. */
  async endAll(): Promise<void> {
    for (const id of this.ids()) this.end(id);
    await Promise.allSettled([...this.ending.values()]);
  }

  /** The sync passes in flight, by controller (for the screens). */
  progress(): Map<number, SyncStatus> {
    const passes = new Map<number, SyncStatus>();
    for (const [id, s] of this.byId) if (s.progress) passes.set(id, s.progress);
    return passes;
  }

  private unlistSerial(session: ControllerSession): void {
    const serial = Number(session.device.SerialNumber);
    if (this.bySerial.get(serial) === session) this.bySerial.delete(serial);
  }
}
