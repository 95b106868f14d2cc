import { Worker } from 'node:worker_threads';
import { afterAll, expect, it } from 'vitest';
import { WgDriver } from '../src/gateways/wg/index.ts';

/*
 * Pushed events are read in a thread of their own (gateways/wg/listener-thread.ts): a controller sends each record
 * once, and while the main thread runs a statement nothing read the socket, whose buffer overflowed under a burst
 * (half the pushes at 10,000 records/s; docs/performance.md). Every datagram sent while the main thread is busy
 * must reach the transport once it is free, in order. The sender is another thread, so it sends while this one
 * is blocked; its datagrams are not valid events, so the transport counts each one as a drop ("type").
 */
let driver: WgDriver | undefined;
afterAll(async () => {
  await driver?.close();
});

it('receives every datagram sent while the main thread is blocked', async () => {
  driver = await WgDriver.open();
  const { port } = await driver.listen('127.0.0.1:0');
  const count = 2000;
  const done = new Int32Array(new SharedArrayBuffer(4));
  const froms: string[] = [];
  driver.on('drop', (d) => d.socket === 'listener' && froms.push(d.from));
  const sender = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const socket = require('node:dgram').createSocket('udp4');
     let sent = 0;
     for (let i = 0; i < workerData.count; i++) {
       const packet = Buffer.alloc(64, 0);
       packet.writeUInt32LE(i, 8);
       socket.send(packet, workerData.port, '127.0.0.1', () => {
         if (++sent < workerData.count) return;
         Atomics.store(workerData.done, 0, 1);
         Atomics.notify(workerData.done, 0);
       });
     }`,
    { eval: true, workerData: { count, port, done } },
  );
  // Blocked until the sender has sent everything (as during a long statement): nothing here reads anything.
  expect(Atomics.wait(done, 0, 0, 20_000)).toBe('ok');
  const deadline = Date.now() + 5000;
  while (driver.droppedListener.type < count && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  expect(driver.droppedListener.type).toBe(count);
  expect(new Set(froms).size).toBe(1);
  await sender.terminate();
});
