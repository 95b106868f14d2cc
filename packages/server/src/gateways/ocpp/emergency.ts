import type { FastifyBaseLogger } from 'fastify';
import { STOP_REASON } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import {
  emergencyOnConnect,
  emergencyReleaseReached,
  releaseSessionStop,
  requestSessionStop,
  type EmergencyOnConnect,
} from '../../modules/garage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { systemActor } from '../../platform/context.ts';
import type { CentralSystem } from './central-system.ts';
import { callChargePoint, deviceContext, type Connection } from './connection.ts';

/**
 * A zone's emergency stop reaches the chargers that were not there (docs/chargers.md "Emergency stop"): a charge
 * point that connects while its zone is stopped has its running sessions asked to stop ("emergency stop") and
 * every connector made Inoperative; one the release missed has its enabled connectors made Operative. The stop is
 * read from the database (park-area's ParkAreaEmergencyStop through the garage face), so this holds on whichever
 * instance the charger connects to, and after a restart.
 *
 * When: once the charge point is listening, not at the WebSocket's opening. A charger that (re)boots sends
 * BootNotification first and must hear Accepted before Gatehouse asks it anything (OCPP 1.6, 4.2): the commands
 * go once that answer has left. One that only reconnected (no boot) is told after Gatehouse answered its first
 * call (a StatusNotification, a Heartbeat, a queued transaction message). A BootNotification later on the same
 * connection (a reboot without a new connection) is answered the same way.
 */
export function applyEmergencyOnConnect(
  central: CentralSystem,
  deps: { db: Db; clock: Clock; log: FastifyBaseLogger; timeoutMs?: number },
): void {
  central.on('connected', ({ hostId }) => {
    const connection = central.connection(hostId);
    if (!connection) return;
    let told = false;
    connection.client.on('callResult', (event: unknown) => {
      const { outbound, method, result } = event as { outbound: boolean; method: string; result: unknown };
      if (outbound) return;
      const boot = method === 'BootNotification';
      if (boot && (result as { status?: unknown } | null)?.status !== 'Accepted') return;
      if (told && !boot) return;
      told = true;
      // ocpp-rpc sends the answer right after this event: the commands follow it.
      setImmediate(() => {
        if (central.connection(hostId) !== connection) return;
        tellEmergency(connection, deps).catch((error: unknown) =>
          deps.log.error(
            { err: error, chargePoint: connection.serial },
            'ocpp: emergency stop on connect failed',
          ),
        );
      });
    });
  });
}

async function tellEmergency(
  connection: Connection,
  deps: { db: Db; clock: Clock; log: FastifyBaseLogger; timeoutMs?: number },
): Promise<void> {
  const plan = await emergencyOnConnect(deps.db.kysely, connection.hostId);
  if (!plan) return;
  const { log } = deps;
  const where = { chargePoint: connection.serial, zone: plan.zoneName };
  if (plan.kind === 'stop') {
    const stopped = await stopSessions(connection, deps, plan);
    const inoperative = await setAvailability(connection, plan.ports, false, deps.timeoutMs);
    log.warn(
      { ...where, sessions: stopped, ports: plan.ports.length, inoperative },
      'ocpp: zone under emergency stop: a charger that connected is stopped',
    );
    return;
  }
  const operative = await setAvailability(connection, plan.ports, true, deps.timeoutMs);
  log.info(
    { ...where, ports: plan.ports.length, operative },
    'ocpp: emergency stop released: made Operative',
  );
  if (operative === plan.ports.length)
    await emergencyReleaseReached(deps.db.kysely, plan.stopId, connection.hostId);
}

/**
 * Its running sessions asked to stop: the request stored on each (kept when the stop had stored it already), then
 * RemoteStopTransaction; a refusal or no answer drops the request. Returns the sessions the charger accepted.
 */
async function stopSessions(
  connection: Connection,
  deps: { db: Db; clock: Clock; log: FastifyBaseLogger; timeoutMs?: number },
  plan: Extract<EmergencyOnConnect, { kind: 'stop' }>,
): Promise<number> {
  const ctx = { ...deviceContext(connection, deps.db, deps.clock), actor: systemActor('emergency stop') };
  let accepted = 0;
  for (const session of plan.sessions) {
    await requestSessionStop(ctx, session.recordId, STOP_REASON.emergencyStop, {
      ZoneName: plan.zoneName,
      Reason: plan.reason,
    });
    const conf = await callChargePoint(
      connection.client,
      'RemoteStopTransaction',
      { transactionId: session.recordId },
      deps.timeoutMs,
    ).catch((error: unknown) => {
      deps.log.warn(
        { err: error, chargePoint: connection.serial, recordId: session.recordId },
        'ocpp: emergency stop not delivered',
      );
      return undefined;
    });
    if (conf?.status === 'Accepted') accepted += 1;
    else await releaseSessionStop(deps.db.kysely, session.recordId, STOP_REASON.emergencyStop);
  }
  return accepted;
}

/** ChangeAvailability on each port, in order, until one is not answered; returns how many were accepted. */
async function setAvailability(
  connection: Connection,
  ports: number[],
  operative: boolean,
  timeoutMs: number | undefined,
): Promise<number> {
  let done = 0;
  for (const port of ports) {
    const conf = await callChargePoint(
      connection.client,
      'ChangeAvailability',
      { connectorId: port, type: operative ? 'Operative' : 'Inoperative' },
      timeoutMs,
    ).catch(() => undefined);
    if (!conf) break;
    // Scheduled: Inoperative once the transaction on it ends (its stop was asked just before).
    if (conf.status === 'Accepted' || conf.status === 'Scheduled') done += 1;
  }
  return done;
}
