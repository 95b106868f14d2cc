import { Worker } from 'node:worker_threads';
import type { SheetRequest, SheetResult } from './cells.ts';
import { checkZip, WORKBOOK_LIMITS } from './zip-guard.ts';

export type { SheetResult } from './cells.ts';

/** A parse that takes longer than this is abandoned (its worker terminated). */
const PARSE_TIMEOUT_MS = 20_000;
/** The worker's heap: far above what a checked 16 MB workbook needs, far below the server's. */
const WORKER_HEAP_MB = 512;

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** The parsing worker, started on first use and kept (its start costs about a second). */
function parser(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./sheet-worker-entry.mjs', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // An idle parser never keeps the process alive.
  started.unref();
  started.once('exit', () => {
    if (worker === started) worker = undefined;
  });
  return (worker = started);
}

function parse(request: SheetRequest): Promise<SheetResult> {
  const current = parser();
  return new Promise<SheetResult>((resolve) => {
    const settle = (result: SheetResult) => {
      clearTimeout(timer);
      current.off('message', onMessage);
      current.off('error', onError);
      current.off('exit', onExit);
      resolve(result);
    };
    const drop = () => {
      if (worker === current) worker = undefined;
      void current.terminate();
    };
    const timer = setTimeout(() => {
      drop();
      settle({ ok: false, reason: 'timeout' });
    }, PARSE_TIMEOUT_MS);
    const onMessage = (result: SheetResult) => settle(result);
    // Out of memory in the worker, or a crash: the file is at fault, not the server; a new worker follows.
    const onError = () => {
      drop();
      settle({ ok: false, reason: 'tooLarge' });
    };
    const onExit = () => settle({ ok: false, reason: 'unreadable' });
    current.on('message', onMessage);
    current.once('error', onError);
    current.once('exit', onExit);
    current.postMessage(request);
  });
}

/**
 * The first sheet of an uploaded .xlsx, parsed safely: its inflated size is bounded first (zip-guard),
 * then it is parsed in a worker thread with its own memory limit and a deadline, one file at a time, and
 * at most `maxRows` filled rows are accepted. Other requests are served meanwhile.
 */
export function readFirstSheet(buffer: Buffer, request: Omit<SheetRequest, 'buffer'>): Promise<SheetResult> {
  const verdict = checkZip(buffer, WORKBOOK_LIMITS);
  if (!verdict.ok) return Promise.resolve(verdict);
  const next = queue.then(() => parse({ buffer: new Uint8Array(buffer), ...request }));
  queue = next.catch(() => undefined);
  return next;
}
