import { createRPCError, type RPCClient } from 'ocpp-rpc';
import type { ChargePoint } from './charge-point.ts';
import type { TriggerableMessage } from './ocpp.ts';
import type { ClearChargingProfileParams, SetChargingProfileParams } from './smart-charging.ts';

type Handler = (args: {
  params: Record<string, unknown>;
}) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * The calls a central system makes to the charge point (OCPP 1.6 core and remote trigger), answered at once;
 * what they set going (a start, a stop, a reset, a triggered message) follows the answer, as on a real
 * charger. Anything else (reservations, local lists, smart charging, firmware) is NotImplemented.
 */
export function registerRemoteCalls(client: RPCClient, cp: ChargePoint): void {
  const handle = (action: string, handler: Handler) =>
    client.handle(action, handler as Parameters<RPCClient['handle']>[1]);

  handle('RemoteStartTransaction', ({ params }) => {
    const wanted = params.connectorId as number | undefined;
    const usable = (c: ChargePoint['connectors'][number] | undefined) =>
      c && c.plugged && !c.transaction && c.operative && c.status !== 'Faulted';
    // An e-bike socket starts only with a bike plugged in.
    const c = wanted !== undefined ? cp.connectors[wanted - 1] : cp.connectors.find(usable);
    if (!c || !usable(c)) return { status: 'Rejected' };
    cp.remoteStart(c, params.idTag as string);
    return { status: 'Accepted' };
  });

  handle('RemoteStopTransaction', ({ params }) => {
    const c = cp.connectors.find((k) => k.transaction && k.transaction.id === params.transactionId);
    if (!c) return { status: 'Rejected' };
    if (!cp.ignoreRemoteStop) cp.remoteStop(c, 'Remote');
    return { status: 'Accepted' };
  });

  handle('ChangeAvailability', ({ params }) => ({
    status: cp.changeAvailability(params.connectorId as number, params.type === 'Operative'),
  }));

  handle('Reset', ({ params }) => {
    cp.resetSoon(params.type === 'Hard');
    return { status: 'Accepted' };
  });

  handle('UnlockConnector', ({ params }) => {
    const c = cp.connectors[(params.connectorId as number) - 1];
    if (!c) return { status: 'NotSupported' };
    if (c.transaction) cp.remoteStop(c, 'UnlockCommand');
    return { status: 'Unlocked' };
  });

  handle('GetConfiguration', ({ params }) => cp.configuration.get(params.key as string[] | undefined));

  handle('ChangeConfiguration', ({ params }) => ({
    status: cp.configuration.change(params.key as string, params.value as string),
  }));

  // Smart charging, only on a charger that lists it in SupportedFeatureProfiles (smart-charging.ts); others
  // answer NotImplemented like any call they do not know.
  if (
    cp.configuration.get(['SupportedFeatureProfiles']).configurationKey[0]?.value.includes('SmartCharging')
  ) {
    handle('SetChargingProfile', ({ params }) => ({
      status: cp.profiles.set(params as unknown as SetChargingProfileParams, (connectorId) => {
        const c = cp.connectors[connectorId - 1];
        return c?.transaction?.id;
      }),
    }));
    handle('ClearChargingProfile', ({ params }) => ({
      status: cp.profiles.clear(params as ClearChargingProfileParams),
    }));
  }

  handle('TriggerMessage', ({ params }) => {
    const connectorId = params.connectorId as number | undefined;
    if (connectorId !== undefined && connectorId !== 0 && !cp.connectors[connectorId - 1]) {
      return { status: 'Rejected' };
    }
    cp.triggerSoon(params.requestedMessage as TriggerableMessage, connectorId);
    return { status: 'Accepted' };
  });

  client.handle(() => {
    throw createRPCError('NotImplemented', 'not implemented by the simulator');
  });
}
