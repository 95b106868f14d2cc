#!/usr/bin/env -S node --import tsx
// Runs virtual WG controllers until interrupted:
//   node --import tsx packages/wg-simulator/src/cli.ts --controllers 3 --base-port 60001 [--http-port 8089]
// Options: --controllers N | --serials a,b,c  --host 127.0.0.1  --base-port P (0: free ports)
//          --shared-port P (one socket answering for all, for searches)  --records CAPACITY  --drop RATE
//          --time-zone ZONE  --http-port P (JSON control API, see http.ts; 0 picks one; default 0)
import { parseArgs } from 'node:util';
import { serveHttp } from './http.ts';
import { WgSimulator } from './simulator.ts';

const { values } = parseArgs({
  options: {
    controllers: { type: 'string', default: '1' },
    serials: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'base-port': { type: 'string', default: '60001' },
    'shared-port': { type: 'string' },
    records: { type: 'string', default: '1000' },
    drop: { type: 'string', default: '0' },
    'time-zone': { type: 'string' },
    'http-port': { type: 'string', default: '0' },
  },
});

// Default serials start with 4 (four-door controllers), one per controller.
const serials = values.serials
  ? values.serials.split(',').map((s) => Number(s.trim()))
  : Array.from({ length: Number(values.controllers) }, (_, i) => 423187757 + i);
if (serials.some((s) => !Number.isInteger(s) || s <= 0)) throw new Error('serials must be positive integers');

const sim = await WgSimulator.start({
  controllers: serials,
  host: values.host,
  basePort: Number(values['base-port']),
  sharedPort: values['shared-port'] === undefined ? undefined : Number(values['shared-port']),
  recordCapacity: Number(values.records),
  dropRate: Number(values.drop),
  timeZone: values['time-zone'],
});
const server = await serveHttp(sim, Number(values['http-port']), values.host);
const api = server.address();
for (const s of serials) {
  const a = sim.address(s);
  console.log(`controller ${s} on udp ${a.host}:${a.port}`);
}
const shared = sim.sharedAddress();
if (shared) console.log(`all controllers on udp ${shared.host}:${shared.port}`);
if (api && typeof api === 'object')
  console.log(`control API on http://${api.address}:${api.port}/controllers`);

const stop = () => {
  server.close();
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
