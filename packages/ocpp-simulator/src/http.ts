import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChargePointErrorCode } from './ocpp.ts';
import type { Simulator } from './simulator.ts';

/**
 * A tiny JSON control API for demos and manual tests (loopback by default):
 *   GET  /points                                   snapshot of every charge point and connector
 *   POST /points/:id/connectors/:n/plug-in          { soc?, capacityWh? }
 *   POST /points/:id/connectors/:n/swipe            { idTag }
 *   POST /points/:id/connectors/:n/unplug
 *   POST /points/:id/connectors/:n/stop
 *   POST /points/:id/connectors/:n/fault            { errorCode, vendorErrorCode? }
 *   POST /points/:id/connectors/:n/clear-fault
 *   POST /points/:id/connectors/:n/power            { watts }
 *   POST /points/:id/connectors/:n/overdraw         { watts }: draws this much whatever its smart-charging
 *                                                   limit (more than its share); watts null: keeps to it again
 *   POST /points/:id/offline | /points/:id/online
 *   POST /points/:id/temperature                    { celsius, connector? }: the charger overheats (connector 0,
 *                                                   the default, is its body); celsius null: normal again
 *   POST /points/:id/hold-remote-stop               { hold }: accept remote stops without stopping (a
 *                                                   faulty charger), until released; then stop by hand
 */
export async function startControlApi(
  sim: Simulator,
  port = 0,
  host = '127.0.0.1',
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    void handle(sim, req)
      .then((body) => send(res, 200, body ?? { ok: true }))
      .catch((error: unknown) =>
        send(res, error instanceof RangeError ? 404 : 400, { error: String(error) }),
      );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function handle(sim: Simulator, req: http.IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'GET' && parts.length === 1 && parts[0] === 'points') return sim.snapshot();
  if (req.method !== 'POST' || parts[0] !== 'points' || !parts[1]) throw new RangeError('not found');
  const cp = parts[1];
  const body = await readJson(req);
  if (parts.length === 3 && parts[2] === 'offline') return sim.goOffline(cp);
  if (parts.length === 3 && parts[2] === 'online') return sim.goOnline(cp);
  if (parts.length === 3 && parts[2] === 'temperature') {
    const celsius = body.celsius === null ? null : Number(body.celsius);
    if (celsius !== null && !Number.isFinite(celsius)) throw new Error('celsius: a number, or null');
    return sim.overheat(cp, celsius, typeof body.connector === 'number' ? body.connector : 0);
  }
  if (parts.length === 3 && parts[2] === 'hold-remote-stop') {
    sim.point(cp).ignoreRemoteStop = body.hold === true;
    return { ok: true };
  }
  if (parts.length !== 5 || parts[2] !== 'connectors') throw new RangeError('not found');
  const connector = Number(parts[3]);
  switch (parts[4]) {
    case 'plug-in':
      return sim.plugIn(cp, connector, {
        ...(typeof body.soc === 'number' ? { soc: body.soc / 100 } : {}),
        ...(typeof body.capacityWh === 'number' ? { capacityWh: body.capacityWh } : {}),
      });
    case 'swipe':
      return sim.swipe(cp, connector, String(body.idTag));
    case 'unplug':
      return sim.unplug(cp, connector);
    case 'stop':
      return sim.stopCharging(cp, connector);
    case 'fault':
      return sim.fault(
        cp,
        connector,
        String(body.errorCode ?? 'OtherError') as ChargePointErrorCode,
        typeof body.vendorErrorCode === 'string' ? body.vendorErrorCode : undefined,
      );
    case 'clear-fault':
      return sim.clearFault(cp, connector);
    case 'power':
      return sim.setPower(cp, connector, Number(body.watts));
    case 'overdraw': {
      const watts = body.watts === null || body.watts === undefined ? null : Number(body.watts);
      if (watts !== null && !(Number.isFinite(watts) && watts >= 0))
        throw new Error('watts: a number ≥ 0, or null');
      return sim.overdraw(cp, connector, watts);
    }
    default:
      throw new RangeError('not found');
  }
}
