import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { STOP_REASON } from '@gatehouse/shared';
import { RPCServer } from 'ocpp-rpc';
import type { Db } from '../../db/database.ts';
import {
  chargePointConnected,
  chargePointDisconnected,
  closeUnconfirmedSessions,
  endSessionsOfLostHost,
  hostsLostPastGrace,
  releaseChargePoints,
  storeChargerConfiguration,
  type ConfigurationPass,
} from '../../modules/garage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { GatewayMetrics } from '../../platform/metrics.ts';
import { systemActor, type AreaContext } from '../../platform/context.ts';
import { authenticateChargePoint } from './auth.ts';
import { configurationPass } from './configuration.ts';
import {
  ChargePointOfflineError,
  callChargePoint,
  deviceContext,
  type ChargePointClient,
  type Connection,
} from './connection.ts';
import type { OcppEvents } from './events.ts';
import { registerHandlers, type HandlerDeps } from './handlers.ts';
import type { OutboundActions } from './messages.gen.ts';
import { MISSED_HEARTBEATS, isOcppPath } from './protocol.ts';
import { registerTransactionHandlers } from './transactions.ts';

export interface CentralSystemOptions {
  db: Db;
  /** This instance (config.instanceId): the charge points it holds are marked with it. */
  instanceId: string;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Heartbeat interval given in BootNotification.conf (seconds). */
  heartbeatSeconds?: number;
  /** Timeout of calls Gatehouse makes to a charge point (ms). */
  callTimeoutMs?: number;
  /** How long a host may stay offline before its running sessions are closed as power failure (seconds). */
  offlineGraceSeconds?: number;
  /** How long a "free" report may stand beside a running session before it closes unconfirmed (ms). */
  unconfirmedWaitMs?: number;
  /**
   * Whether this central system closes the sessions of hosts offline past the grace itself (default). With
   * several instances that sweep runs once across the cluster instead (index.ts: singleton `ocpp-lost-sessions`).
   */
  sweepLostSessions?: boolean;
  /** Where the calls exchanged with charge points are counted, by action (platform/metrics.ts). */
  metrics?: GatewayMetrics;
  /** Run a configuration pass after every accepted BootNotification (default; configuration.ts). */
  configureOnBoot?: boolean;
}

/**
 * Gatehouse as an OCPP 1.6J central system (docs/chargers.md): an ocpp-rpc server in strict mode (every call
 * and answer in either direction is checked against the official 1.6 JSON schemas), sharing the app's HTTP
 * server. Charge points are the charging hosts of type "a charging API", identified by serial number and a
 * Basic-auth password.
 *
 * Events (see events.ts) let the live hub and the session layer follow connections and socket states.
 */
export class CentralSystem extends EventEmitter<OcppEvents> {
  readonly rpc: RPCServer;
  readonly heartbeatSeconds: number;
  readonly offlineGraceSeconds: number;
  private readonly connections = new Map<number, Connection>();
  /** The configuration pass running on a connection, so the next one waits for it (never two at once). */
  private readonly configuring = new WeakMap<Connection, Promise<unknown>>();
  private detach: (() => void) | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: CentralSystemOptions) {
    super();
    this.heartbeatSeconds = options.heartbeatSeconds ?? 60;
    this.offlineGraceSeconds = options.offlineGraceSeconds ?? 600;
    this.rpc = new RPCServer({
      protocols: ['ocpp1.6'],
      strictMode: true,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
    });
    this.rpc.auth((accept, reject, handshake) => {
      void authenticateChargePoint(
        options.db,
        handshake.endpoint,
        handshake.identity,
        handshake.password,
      ).then(
        (result) => {
          if (result.ok) return accept(result.session, 'ocpp1.6');
          // One answer for every refusal (unknown id, wrong password, disabled, not an OCPP host): a
          // scanner learns nothing about which serials exist. The log says why.
          options.log.info(
            { chargePoint: handshake.identity, reason: result.reason, remote: handshake.remoteAddress },
            'ocpp handshake refused',
          );
          reject(401, 'Unauthorized');
        },
        (error: unknown) => {
          options.log.error({ err: error, chargePoint: handshake.identity }, 'ocpp handshake failed');
          reject(500, 'Internal Server Error');
        },
      );
    });
    this.rpc.on('client', (client: unknown) => this.onClient(client as ChargePointClient));
    this.rpc.on('error', (error: unknown) => options.log.error({ err: error }, 'ocpp server error'));
  }

  /**
   * At start no charge point is connected here, whatever the database says from before a restart: every host
   * this instance held is offline from its last sign of life until its charge point connects again (hosts
   * other instances hold are theirs).
   */
  async start(): Promise<void> {
    // Silence is checked every interval; the grace period of offline hosts at least every 30 s.
    this.sweeper = setInterval(
      () => {
        this.sweep();
        if (this.options.sweepLostSessions !== false)
          this.closeLostSessions().catch((error: unknown) =>
            this.options.log.error({ err: error }, 'ocpp: closing sessions of offline hosts failed'),
          );
        this.reconcileSessions().catch((error: unknown) =>
          this.options.log.error({ err: error }, 'ocpp: reconciling sessions failed'),
        );
      },
      Math.min(this.heartbeatSeconds, 30) * 1000,
    );
    this.sweeper.unref();
    await releaseChargePoints(this.options.db, this.options.instanceId, this.options.clock.now());
  }

  /**
   * Liveness (docs/chargers.md): sessions still running on a host offline for longer than the grace period are
   * closed as power failure (stop reason 5), at its last sign of life, with the energy last reported. Marked
   * provisional: the device's own StopTransaction after a reconnect corrects them once. Hosts never
   * connected (OcppOfflineAt null) are left alone: nothing tells when they stopped. Public so tests with a
   * manual clock can run it. Returns the sessions closed.
   */
  async closeLostSessions(): Promise<number[]> {
    const now = this.options.clock.now();
    const hosts = await hostsLostPastGrace(this.options.db, now, this.offlineGraceSeconds * 1000);
    const closed: number[] = [];
    for (const host of hosts) {
      if (this.connections.has(host.hostId)) continue;
      const ctx = this.systemContext(host.areaId, 'ocpp liveness');
      const sessions = await endSessionsOfLostHost(ctx, host.hostId, host.offlineAt);
      for (const s of sessions) {
        closed.push(s.recordId);
        this.emit('sessionEnded', {
          ...host,
          at: now,
          socketId: s.socketId,
          portNumber: s.portNumber,
          recordId: s.recordId,
          orderId: s.orderId,
          amountCents: s.amountCents,
          energyWh: s.energyWh,
          stopReason: STOP_REASON.powerFailure,
          powerOffRecordIds: [],
        });
      }
      if (sessions.length > 0) {
        this.options.log.info(
          { chargePoint: host.serial, sessions: sessions.map((s) => s.recordId) },
          'ocpp: sessions of an offline host closed as power failure',
        );
      }
    }
    return closed;
  }

  /**
   * Reconciliation (docs/chargers.md): sessions a connected charge point of this instance reported free, with
   * no StopTransaction in the wait, are closed as "ended, not confirmed by the charger". Public so tests with
   * a manual clock can run it. Returns the sessions closed.
   */
  async reconcileSessions(): Promise<number[]> {
    const now = this.options.clock.now();
    const closed = await closeUnconfirmedSessions(
      this.options.db,
      this.options.instanceId,
      now,
      this.options.unconfirmedWaitMs,
    );
    for (const s of closed) {
      this.emit('sessionEnded', {
        hostId: s.hostId,
        areaId: s.areaId,
        serial: s.serial,
        at: now,
        socketId: s.socketId,
        portNumber: s.portNumber,
        recordId: s.recordId,
        orderId: s.orderId,
        amountCents: s.amountCents,
        energyWh: s.energyWh,
        stopReason: STOP_REASON.unconfirmed,
        powerOffRecordIds: [],
      });
      this.options.log.warn(
        { chargePoint: s.serial, recordId: s.recordId },
        'ocpp: a session the charger reported free closed unconfirmed',
      );
    }
    return closed.map((s) => s.recordId);
  }

  private systemContext(areaId: number, name: string): AreaContext {
    return { db: this.options.db, clock: this.options.clock, lang: 'en', actor: systemActor(name), areaId };
  }

  /**
   * Closes the connections of charge points silent for MISSED_HEARTBEATS heartbeat intervals (WebSocket
   * pings keep a dead TCP connection from lingering, but a charger can stay connected and stop talking).
   * Runs every interval; public so tests with a manual clock can run it. Returns the hosts closed.
   */
  sweep(): number[] {
    const limit = this.options.clock.now() - MISSED_HEARTBEATS * this.heartbeatSeconds * 1000;
    const silent = [...this.connections.values()].filter((c) => c.lastSeenAt < limit);
    for (const connection of silent) {
      this.options.log.info({ chargePoint: connection.serial }, 'ocpp: no message for 3 heartbeat intervals');
      this.drop(connection);
      void connection.client.close({ code: 1001, reason: 'no heartbeat', force: true });
    }
    return silent.map((c) => c.hostId);
  }

  /**
   * Takes the WebSocket upgrades of `/ocpp/…` on the HTTP server and leaves every other upgrade (the live
   * hub of @fastify/websocket) to the listeners already there. Node's 'upgrade' event has no routing: every
   * listener sees every request, so the existing listeners are wrapped rather than joined.
   */
  attach(server: Server): void {
    const others = server.listeners('upgrade') as ((
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
    ) => void)[];
    server.removeAllListeners('upgrade');
    const dispatch = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (isOcppPath(request.url)) {
        void this.rpc.handleUpgrade(request, socket as Parameters<RPCServer['handleUpgrade']>[1], head);
        return;
      }
      for (const listener of others) listener.call(server, request, socket, head);
    };
    server.on('upgrade', dispatch);
    this.detach = () => {
      server.removeListener('upgrade', dispatch);
      for (const listener of others) server.on('upgrade', listener);
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.detach?.();
    this.detach = undefined;
    await this.rpc.close({ code: 1001, reason: 'server shutting down', force: true });
    this.connections.clear();
  }

  /** The database the garage's services write through (the charger seam sets keys through it). */
  get db(): Db {
    return this.options.db;
  }

  /** The live connection of a host, if its charge point is connected now. */
  connection(hostId: number): Connection | undefined {
    return this.connections.get(hostId);
  }

  /** Every live connection (the host screen's "online", the dashboard). */
  connected(): Connection[] {
    return [...this.connections.values()];
  }

  /**
   * Calls the charge point of a host (RemoteStopTransaction, ChangeAvailability, Reset, …). Rejects when it is
   * not connected, when it answers a CallError, or on timeout; strict mode refuses a payload that does not
   * match the 1.6 schema before it is sent.
   */
  async call<A extends keyof OutboundActions>(
    hostId: number,
    action: A,
    payload: OutboundActions[A]['req'],
    timeoutMs?: number,
  ): Promise<OutboundActions[A]['conf']> {
    const connection = this.connections.get(hostId);
    if (!connection) throw new ChargePointOfflineError(hostId);
    return callChargePoint(connection.client, action, payload, timeoutMs);
  }

  /**
   * One configuration pass on the charge point of a host connected here (configuration.ts), after any pass
   * still running on it, stored through the garage's face. Rejects with ChargePointOfflineError when it is not
   * connected here; answers undefined (nothing stored) when its connection ended or was replaced meanwhile,
   * so a pass cut short never overwrites a whole one.
   */
  async configure(
    hostId: number,
    trigger: ConfigurationPass['trigger'],
    timeoutMs?: number,
  ): Promise<ConfigurationPass | undefined> {
    const connection = this.connections.get(hostId);
    if (!connection) throw new ChargePointOfflineError(hostId);
    const before = this.configuring.get(connection) ?? Promise.resolve();
    const run = before
      .catch(() => undefined)
      .then(async () => {
        const pass = await configurationPass(
          (action, payload) => callChargePoint(connection.client, action, payload, timeoutMs),
          trigger,
          () => this.options.clock.now(),
        );
        if (this.connections.get(hostId) !== connection) return undefined;
        const ctx = deviceContext(connection, this.options.db, this.options.clock);
        await storeChargerConfiguration(ctx, hostId, pass);
        return pass;
      });
    this.configuring.set(connection, run);
    return run;
  }

  /** Forgets a connection once; a replaced one must not mark the host offline. */
  private drop(connection: Connection): void {
    if (this.connections.get(connection.hostId) !== connection) return;
    this.connections.delete(connection.hostId);
    const { hostId, areaId, serial } = connection;
    // Offline from its last message (unless it connected again elsewhere meanwhile).
    const ctx = deviceContext(connection, this.options.db, this.options.clock);
    chargePointDisconnected(ctx, hostId, connection.lastSeenAt, this.options.instanceId).then(
      (offline) => {
        if (offline) this.emit('disconnected', { hostId, areaId, serial, at: this.options.clock.now() });
      },
      (error: unknown) => this.options.log.error({ err: error }, 'ocpp: marking a host offline'),
    );
  }

  private onClient(client: ChargePointClient): void {
    const { hostId, areaId, serial } = client.session;
    const now = this.options.clock.now();
    // A charge point that reconnects before the server noticed its old socket died: the new one wins.
    const previous = this.connections.get(hostId);
    if (previous && previous.client !== client) {
      void previous.client.close({ code: 1000, reason: 'replaced by a new connection', force: true });
    }
    const connection: Connection = {
      hostId,
      areaId,
      serial,
      client,
      connectedAt: now,
      lastSeenAt: now,
      lastHeartbeatAt: undefined,
      bootedAt: undefined,
      carried: new Set(),
    };
    this.connections.set(hostId, connection);
    client.on('strictValidationFailure', (event: unknown) => {
      const { error, messageId, method, outbound, isCall } = event as Record<string, unknown>;
      this.options.log.warn(
        { chargePoint: serial, method, messageId, outbound, isCall, err: error },
        'ocpp message failed schema validation',
      );
    });
    client.on('close', () => this.drop(connection));
    if (this.options.configureOnBoot !== false) {
      client.on('callResult', (event: unknown) => {
        const { outbound, method, result } = event as { outbound: boolean; method: string; result: unknown };
        if (outbound || method !== 'BootNotification') return;
        if ((result as { status?: unknown } | null)?.status !== 'Accepted') return;
        // ocpp-rpc sends the answer right after this event: the pass starts once the boot is answered, so the
        // charger hears Accepted before it is asked anything (OCPP 1.6, 4.2).
        setImmediate(() => this.configureAfterBoot(connection));
      });
    }
    const metrics = this.options.metrics;
    if (metrics) {
      // Every call either way, handled or not (ocpp-rpc emits it before the handler or the send): [2, id, action, …].
      client.on('call', (event: unknown) => {
        const { outbound, payload } = event as { outbound: boolean; payload: unknown[] };
        metrics.ocppMessage(String(payload[2]), outbound ? 'out' : 'in');
      });
    }
    const deps: HandlerDeps = {
      db: this.options.db,
      clock: this.options.clock,
      log: this.options.log,
      heartbeatSeconds: this.heartbeatSeconds,
      events: this,
    };
    registerHandlers(client, connection, deps);
    registerTransactionHandlers(client, connection, deps);
    this.online(connection).catch((error: unknown) =>
      this.options.log.error({ err: error }, 'ocpp: marking a host online'),
    );
    this.emit('connected', { hostId, areaId, serial, at: now });
  }

  /** The boot's pass, when the connection is still the host's; its failure is logged, never retried. */
  private configureAfterBoot(connection: Connection): void {
    if (this.connections.get(connection.hostId) !== connection) return;
    this.configure(connection.hostId, 'boot').then(
      (pass) => {
        if (pass)
          this.options.log.info(
            {
              chargePoint: connection.serial,
              keys: pass.keys.map((k) => `${k.Key}=${k.Outcome}`),
              readError: pass.readError,
            },
            'ocpp: configuration pass',
          );
      },
      (error: unknown) =>
        this.options.log.error(
          { err: error, chargePoint: connection.serial },
          'ocpp: configuration pass failed',
        ),
    );
  }

  /** Its sockets show their reported states again (and an offline period ends). */
  private async online(connection: Connection): Promise<void> {
    const ctx = deviceContext(connection, this.options.db, this.options.clock);
    await chargePointConnected(ctx, connection.hostId, this.options.instanceId);
    // A drop that raced this write (the connection closed at once) must still leave the host offline.
    if (this.connections.get(connection.hostId) !== connection) {
      await chargePointDisconnected(ctx, connection.hostId, connection.lastSeenAt, this.options.instanceId);
    }
  }
}
