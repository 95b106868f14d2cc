// A small JSON API over a running simulator, for demos, end-to-end tests and people at a terminal:
//   GET  /controllers                              every controller: address, cards, records, listener, clock
//   GET  /controllers/:serial/cards                the card list (deleted slots as null)
//   GET  /controllers/:serial/records?from=&limit= records from an index (default: the last 100)
//   GET  /controllers/:serial/rules                time profiles, tasks (active and pending), interlock,
//                                                  anti-passback, keypads, passcodes, first card, door modes
//   POST /swipe   { serial, card, door, direction?, pin?, at? }   `at`: the controller's local time for the swipe,
//                                                  "2024-06-02T03:00:00" (its clock is set to it first)
//   POST /button  { serial, door, at? }
//   POST /passcode { serial, door, code, at? }     a passcode keyed in at the door's reader
//   POST /reset   { serial }                       restore default parameters (as 0xC8 with the magic word)
//   POST /clock   { serial, time }                 set the controller's clock to a local time (as 0x30)
//   POST /force   { serial, door }
//   POST /door    { serial, door, open }            door sensor
//   POST /offline { offline, serial? }
//   POST /drop    { rate }                          share of datagrams lost, both directions
//   POST /drift   { serial, seconds }
import http from 'node:http';
import { once } from 'node:events';
import type { SimDateTime } from './protocol.ts';
import type { WgSimulator } from './simulator.ts';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function num(body: Record<string, unknown>, key: string, fallback?: number): number {
  const v = body[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new HttpError(400, `"${key}" must be a number`);
  return v;
}

/** A local date-time "2024-06-02T03:00:00" (or with a space); undefined when absent. */
function localTime(body: Record<string, unknown>, key: string): SimDateTime | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  const m =
    typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v) : null;
  const [year, month, day, hour, minute, second] = (m ?? []).slice(1).map((x) => Number(x ?? 0));
  const t = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
  const real =
    m !== null &&
    d.getUTCFullYear() === t.year &&
    d.getUTCMonth() === t.month - 1 &&
    d.getUTCDate() === t.day &&
    d.getUTCHours() === t.hour &&
    d.getUTCMinutes() === t.minute &&
    d.getUTCSeconds() === t.second;
  if (!real) throw new HttpError(400, `"${key}" must be a local date-time like 2024-06-02T03:00:00`);
  return t;
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  if (!text) return {};
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, 'body must be a JSON object');
}

/** A simulator's refusal as an HTTP error: an unknown controller (RangeError) is 404, anything else 400. */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new HttpError(e instanceof RangeError ? 404 : 400, (e as Error).message);
  }
}

/** The GET routes: every controller, or one controller's cards, rules or records. */
function get(sim: WgSimulator, url: URL): unknown {
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts.length === 1 && parts[0] === 'controllers') return sim.describe();
  if (parts.length === 3 && parts[0] === 'controllers') {
    const c = guard(() => sim.controller(Number(parts[1])));
    if (parts[2] === 'cards') return c.slots;
    if (parts[2] === 'rules') return c.rulesSnapshot();
    if (parts[2] === 'records') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), 10_000);
      const from = Number(url.searchParams.get('from') ?? Math.max(c.firstIndex, c.lastIndex - limit + 1));
      const out = [];
      for (let i = Math.max(from, c.firstIndex); i <= c.lastIndex && out.length < limit; i++)
        out.push(c.recordAt(i));
      return out;
    }
  }
  throw new HttpError(404, 'not found');
}

type Body = Record<string, unknown>;

/** The POST routes by path, each given the request's JSON body. */
const POSTS: Record<string, (sim: WgSimulator, body: Body) => unknown> = {
  '/swipe': (sim, body) => {
    const options = {
      at: localTime(body, 'at'),
      pin: body.pin === undefined ? undefined : num(body, 'pin'),
    };
    return guard(() =>
      sim.swipe(
        num(body, 'serial'),
        num(body, 'card'),
        num(body, 'door'),
        num(body, 'direction', 1),
        options,
      ),
    );
  },
  '/button': (sim, body) => {
    const at = localTime(body, 'at');
    return guard(() => sim.pressButton(num(body, 'serial'), num(body, 'door'), { at }));
  },
  '/passcode': (sim, body) => {
    const at = localTime(body, 'at');
    return guard(() => sim.enterPasscode(num(body, 'serial'), num(body, 'door'), num(body, 'code'), { at }));
  },
  '/reset': (sim, body) => {
    guard(() => sim.restoreDefaults(num(body, 'serial')));
    return { ok: true };
  },
  '/clock': (sim, body) => {
    const time = localTime(body, 'time');
    if (!time) throw new HttpError(400, '"time" is required');
    guard(() => sim.setClock(num(body, 'serial'), time));
    return { ok: true };
  },
  '/force': (sim, body) => guard(() => sim.forceDoor(num(body, 'serial'), num(body, 'door'))),
  '/door': (sim, body) =>
    guard(() => sim.setDoorSensor(num(body, 'serial'), num(body, 'door'), body.open === true)),
  '/offline': (sim, body) => {
    guard(() =>
      sim.setOffline(body.offline === true, body.serial === undefined ? undefined : num(body, 'serial')),
    );
    return { ok: true };
  },
  '/drop': (sim, body) => {
    const rate = num(body, 'rate');
    if (rate < 0 || rate > 1) throw new HttpError(400, '"rate" must be within 0..1');
    sim.dropRate = rate;
    return { ok: true };
  },
  '/drift': (sim, body) => {
    guard(() => sim.setDrift(num(body, 'serial'), num(body, 'seconds')));
    return { ok: true };
  },
};

async function route(sim: WgSimulator, req: http.IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET') return get(sim, url);
  if (req.method !== 'POST') throw new HttpError(405, 'GET or POST');
  const body = await readBody(req);
  const post = Object.hasOwn(POSTS, url.pathname) ? POSTS[url.pathname] : undefined;
  if (!post) throw new HttpError(404, 'not found');
  return post(sim, body);
}

/** Serves the control API on `host:port` (port 0 picks one); resolves with the bound server. */
export async function serveHttp(sim: WgSimulator, port = 0, host = '127.0.0.1'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    route(sim, req).then(
      (result) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result ?? null));
      },
      (e: unknown) => {
        const status = e instanceof HttpError ? e.status : 500;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
      },
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}
