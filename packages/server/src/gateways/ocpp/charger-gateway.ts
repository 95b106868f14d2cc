import ocppRpc from 'ocpp-rpc';

// ocpp-rpc is CommonJS and spreads its errors into module.exports, which Node's ESM loader cannot see as
// named exports: take them from the default export (vitest's transform hides the difference).
const { TimeoutError } = ocppRpc;
import type { ChargerGateway, CommandAnswer, PowerOffAnswer } from '../../modules/garage/index.ts';
import { OCPP_CHARGING_SYSTEM_TYPE, setOcppPassword } from './auth.ts';
import { ChargePointOfflineError, type CentralSystem } from './central-system.ts';

/**
 * The garage's power-off seam (modules/garage/gateway.ts) over OCPP (docs/chargers.md, "Forced power-off").
 * A running session is stopped with RemoteStopTransaction (its transactionId is the ChargeRecord's Id); the
 * answer is "power cut" only when the charge point accepts AND its StopTransaction arrives (that message ends
 * the session and settles its order through the normal close path, with the stop reason Gatehouse asked for).
 * A socket with no session is switched off with ChangeAvailability Inoperative (a stuck relay still needs a
 * cut; enabling the socket again makes it Operative): accepted or scheduled is the cut.
 * Hosts of other charging system types are "not sent: no device link", OCPP hosts not connected now
 * "not sent: not connected".
 */
export function ocppChargerGateway(
  central: CentralSystem,
  timeoutMs = 15_000,
  /** How long to wait for the StopTransaction once RemoteStopTransaction was accepted. */
  confirmMs = timeoutMs,
): ChargerGateway {
  return {
    async setPassword(hostId, password) {
      await setOcppPassword(central.db, hostId, password);
    },

    async command(host, command): Promise<CommandAnswer> {
      if (host.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE)
        return { outcome: 'notSent', reason: 'noDeviceLink' };
      const [action, payload, ok] =
        command.kind === 'remoteStart'
          ? ([
              'RemoteStartTransaction',
              { connectorId: command.portNumber, idTag: command.idTag },
              ['Accepted'],
            ] as const)
          : command.kind === 'availability'
            ? ([
                'ChangeAvailability',
                { connectorId: command.portNumber, type: command.operative ? 'Operative' : 'Inoperative' },
                ['Accepted', 'Scheduled'],
              ] as const)
            : (['Reset', { type: command.hard ? 'Hard' : 'Soft' }, ['Accepted']] as const);
      try {
        const conf = await central.call<{ status: string }>(host.hostId, action, payload, timeoutMs);
        return (ok as readonly string[]).includes(conf.status)
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
          const conf = await central.call<{ status: string }>(
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
      const recordId = command.chargeRecordId;
      // Listening before the call: a charge point may send its StopTransaction before its answer.
      const stopped = central.waitForSessionEnd(recordId, confirmMs);
      const answer = await sent(async () => {
        const conf = await central.call<{ status: string }>(
          command.hostId,
          'RemoteStopTransaction',
          { transactionId: recordId },
          timeoutMs,
        );
        return conf.status === 'Accepted'
          ? { outcome: 'cut' }
          : { outcome: 'failed', reason: 'refused', detail: conf.status };
      });
      if (answer.outcome !== 'cut') {
        stopped.cancel();
        return answer;
      }
      return (await stopped.promise) ? { outcome: 'cut' } : { outcome: 'failed', reason: 'noConfirmation' };
    },
  };
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
