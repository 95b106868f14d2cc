import ocppRpc from 'ocpp-rpc';

// ocpp-rpc is CommonJS and spreads its errors into module.exports, which Node's ESM loader cannot see as
// named exports: take them from the default export (vitest's transform hides the difference).
const { TimeoutError } = ocppRpc;
import type { ChargerGateway, CommandAnswer, PowerOffAnswer } from '../../modules/garage/index.ts';
import { OCPP_CHARGING_SYSTEM_TYPE, setOcppPassword } from './auth.ts';
import type { CentralSystem } from './central-system.ts';
import { ChargePointOfflineError } from './connection.ts';

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
 */
export function ocppChargerGateway(central: CentralSystem, timeoutMs = 15_000): ChargerGateway {
  return {
    async setPassword(hostId, password) {
      await setOcppPassword(central.db, hostId, password);
    },

    async command(host, command): Promise<CommandAnswer> {
      if (host.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE)
        return { outcome: 'notSent', reason: 'noDeviceLink' };
      const id = host.hostId;
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
