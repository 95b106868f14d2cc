import { describe, expect, it } from 'vitest';
import { HubConnection, type HubDeps, type WebSocketLike } from '../src/core/hub.ts';

class FakeSocket implements WebSocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
}

function setup(origin = 'https://gate.example:8443') {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  let tickets = 0;
  const resyncs: number[] = [];
  const deps: HubDeps = {
    ticketUrl: async (areaId) => `/api/hub?AreaId=${areaId}&ticket=t${++tickets}`,
    open: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    origin: () => origin,
    setTimeout: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
    resync: () => resyncs.push(sockets.length),
  };
  return { hub: new HubConnection(deps), sockets, timers, resyncs };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('live hub connection', () => {
  it("resolves the ticket address against the page's origin, secure when the page is", async () => {
    const { hub, sockets } = setup();
    hub.connect(1);
    await tick();
    expect(sockets[0]!.url).toBe('wss://gate.example:8443/api/hub?AreaId=1&ticket=t1');
    const plain = setup('http://192.168.1.20:8080');
    plain.hub.connect(2);
    await tick();
    expect(plain.sockets[0]!.url).toBe('ws://192.168.1.20:8080/api/hub?AreaId=2&ticket=t1');
  });

  it('delivers parsed events to subscribers and ignores garbage', async () => {
    const { hub, sockets } = setup();
    const seen: string[] = [];
    hub.subscribe((m) => seen.push(m.Type));
    hub.connect(1);
    await tick();
    sockets[0]!.onmessage!({ data: '{"Type":"Swipe","At":"x"}' });
    sockets[0]!.onmessage!({ data: 'not json' });
    expect(seen).toEqual(['Swipe']);
  });

  it('reconnects with a new ticket and growing pauses (a refused ticket too, to any instance), but not after 4403', async () => {
    const { hub, sockets, timers } = setup();
    hub.connect(1);
    await tick();
    sockets[0]!.onclose!({ code: 1006 });
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers[0]!.fn();
    await tick();
    expect(sockets[1]!.url).toContain('ticket=t2');
    sockets[1]!.onclose!({ code: 1006 });
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000]);
    timers[1]!.fn();
    await tick();
    // A ticket another instance refused, or a session that ended: try again with a fresh ticket.
    sockets[2]!.onclose!({ code: 4401 });
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000, 4000]);
    timers[2]!.fn();
    await tick();
    expect(sockets[3]!.url).toContain('ticket=t4');
    // The user lost the area: nothing to reconnect to until the area changes.
    sockets[3]!.onclose!({ code: 4403 });
    expect(timers).toHaveLength(3);
  });

  it('moves to another area and closes the old socket', async () => {
    const { hub, sockets } = setup();
    hub.connect(1);
    await tick();
    hub.connect(1);
    await tick();
    expect(sockets).toHaveLength(1);
    hub.connect(2);
    await tick();
    expect(sockets[0]!.closed).toBe(true);
    expect(sockets[1]!.url).toContain('AreaId=2');
    hub.disconnect();
    expect(sockets[1]!.closed).toBe(true);
  });

  it('reloads the screens when a connection opens after one was lost, not on the first one nor after an area change', async () => {
    const { hub, sockets, timers, resyncs } = setup();
    hub.connect(1);
    await tick();
    sockets[0]!.onopen!();
    expect(resyncs).toEqual([]);
    // Lost (an instance restarted): the events until the next connection opens are missed.
    sockets[0]!.onclose!({ code: 1006 });
    timers[0]!.fn();
    await tick();
    expect(resyncs).toEqual([]);
    sockets[1]!.onclose!({ code: 1006 });
    timers[1]!.fn();
    await tick();
    sockets[2]!.onopen!();
    expect(resyncs).toEqual([3]);
    // Once caught up, a message or another open of the same socket reloads nothing more.
    sockets[2]!.onmessage!({ data: '{"Type":"Swipe","At":"x"}' });
    sockets[2]!.onopen!();
    expect(resyncs).toEqual([3]);
    // Lost, then the operator moves to another area: its screens load afresh, nothing to catch up on.
    sockets[2]!.onclose!({ code: 1006 });
    hub.connect(2);
    await tick();
    sockets[3]!.onopen!();
    expect(resyncs).toEqual([3]);
  });
});
