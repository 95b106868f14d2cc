import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import {
  BusChannelError,
  BusClosedError,
  BusPayloadTooLargeError,
  BusRemoteError,
  BusTimeoutError,
  LocalBus,
  LocalBusNetwork,
  MAX_MESSAGE_BYTES,
  PgBus,
  type Bus,
  type Json,
  type MessageMeta,
} from '../src/platform/cluster/index.ts';
import { childDatabase, childDbKinds, type ChildDatabase } from './support/child-db.ts';

/** Polls `check` until it holds or `ms` pass; the final check's failure is the test's. */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collect(bus: Bus, channel: string) {
  const got: { message: Json; meta: MessageMeta }[] = [];
  const unsubscribe = bus.subscribe(channel, (message, meta) => void got.push({ message, meta }));
  return { got, unsubscribe, messages: () => got.map((g) => g.message) };
}

/**
 * Several bus instances. On SQLite: LocalBus objects joined by one network (one process stands for the
 * cluster). On PostgreSQL: PgBus objects, each with its own pool and its own listening connection, in a
 * namespace of the test's own (LISTEN channels are per database, not per schema).
 */
interface Cluster {
  make(): Bus;
  close(): Promise<void>;
}

async function cluster(kind: 'sqlite' | 'postgres'): Promise<Cluster> {
  const buses: Bus[] = [];
  if (kind === 'sqlite') {
    const network = new LocalBusNetwork();
    return {
      make: () => {
        const bus = new LocalBus({ network, onError: () => {} });
        buses.push(bus);
        return bus;
      },
      close: async () => void (await Promise.all(buses.splice(0).map((b) => b.close()))),
    };
  }
  const database: ChildDatabase = await childDatabase('postgres', 'bus');
  const dbs: Db[] = [];
  const namespace = `t${randomBytes(4).toString('hex')}`;
  return {
    make: () => {
      const db = database.open();
      dbs.push(db);
      const bus = new PgBus({
        db,
        url: process.env.TEST_DATABASE_URL!,
        namespace,
        reconnect: { minMs: 20, maxMs: 200 },
        onError: () => {},
      });
      buses.push(bus);
      return bus;
    },
    close: async () => {
      await Promise.all(buses.splice(0).map((b) => b.close()));
      await Promise.all(dbs.splice(0).map((d) => d.close()));
      await database.drop();
    },
  };
}

describe.each(childDbKinds)('[%s] cluster bus', (kind) => {
  let c: Cluster;
  let a: Bus;
  let b: Bus;
  let d: Bus;
  beforeAll(async () => {
    c = await cluster(kind);
    [a, b, d] = [c.make(), c.make(), c.make()];
  });
  afterAll(async () => {
    await c.close();
  });
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const f of cleanups.splice(0)) f();
  });
  const track = (bus: Bus, channel: string) => {
    const col = collect(bus, channel);
    cleanups.push(col.unsubscribe);
    return col;
  };

  it('delivers a publication to every instance, its own included, once each and in publish order', async () => {
    const [ga, gb, gd] = [track(a, 'evt'), track(b, 'evt'), track(d, 'evt')];
    await Promise.all([a.ready(), b.ready(), d.ready()]);
    for (let i = 0; i < 20; i++) await a.publish('evt', { i });
    await until(() => gb.got.length >= 20 && gd.got.length >= 20);
    await sleep(100); // an echo of the publisher's own messages would arrive by now
    const expected = Array.from({ length: 20 }, (_, i) => ({ i }));
    expect(ga.messages()).toEqual(expected);
    expect(gb.messages()).toEqual(expected);
    expect(gd.messages()).toEqual(expected);
    expect(ga.got.every((g) => g.meta.local && g.meta.from === a.tag)).toBe(true);
    expect(gb.got.every((g) => !g.meta.local && g.meta.from === a.tag && g.meta.channel === 'evt')).toBe(
      true,
    );
  });

  it('stops delivering to an instance that unsubscribed, and keeps channels apart (names are case-sensitive)', async () => {
    const gb = collect(b, 'Dev.42:Cmd-x_Y');
    const gd = track(d, 'Dev.42:Cmd-x_Y');
    const lower = track(d, 'dev.42:cmd-x_y');
    await Promise.all([b.ready(), d.ready()]);
    await a.publish('Dev.42:Cmd-x_Y', 'first');
    await until(() => gb.got.length === 1 && gd.got.length === 1);
    gb.unsubscribe();
    await b.ready();
    await a.publish('Dev.42:Cmd-x_Y', 'second');
    await a.publish('dev.42:cmd-x_y', 'lower');
    await until(() => gd.got.length === 2 && lower.got.length === 1);
    await sleep(100);
    expect(gb.messages()).toEqual(['first']);
    expect(gd.messages()).toEqual(['first', 'second']);
    expect(lower.messages()).toEqual(['lower']);
  });

  it(`carries a message of exactly ${MAX_MESSAGE_BYTES} bytes intact and refuses one byte more, counting bytes not characters`, async () => {
    const gb = track(b, 'big');
    await b.ready();
    const exact = 'x'.repeat(MAX_MESSAGE_BYTES - 2); // the two quotes make it exactly the limit
    await a.publish('big', exact);
    await until(() => gb.got.length === 1);
    expect(gb.messages()).toEqual([exact]);

    await expect(a.publish('big', 'x'.repeat(MAX_MESSAGE_BYTES - 1))).rejects.toBeInstanceOf(
      BusPayloadTooLargeError,
    );
    // 2,633 CJK characters are 7,899 bytes of UTF-8 (+2 quotes): over, though far under 7,900 characters.
    const cjk = a.publish('big', '门'.repeat(2633));
    await expect(cjk).rejects.toThrow(/7901 bytes of JSON; the bus carries at most 7900/);
    await expect(a.request('big', { pad: 'y'.repeat(MAX_MESSAGE_BYTES) }, 100)).rejects.toBeInstanceOf(
      BusPayloadTooLargeError,
    );
    await sleep(100);
    expect(gb.got).toHaveLength(1);
  });

  it('refuses channel names that are not safe, and messages that are not JSON', async () => {
    for (const bad of ['', 'a b', 'x'.repeat(49), 'a"b', 'é', '~inbox', 'a;drop'])
      await expect(a.publish(bad, 1), bad).rejects.toBeInstanceOf(BusChannelError);
    expect(() => a.subscribe('a b', () => {})).toThrow(BusChannelError);
    await expect(a.publish('ok', undefined as unknown as Json)).rejects.toThrow(/not JSON/);
  });

  it('request/reply reaches the serving instance and brings its answer back to the caller', async () => {
    cleanups.push(b.serve('cmd.b', (m, meta) => ({ by: 'b', echo: m, local: meta.local })));
    await b.ready();
    expect(await a.request('cmd.b', { door: 3 }, 2000)).toEqual({ by: 'b', echo: { door: 3 }, local: false });
    // Fifty at once: each answer goes back to its own request.
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => d.request('cmd.b', i, 3000)));
    expect(replies.map((r) => (r as { echo: number }).echo)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // A server on the caller's own instance answers directly.
    cleanups.push(a.serve('cmd.a', (m) => ({ by: 'a', echo: m })));
    expect(await a.request('cmd.a', 'self', 1000)).toEqual({ by: 'a', echo: 'self' });
  });

  it('times out with a typed error when nobody answers: no server, or every server declines', async () => {
    const started = Date.now();
    const none = await a.request('cmd.nobody', {}, 150).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(BusTimeoutError);
    expect(none).toMatchObject({ code: 'BUS_TIMEOUT', channel: 'cmd.nobody', timeoutMs: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    // "Not mine": the non-owner declines, the owner answers.
    cleanups.push(d.serve('cmd.any', () => undefined));
    cleanups.push(b.serve('cmd.any', (m) => (m === 'for-b' ? 'b has it' : undefined)));
    await Promise.all([b.ready(), d.ready()]);
    expect(await a.request('cmd.any', 'for-b', 2000)).toBe('b has it');
    await expect(a.request('cmd.any', 'for-nobody', 200)).rejects.toBeInstanceOf(BusTimeoutError);
  });

  it('passes a server failure back as BusRemoteError, and refuses a reply over the size limit', async () => {
    cleanups.push(
      b.serve('cmd.fail', (m) => {
        if (m === 'big') return 'z'.repeat(MAX_MESSAGE_BYTES);
        throw new Error('controller 42 is busy');
      }),
    );
    await b.ready();
    const error = await a.request('cmd.fail', 'x', 2000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusRemoteError);
    expect((error as Error).message).toContain('controller 42 is busy');
    await expect(a.request('cmd.fail', 'big', 2000)).rejects.toThrow(/reply refused.*bytes of JSON/);
  });

  it('close rejects pending requests and later calls, and the others carry on', async () => {
    const e = c.make();
    const pending = e.request('cmd.nobody', {}, 5000).catch((error: unknown) => error);
    await e.close();
    expect(await pending).toBeInstanceOf(BusClosedError);
    await expect(e.publish('evt', 1)).rejects.toBeInstanceOf(BusClosedError);
    const gb = track(b, 'after');
    await b.ready();
    await a.publish('after', 1);
    await until(() => gb.got.length === 1);
    expect(gb.messages()).toEqual([1]);
  });
});

describe.runIf(childDbKinds.includes('postgres'))('[postgres] PgBus over LISTEN/NOTIFY', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await cluster('postgres');
  });
  afterAll(async () => {
    await c.close();
  });

  it('sends a burst published in one turn as a few statements, packing messages into payloads under 8,000 bytes', async () => {
    const [a, b] = [c.make() as PgBus, c.make() as PgBus];
    const gb = collect(b, 'burst');
    await Promise.all([a.ready(), b.ready()]);
    const before = { ...a.stats };
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => a.publish('burst', { n: i, pad: 'p'.repeat(40) })),
    );
    const statements = a.stats.statements - before.statements;
    const notifications = a.stats.notifications - before.notifications;
    await until(() => gb.got.length >= 1000);
    expect(gb.messages()).toEqual(Array.from({ length: 1000 }, (_, i) => ({ n: i, pad: 'p'.repeat(40) })));
    // ~60 bytes a message: about 130 per payload, so 8 or 9 payloads in one statement.
    expect(statements).toBe(1);
    expect(notifications).toBeGreaterThanOrEqual(8);
    expect(notifications).toBeLessThanOrEqual(10);
    console.log(
      `[postgres] bus: 1,000 messages in one turn -> ${statements} statement, ${notifications} NOTIFY`,
    );
  });

  it('delivers identical large messages of one batch each (PostgreSQL folds identical notifications of a transaction)', async () => {
    const [a, b] = [c.make(), c.make()];
    const gb = collect(b, 'same');
    await Promise.all([a.ready(), b.ready()]);
    const big = 'q'.repeat(5000);
    await Promise.all([a.publish('same', big), a.publish('same', big), a.publish('same', big)]);
    await until(() => gb.got.length >= 3);
    await sleep(100);
    expect(gb.got).toHaveLength(3);
  });

  it('reconnects a killed listening connection, listens again and fires onResync; messages flow again', async () => {
    const [a, b] = [c.make(), c.make() as PgBus];
    const gb = collect(b, 'after-loss');
    let resyncs = 0;
    b.onResync(() => void resyncs++);
    await Promise.all([a.ready(), b.ready()]);
    await a.publish('after-loss', 'before');
    await until(() => gb.got.length === 1);
    expect(resyncs).toBe(0);

    // The server ends the backend, as a database restart or an administrator would.
    const pid = b.listenerPid;
    expect(pid).toBeTypeOf('number');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await until(() => resyncs === 1 && b.listenerPid !== undefined && b.listenerPid !== pid, 5000);
    expect(resyncs).toBe(1);
    expect(b.stats.connections).toBe(2);
    await b.ready();
    await a.publish('after-loss', 'after');
    await until(() => gb.got.length === 2);
    expect(gb.messages()).toEqual(['before', 'after']);

    // A silent network loss (the socket destroyed under it) is recovered the same way.
    b.dropListener();
    await until(() => resyncs === 2, 5000);
    expect(resyncs).toBe(2);
    await b.ready();
    await a.publish('after-loss', 'again');
    await until(() => gb.got.length === 3);
    expect(gb.messages()).toEqual(['before', 'after', 'again']);
  });

  it('refuses a transaction to publish from, and rejects a publication that could not be sent', async () => {
    const database = await childDatabase('postgres', 'bus_down');
    const db = database.open();
    try {
      await db.kysely.transaction().execute(async (trx) => {
        expect(() => new PgBus({ db: { kysely: trx }, url: process.env.TEST_DATABASE_URL! })).toThrow(
          /outside transactions/,
        );
      });
      const bus = new PgBus({
        db,
        url: process.env.TEST_DATABASE_URL!,
        namespace: 'tdown',
        onError: () => {},
      });
      await bus.ready();
      await db.close(); // the pool is gone, as if the database were unreachable
      await expect(bus.publish('evt', 1)).rejects.toThrow();
      await bus.close();
    } finally {
      await database.drop();
    }
  });
});
