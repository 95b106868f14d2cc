import { strictClient, type Client } from './ocpp-charging.ts';

/*
 * A strict OCPP 1.6J charger (ocpp-rpc client in strict mode) for the emergency-stop tests: the calls it answers
 * and what it does after them, as a charger would, and every call it received.
 */

export type { Client };
export type Call = { action: string; params: Record<string, unknown> };

/**
 * A strict charger: it answers ChangeAvailability (Scheduled behind a transaction), RemoteStopTransaction (then
 * sends the StopTransaction, reason Remote) and RemoteStartTransaction (then starts), and records every call.
 */
export interface FakeCharger {
  client: Client;
  calls: Call[];
  /** connectorId → transactionId of the transactions it runs. */
  tx: Map<number, number>;
  availability(): { connectorId: number; type: string }[];
  start(connectorId: number, idTag: string): Promise<{ status: string; transactionId: number }>;
}

export async function fakeCharger(
  url: string,
  serial: string,
  password: string,
  now: () => number,
  options: { boot?: boolean } = {},
): Promise<FakeCharger> {
  const client = strictClient(url, serial, password);
  const calls: Call[] = [];
  const tx = new Map<number, number>();
  const iso = () => new Date(now()).toISOString();
  const fake: FakeCharger = {
    client,
    calls,
    tx,
    availability: () =>
      calls
        .filter((c) => c.action === 'ChangeAvailability')
        .map((c) => c.params as { connectorId: number; type: string }),
    async start(connectorId, idTag) {
      const conf = (await client.call('StartTransaction', {
        connectorId,
        idTag,
        meterStart: 1000,
        timestamp: iso(),
      })) as { idTagInfo: { status: string }; transactionId: number };
      if (conf.idTagInfo.status === 'Accepted') tx.set(connectorId, conf.transactionId);
      return { status: conf.idTagInfo.status, transactionId: conf.transactionId };
    },
  };
  client.handle('ChangeAvailability', async ({ params }) => {
    const p = params as { connectorId: number; type: string };
    calls.push({ action: 'ChangeAvailability', params: p });
    return { status: p.type === 'Inoperative' && tx.has(p.connectorId) ? 'Scheduled' : 'Accepted' };
  });
  client.handle('RemoteStopTransaction', async ({ params }) => {
    const { transactionId } = params as { transactionId: number };
    calls.push({ action: 'RemoteStopTransaction', params: { transactionId } });
    const connector = [...tx].find(([, id]) => id === transactionId)?.[0];
    if (connector === undefined) return { status: 'Rejected' };
    tx.delete(connector);
    setImmediate(() => {
      void client
        .call('StopTransaction', { transactionId, meterStop: 1100, timestamp: iso(), reason: 'Remote' })
        .catch(() => {});
    });
    return { status: 'Accepted' };
  });
  client.handle('RemoteStartTransaction', async ({ params }) => {
    const p = params as { connectorId: number; idTag: string };
    calls.push({ action: 'RemoteStartTransaction', params: p });
    setImmediate(() => void fake.start(p.connectorId, p.idTag).catch(() => {}));
    return { status: 'Accepted' };
  });
  await client.connect();
  if (options.boot !== false)
    await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'EBike-E' });
  return fake;
}
