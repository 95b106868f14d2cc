import ocppRpc from 'ocpp-rpc';

// ocpp-rpc is CommonJS and spreads its errors into module.exports, which Node's ESM loader cannot see as
// named exports: take them from the default export (vitest's transform hides the difference).
const { TimeoutError } = ocppRpc;
import type {
  ChargerCommand,
  ChargerGateway,
  CommandAnswer,
  HostTarget,
  PowerOffAnswer,
  PowerOffCommand,
} from '../../modules/garage/index.ts';
import type { Bus, Json, OwnerCalls, Unsubscribe } from '../../platform/cluster/index.ts';
import { OCPP_CHARGING_SYSTEM_TYPE, setOcppPassword } from './auth.ts';
import type { CentralSystem } from './central-system.ts';
import { ChargePointOfflineError } from './connection.ts';
import { clearTxPowerLimit, txPowerLimit } from './smart-charging.ts';

/**
 * The garage's charger seam (modules/garage/common/gateway.ts) over OCPP (docs/chargers.md, "Forced
 * power-off"). A running session is stopped with RemoteStopTransaction (its transactionId is the
 * ChargeRecord's Id) and the answer is the charge point's answer to it: accepted is "sent, not confirmed";
 * its StopTransaction, arriving on the charge point's own connection whenever it does, ends the session
 * through the garage's settlement (the one owner of a session's end), which turns the record into "power
 * cut" and is told to the browser live. A socket with no session is switched off with ChangeAvailability
 * Inoperative (a stuck relay still needs a cut; enabling the socket again makes it Operative): accepted or
 * scheduled is the cut. Hosts of other charging system types are "not sent: no device link", OCPP hosts not
 * connected now "not sent: not connected".
 *
 * With `routing` (several instances, docs/deployment.md "Commands reach the owner"), a host whose charge point
 * is connected to another instance is not "not connected": the command is carried over the cluster bus to
 * that instance (ChargeHost.OcppInstance names it), which calls its charge point and replies with the same
 * answer; an owner that does not answer within the call timeout (plus a margin for the way back) is "no
 * answer", a host nobody holds (or whose holder is gone) is "not connected".
 */
export function ocppChargerGateway(
  central: CentralSystem,
  timeoutMs = 15_000,
  routing?: ChargerRouting,
): ChargerGateway {
  const local = localChargerGateway(central, timeoutMs);
  return routing ? routedChargerGateway(local, central, timeoutMs, routing) : local;
}

/** How a charger gateway reaches the instance holding a charge point's connection. */
export interface ChargerRouting {
  /** This instance (config.instanceId). */
  self: string;
  /** The instance holding a host's charge point connection now, null when none (chargePointHolder). */
  holder(hostId: number): Promise<string | null>;
  /** The cluster's calls to a device's owner (ClusterNode.owners). */
  owners: OwnerCalls;
}

/** The service other instances address charger commands to: channel `ocpp.cmd.<instance id>`. */
export const CHARGER_COMMANDS = 'ocpp.cmd';
/** How many call timeouts a configuration pass may take at most (its calls answered late but in time). */
const CONFIGURE_CALLS = 2;
/** Beyond the call timeout, how long the caller waits for the owner's reply to travel back over the bus. */
const REPLY_MARGIN_MS = 2000;

/** A command carried to the owner: what it runs on its own connection. */
type OwnerCommand =
  { op: 'command'; host: HostTarget; command: ChargerCommand } | { op: 'powerOff'; command: PowerOffCommand };

/**
 * Serves the charger commands other instances address to this one: each runs on this instance's own
 * connection only (never forwarded again), and its answer is the reply.
 */
export function serveChargerCommands(
  central: CentralSystem,
  owners: OwnerCalls,
  timeoutMs = 15_000,
): Unsubscribe {
  const local = localChargerGateway(central, timeoutMs);
  return owners.serve(CHARGER_COMMANDS, async (message) => {
    const m = message as unknown as OwnerCommand;
    const answer =
      m.op === 'powerOff' ? await local.powerOff(m.command) : await local.command!(m.host, m.command);
    return answer as unknown as Json;
  });
}

/** Where an instance says that a charge point has just connected to it. */
export const CHARGER_CONNECTED = 'ocpp.connected';
/** How long an older connection waits for the newer one's write before giving up on closing (ms). */
const REPLACE_WAIT_MS = 5000;

/**
 * One connection per charge point across the cluster (docs/deployment.md): when a charge point connects to
 * this instance, the others are told; one still holding an older connection of it (a socket that died without
 * that instance noticing, or a charger that opened a second one) closes it once the database names the new
 * instance as the holder, so the close changes nothing there: the host stays online, no offline event.
 */
export function closeReplacedConnections(
  central: CentralSystem,
  bus: Bus,
  self: string,
  holder: (hostId: number) => Promise<string | null>,
  onError: (error: unknown) => void = () => {},
): Unsubscribe {
  const announce = (e: { hostId: number }) =>
    bus.publish(CHARGER_CONNECTED, { hostId: e.hostId, instance: self }).catch(onError);
  central.on('connected', announce);
  const unsubscribe = bus.subscribe(CHARGER_CONNECTED, async (message, meta) => {
    const { hostId, instance } = message as { hostId: number; instance: string };
    const older = central.connection(hostId);
    if (meta.local || instance === self || !older) return;
    const until = Date.now() + REPLACE_WAIT_MS;
    while (Date.now() < until && central.connection(hostId) === older) {
      // The newer instance writes itself into the row just after it announced the connection.
      if ((await holder(hostId)) === instance) {
        await older.client.close({
          code: 1000,
          reason: 'replaced by a connection to another instance',
          force: true,
        });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  return () => {
    central.off('connected', announce);
    unsubscribe();
  };
}

function routedChargerGateway(
  local: ChargerGateway,
  central: CentralSystem,
  timeoutMs: number,
  routing: ChargerRouting,
): ChargerGateway {
  /**
   * Runs at the holder the database names, here when that is this instance. A holder that answers "not
   * connected" may have lost the charge point to a third instance meanwhile: the holder is read again once.
   */
  async function atOwner<A extends { outcome: string }>(
    hostId: number,
    message: OwnerCommand,
    here: () => Promise<A>,
    answers: { notConnected: A; noAnswer: A; failed(detail: string): A },
    waitMs = timeoutMs,
  ): Promise<A> {
    const { notConnected, noAnswer, failed } = answers;
    let asked: string | null = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      // The row names the newest connection's instance, so it wins over a connection still open here (a
      // charger that reconnected elsewhere before this instance noticed its old socket died). Nobody named:
      // a connection here whose write is on its way, or none at all.
      const holder = await routing.holder(hostId);
      if (holder === null || holder === routing.self)
        return central.connection(hostId) ? here() : notConnected;
      if (holder === asked) break;
      asked = holder;
      const reply = await routing.owners.call(
        CHARGER_COMMANDS,
        holder,
        message as unknown as Json,
        waitMs + REPLY_MARGIN_MS,
      );
      if (reply.kind === 'noAnswer') return noAnswer;
      if (reply.kind === 'failed') return failed(reply.detail);
      if (reply.kind === 'gone') continue;
      const answer = reply.reply as unknown as A;
      if (!answer || typeof answer.outcome !== 'string') return failed('malformed reply');
      if (answer.outcome === 'notSent' && (answer as { reason?: string }).reason === 'notConnected') continue;
      return answer;
    }
    return notConnected;
  }

  return {
    setPassword: local.setPassword!,
    command(host, command) {
      if (host.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE)
        return Promise.resolve({ outcome: 'notSent', reason: 'noDeviceLink' });
      return atOwner<CommandAnswer>(
        host.hostId,
        { op: 'command', host, command },
        () => local.command!(host, command),
        {
          notConnected: { outcome: 'notSent', reason: 'notConnected' },
          noAnswer: { outcome: 'timeout' },
          failed: (detail) => ({ outcome: 'refused', status: detail }),
        },
        // A configuration pass is several calls; it ends at the first one left unanswered.
        command.kind === 'configure' ? CONFIGURE_CALLS * timeoutMs : timeoutMs,
      );
    },
    powerOff(command) {
      if (command.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE)
        return Promise.resolve({ outcome: 'notSent', reason: 'noDeviceLink' });
      return atOwner<PowerOffAnswer>(
        command.hostId,
        { op: 'powerOff', command },
        () => local.powerOff(command),
        {
          notConnected: { outcome: 'notSent', reason: 'notConnected' },
          noAnswer: { outcome: 'failed', reason: 'timeout' },
          failed: (detail) => ({ outcome: 'failed', reason: 'error', detail }),
        },
      );
    },
  };
}

/** The commands on this instance's own connections ("not connected" for a charge point connected elsewhere). */
function localChargerGateway(central: CentralSystem, timeoutMs: number): ChargerGateway {
  return {
    async setPassword(hostId, password) {
      await setOcppPassword(central.db, hostId, password);
    },

    async command(host, command): Promise<CommandAnswer> {
      if (host.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE)
        return { outcome: 'notSent', reason: 'noDeviceLink' };
      const id = host.hostId;
      if (command.kind === 'configure') return configureHere(central, id, timeoutMs);
      if (command.kind === 'limitPower' || command.kind === 'clearPowerLimit')
        return powerLimitHere(central, id, command, timeoutMs);
      // Accepted, and for availability Scheduled too (the connector changes once its transaction ends).
      const ok = command.kind === 'availability' ? ['Accepted', 'Scheduled'] : ['Accepted'];
      const send = () =>
        command.kind === 'remoteStart'
          ? central.call(
              id,
              'RemoteStartTransaction',
              { connectorId: command.portNumber, idTag: command.idTag },
              timeoutMs,
            )
          : command.kind === 'availability'
            ? central.call(
                id,
                'ChangeAvailability',
                { connectorId: command.portNumber, type: command.operative ? 'Operative' : 'Inoperative' },
                timeoutMs,
              )
            : central.call(id, 'Reset', { type: command.hard ? 'Hard' : 'Soft' }, timeoutMs);
      try {
        const conf = await send();
        return ok.includes(conf.status)
          ? { outcome: 'accepted', status: conf.status }
          : { outcome: 'refused', status: conf.status };
      } catch (error) {
        if (error instanceof ChargePointOfflineError) return { outcome: 'notSent', reason: 'notConnected' };
        if (error instanceof TimeoutError) return { outcome: 'timeout' };
        return { outcome: 'refused', status: error instanceof Error ? error.message : String(error) };
      }
    },

    async powerOff(command): Promise<PowerOffAnswer> {
      if (command.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE) {
        return { outcome: 'notSent', reason: 'noDeviceLink' };
      }
      if (!central.connection(command.hostId)) return { outcome: 'notSent', reason: 'notConnected' };
      if (command.chargeRecordId === null) {
        return sent(async () => {
          const conf = await central.call(
            command.hostId,
            'ChangeAvailability',
            { connectorId: command.portNumber, type: 'Inoperative' },
            timeoutMs,
          );
          return conf.status === 'Accepted' || conf.status === 'Scheduled'
            ? { outcome: 'cut' }
            : { outcome: 'failed', reason: 'refused', detail: conf.status };
        });
      }
      const transactionId = command.chargeRecordId;
      return sent(async () => {
        const conf = await central.call(
          command.hostId,
          'RemoteStopTransaction',
          { transactionId },
          timeoutMs,
        );
        return conf.status === 'Accepted'
          ? { outcome: 'sent' }
          : { outcome: 'failed', reason: 'refused', detail: conf.status };
      });
    },
  };
}

/**
 * The operator's configuration pass on a charge point connected here: `accepted` once the pass is stored (the
 * stored pass says what the charger answered per key), "not connected" when it is not, or no longer, here.
 */
async function configureHere(
  central: CentralSystem,
  hostId: number,
  timeoutMs: number,
): Promise<CommandAnswer> {
  try {
    const pass = await central.configure(hostId, 'operator', timeoutMs);
    return pass
      ? { outcome: 'accepted', status: pass.readError ?? 'Configured' }
      : { outcome: 'notSent', reason: 'notConnected' };
  } catch (error) {
    if (error instanceof ChargePointOfflineError) return { outcome: 'notSent', reason: 'notConnected' };
    throw error;
  }
}

/**
 * The zone power budget's limit on a transaction (smart-charging.ts): SetChargingProfile, or ClearChargingProfile
 * of it. Accepted is the only yes; a clear the charger answers Unknown (the transaction and its profile ended
 * already) is refused with that word, which the budget reads as nothing left to clear.
 */
async function powerLimitHere(
  central: CentralSystem,
  hostId: number,
  command: Extract<ChargerCommand, { kind: 'limitPower' | 'clearPowerLimit' }>,
  timeoutMs: number,
): Promise<CommandAnswer> {
  try {
    const conf =
      command.kind === 'limitPower'
        ? await central.call(
            hostId,
            'SetChargingProfile',
            txPowerLimit(command.portNumber, command.transactionId, command.limitW),
            timeoutMs,
          )
        : await central.call(
            hostId,
            'ClearChargingProfile',
            clearTxPowerLimit(command.transactionId),
            timeoutMs,
          );
    return conf.status === 'Accepted'
      ? { outcome: 'accepted', status: conf.status }
      : { outcome: 'refused', status: conf.status };
  } catch (error) {
    if (error instanceof ChargePointOfflineError) return { outcome: 'notSent', reason: 'notConnected' };
    if (error instanceof TimeoutError) return { outcome: 'timeout' };
    // A charger without smart charging answers the CallError NotImplemented or NotSupported.
    return { outcome: 'refused', status: callErrorName(error) };
  }
}

/** A CallError's code (ocpp-rpc's RPCError subclasses carry `rpcErrorCode`), else its message. */
function callErrorName(error: unknown): string {
  const code = (error as { rpcErrorCode?: unknown } | null)?.rpcErrorCode;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

/** Runs a call and turns its failures into answers: offline, no answer in time, a CallError. */
async function sent(run: () => Promise<PowerOffAnswer>): Promise<PowerOffAnswer> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ChargePointOfflineError) return { outcome: 'notSent', reason: 'notConnected' };
    if (error instanceof TimeoutError) return { outcome: 'failed', reason: 'timeout' };
    return {
      outcome: 'failed',
      reason: 'error',
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
