import type { Db } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import { deviceActor, type AreaContext } from '../../platform/context.ts';
import type { InboundActions, OutboundActions } from './messages.gen.ts';

/** What an accepted handshake attaches to the connection. */
export interface ChargePointSession {
  hostId: number;
  areaId: number;
  serial: string;
}

/** The part of an ocpp-rpc server-side client this gateway uses (the library's typings are loose). */
export interface ChargePointClient {
  identity: string;
  session: ChargePointSession;
  call(method: string, params?: unknown, options?: { callTimeoutMs?: number }): Promise<unknown>;
  handle(method: string, handler: (args: { params: unknown }) => unknown): void;
  close(options?: { code?: number; reason?: string; force?: boolean }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): void;
}

/** A connected charge point, as the gateway tracks it in memory. */
export interface Connection {
  hostId: number;
  areaId: number;
  serial: string;
  client: ChargePointClient;
  connectedAt: number;
  /** Last message of any kind from the charge point. */
  lastSeenAt: number;
  lastHeartbeatAt: number | undefined;
  /** Last BootNotification accepted on this connection. */
  bootedAt: number | undefined;
  /**
   * Sessions (transactionIds) the charge point has named since that boot: started, metered or stopped. It
   * carries them; any other session on a socket it then reports free it dropped (handlers.ts).
   */
  carried: Set<number>;
}

/**
 * Answers a charge point's call with types from the official 1.6 schemas (messages.gen.ts). ocpp-rpc in strict
 * mode has validated the request against the same schema before the handler runs, and validates the reply
 * before it is sent: this is the one place where the library's untyped params meet those types.
 */
export function handle<A extends keyof InboundActions>(
  client: ChargePointClient,
  action: A,
  handler: (request: InboundActions[A]['req']) => Promise<InboundActions[A]['conf']>,
): void {
  client.handle(action, ({ params }) => handler(params as InboundActions[A]['req']));
}

/** Calls a charge point with a request and reply typed from the schemas (strict mode checks both ways). */
export async function callChargePoint<A extends keyof OutboundActions>(
  client: ChargePointClient,
  action: A,
  request: OutboundActions[A]['req'],
  timeoutMs?: number,
): Promise<OutboundActions[A]['conf']> {
  const options = timeoutMs !== undefined ? { callTimeoutMs: timeoutMs } : {};
  return (await client.call(action, request, options)) as OutboundActions[A]['conf'];
}

/** The context a charge point's messages act in: its host as the device actor, in its area. */
export function deviceContext(connection: Connection, db: Db, clock: Clock): AreaContext {
  return {
    db,
    clock,
    lang: 'en',
    actor: deviceActor(connection.hostId, connection.serial),
    areaId: connection.areaId,
  };
}

export class ChargePointOfflineError extends Error {
  constructor(readonly hostId: number) {
    super(`charge point of host ${hostId} is not connected`);
  }
}
