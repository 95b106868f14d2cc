// The socket pushed events arrive on, read in a thread of its own. A controller pushes each record as it happens
// and nothing resends a datagram the kernel dropped; the main thread stops reading while it runs a statement
// (SQLite is synchronous) or collects garbage, and under a burst the socket's buffer overflowed: at 10,000
// records/s offered, half the pushes were dropped there (`/proc/net/udp`, the listener's drops column) and had to
// be read again from the controllers, one request each (docs/performance.md, "Door controllers at scale").
// This thread only reads and hands the datagrams over in small batches; decoding stays with the transport.

import type dgram from 'node:dgram';
import { Worker } from 'node:worker_threads';

/** Plain JavaScript, evaluated in the worker: no loader, no import of the server's code. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const dgram = require('node:dgram');
// A larger buffer for the moments this thread itself waits for a core (the system caps it at net.core.rmem_max).
const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
let batch = [];
let timer;
const flush = () => {
  timer = undefined;
  if (batch.length === 0) return;
  parentPort.postMessage({ datagrams: batch });
  batch = [];
};
socket.on('message', (msg, rinfo) => {
  batch.push([msg, rinfo.address, rinfo.port]);
  if (batch.length >= 256) flush();
  else timer ??= setTimeout(flush, 1);
});
socket.once('error', (error) =>
  parentPort.postMessage({ error: String(error && error.message), code: String((error && error.code) || '') }),
);
socket.on('listening', () => {
  socket.removeAllListeners('error');
  socket.on('error', () => {});
  parentPort.postMessage({ listening: socket.address() });
});
parentPort.on('message', (m) => {
  if (m === 'close') socket.close(() => parentPort.postMessage({ closed: true }));
});
socket.bind(workerData.port, workerData.host);
`;

type FromThread =
  | { datagrams: [Uint8Array, string, number][] }
  | { listening: { address: string; port: number } }
  | { error: string; code: string }
  | { closed: true };

/** The listener could not bind its address: `code` is the system's (EADDRINUSE: another program has the port). */
export class ListenerBindError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string,
    problem: string,
  ) {
    super(`listener ${host}:${port}: ${problem}`);
    this.name = 'ListenerBindError';
  }
}

export class ListenerThread {
  private constructor(
    private readonly worker: Worker,
    readonly address: { address: string; port: number },
  ) {}

  /** Binds `host:port` in a new thread; `onDatagram` gets each datagram, in arrival order, on this thread. */
  static async open(
    host: string,
    port: number,
    onDatagram: (msg: Buffer, rinfo: dgram.RemoteInfo) => void,
  ): Promise<ListenerThread> {
    const worker = new Worker(SOURCE, { eval: true, workerData: { host, port } });
    const address = await new Promise<{ address: string; port: number }>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: FromThread) => {
        if ('listening' in m) resolve(m.listening);
        else if ('error' in m) reject(new ListenerBindError(host, port, m.code, m.error));
        else if ('datagrams' in m)
          for (const [bytes, from, fromPort] of m.datagrams) {
            const msg = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
            onDatagram(msg, { address: from, port: fromPort, family: 'IPv4', size: msg.length });
          }
      });
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    // As the socket's own errors were: never thrown at the process. Should the thread end, pushes stop and the
    // gateway's polling still reads every record from the controllers' rings.
    worker.on('error', () => {});
    return new ListenerThread(worker, address);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) =>
      this.worker.on('message', (m: FromThread) => 'closed' in m && resolve()),
    );
    this.worker.postMessage('close');
    // A thread that does not answer within a second is ended anyway.
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1000).unref())]);
    await this.worker.terminate();
  }
}
