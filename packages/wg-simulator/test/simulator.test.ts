// The simulator against raw datagrams. Requests are the byte fixtures of uhppoted/uhppote-core
// messages/*_test.go (file named beside each), so the simulator is checked against the published protocol and
// not against Gatehouse's codec. Serial 423187757 = 0x1939552d, as in those fixtures.
import dgram from 'node:dgram';
import { once } from 'node:events';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualController, WgSimulator, serveHttp, wallClock } from '../src/index.ts';

const SERIAL = 423187757;
const TWO_DOOR = 223336677; // serial of messages/get_status_test.go TestUnmarshalGetStatusResponseWithNoEvent
const S = [0x2d, 0x55, 0x39, 0x19];

function packet(head: number[]): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from(head).copy(b);
  return b;
}

let sim: WgSimulator | undefined;
let client: dgram.Socket | undefined;

afterEach(async () => {
  client?.close();
  client = undefined;
  await sim?.close();
  sim = undefined;
});

async function udp(): Promise<dgram.Socket> {
  client = dgram.createSocket('udp4');
  client.bind(0, '127.0.0.1');
  await once(client, 'listening');
  return client;
}

/** Sends one datagram and collects the replies that arrive within `ms`. */
async function exchange(port: number, bytes: Buffer, ms = 150): Promise<Buffer[]> {
  const socket = client ?? (await udp());
  const replies: Buffer[] = [];
  const onMessage = (m: Buffer) => replies.push(m);
  socket.on('message', onMessage);
  socket.send(bytes, port, '127.0.0.1');
  await new Promise((r) => setTimeout(r, ms));
  socket.off('message', onMessage);
  return replies;
}

async function one(port: number, bytes: Buffer): Promise<Buffer> {
  const replies = await exchange(port, bytes);
  expect(replies).toHaveLength(1);
  expect(replies[0]).toHaveLength(64);
  return replies[0]!;
}

describe('WgSimulator', () => {
  it('answers a search with serial 0 once per controller (messages/get_device_test.go)', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL, TWO_DOOR], sharedPort: 0 });
    const replies = await exchange(sim.sharedAddress()!.port, packet([0x17, 0x94]));
    expect(replies.map((r) => r.readUInt32LE(4)).sort()).toEqual([TWO_DOOR, SERIAL].sort());
    const r = replies.find((b) => b.readUInt32LE(4) === SERIAL)!;
    expect([...r.subarray(0, 2)]).toEqual([0x17, 0x94]);
    expect([...r.subarray(8, 12)]).toEqual([127, 0, 0, 1]);
    expect([...r.subarray(26, 32)]).toEqual([0x08, 0x92, 0x20, 0x18, 0x08, 0x16]);
    // Each controller also has its own port and ignores requests for another serial.
    expect(await exchange(sim.address(TWO_DOOR).port, packet([0x17, 0x20, 0, 0, ...S]))).toHaveLength(0);
  });

  it('keeps cards: put, get, count, by index with the deleted marker, delete all', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL] });
    const port = sim.address(SERIAL).port;
    // messages/put_card_test.go TestMarshalPutCardRequest: card 6154412, 2019-01-02..2019-12-31, doors 1,0,29,1
    const put = packet([
      ...[0x17, 0x50, 0x00, 0x00, ...S, 0xac, 0xe8, 0x5d, 0x00, 0x20, 0x19, 0x01, 0x02],
      ...[0x20, 0x19, 0x12, 0x31, 0x01, 0x00, 29, 0x01],
    ]);
    expect((await one(port, put))[8]).toBe(1);
    const second = Buffer.from(put);
    second.writeUInt32LE(6154413, 8);
    expect((await one(port, second))[8]).toBe(1);
    // messages/get_cards_test.go TestMarshalGetCardsRequest
    expect((await one(port, packet([0x17, 0x58, 0, 0, ...S]))).readUInt32LE(8)).toBe(2);
    // messages/get_card_test.go TestMarshalGetCardByIdRequest → the stored card, as in TestUnmarshalGetCardByIdResponse
    const got = await one(port, packet([0x17, 0x5a, 0, 0, ...S, 0xac, 0xe8, 0x5d, 0x00]));
    expect([...got.subarray(8, 24)]).toEqual([...put.subarray(8, 24)]);
    // messages/delete_card_test.go TestMarshalDeleteCardRequest
    expect((await one(port, packet([0x17, 0x52, 0, 0, ...S, 0xac, 0xe8, 0x5d, 0x00])))[8]).toBe(1);
    expect((await one(port, packet([0x17, 0x52, 0, 0, ...S, 0xac, 0xe8, 0x5d, 0x00])))[8]).toBe(0);
    // messages/get_card_test.go TestMarshalGetCardByIndexRequest shape: slot 1 deleted, slot 2 the card, 3 none
    const at = async (i: number) => (await one(port, packet([0x17, 0x5c, 0, 0, ...S, i]))).readUInt32LE(8);
    expect(await at(1)).toBe(0xffffffff);
    expect(await at(2)).toBe(6154413);
    expect(await at(3)).toBe(0);
    expect((await one(port, packet([0x17, 0x58, 0, 0, ...S]))).readUInt32LE(8)).toBe(1);
    // messages/delete_cards_test.go: refused without the magic word, done with it
    expect((await one(port, packet([0x17, 0x54, 0, 0, ...S])))[8]).toBe(0);
    expect((await one(port, packet([0x17, 0x54, 0, 0, ...S, 0x55, 0xaa, 0xaa, 0x55])))[8]).toBe(1);
    expect((await one(port, packet([0x17, 0x58, 0, 0, ...S]))).readUInt32LE(8)).toBe(0);
  });

  it('sets and reads the clock, door modes and the read index', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL], timeZone: 'UTC' });
    const port = sim.address(SERIAL).port;
    // messages/set_time_test.go TestMarshalSetTimeRequest: 2019-04-21 09:44:40
    const set = await one(port, packet([0x17, 0x30, 0, 0, ...S, 0x20, 0x19, 0x04, 0x21, 0x09, 0x44, 0x40]));
    expect([...set.subarray(8, 13)]).toEqual([0x20, 0x19, 0x04, 0x21, 0x09]);
    // messages/get_time_test.go TestMarshalGetTimeRequest
    const got = await one(port, packet([0x17, 0x32, 0, 0, ...S]));
    expect([...got.subarray(8, 12)]).toEqual([0x20, 0x19, 0x04, 0x21]);
    // messages/set_door_control_state_test.go: door 4 normally closed, 5 s; echoed as in the response fixture
    const door = await one(port, packet([0x17, 0x80, 0, 0, ...S, 0x04, 0x02, 0x05]));
    expect([...door.subarray(8, 11)]).toEqual([4, 2, 5]);
    expect([...(await one(port, packet([0x17, 0x82, 0, 0, ...S, 0x04]))).subarray(8, 11)]).toEqual([4, 2, 5]);
    // messages/set_event_index_test.go: index 17 with the magic word; messages/get_event_index_test.go
    expect(
      (await one(port, packet([0x17, 0xb2, 0, 0, ...S, 0x11, 0, 0, 0, 0x55, 0xaa, 0xaa, 0x55])))[8],
    ).toBe(1);
    expect((await one(port, packet([0x17, 0xb4, 0, 0, ...S]))).readUInt32LE(8)).toBe(17);
  });

  it('records swipes and remote opens in a ring that overwrites the oldest (0xFF marker)', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL], recordCapacity: 3 });
    const port = sim.address(SERIAL).port;
    sim.controller(SERIAL).putCard({ card: 6154412, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    expect(sim.swipe(SERIAL, 6154412, 1)).toMatchObject({ index: 1, type: 1, granted: true, reason: 1 });
    expect(sim.swipe(SERIAL, 999, 2)).toMatchObject({ index: 2, granted: false, reason: 6 });
    // messages/open_door_test.go TestMarshalOpenDoorRequest: door 3 → reply 1 and a record with reason 44
    expect((await one(port, packet([0x17, 0x40, 0, 0, ...S, 0x03])))[8]).toBe(1);
    sim.forceDoor(SERIAL, 4);
    // messages/get_event_test.go TestMarshalGetEventRequest layout (index at 8)
    const record = async (i: number) => one(port, packet([0x17, 0xb0, 0, 0, ...S, ...u32(i)]));
    const first = await record(1);
    expect(first.readUInt32LE(8)).toBe(1);
    expect(first[12]).toBe(0xff); // overwritten: the ring holds 2..4
    const remote = await record(3);
    expect([remote[12], remote[13], remote[14], remote[27]]).toEqual([2, 1, 3, 44]);
    expect((await record(4))[27]).toBe(38);
    expect((await record(5)).readUInt32LE(8)).toBe(0); // beyond the newest: no record
    expect((await record(0)).readUInt32LE(8)).toBe(2); // 0: the oldest still held
    expect((await record(0xffffffff)).readUInt32LE(8)).toBe(4); // newest
    // messages/get_status_test.go TestMarshalGetStatusRequest: the status carries the newest record
    const status = await one(port, packet([0x17, 0x20, 0, 0, ...S]));
    expect([status.readUInt32LE(8), status[12], status[27], status[31]]).toEqual([4, 3, 38, 1]);
  });

  it('pushes new records to the listener set with 0x90 (messages/set_listener_test.go)', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL] });
    const port = sim.address(SERIAL).port;
    const listener = dgram.createSocket('udp4');
    listener.bind(0, '127.0.0.1');
    await once(listener, 'listening');
    try {
      const lport = listener.address().port;
      const set = packet([0x17, 0x90, 0, 0, ...S, 127, 0, 0, 1, lport & 0xff, lport >> 8]);
      expect((await one(port, set))[8]).toBe(1);
      const got = await one(port, packet([0x17, 0x92, 0, 0, ...S]));
      expect([...got.subarray(8, 14)]).toEqual([127, 0, 0, 1, lport & 0xff, lport >> 8]);
      const pushed = once(listener, 'message');
      sim.swipe(SERIAL, 12345, 1);
      const [msg] = (await pushed) as [Buffer];
      expect([msg[0], msg[1], msg.readUInt32LE(4), msg.readUInt32LE(8), msg.readUInt32LE(16)]).toEqual([
        0x17,
        0x20,
        SERIAL,
        1,
        12345,
      ]);
    } finally {
      listener.close();
    }
  });

  it('goes offline, drops a share of datagrams, and ignores malformed ones', async () => {
    let n = 0;
    sim = await WgSimulator.start({ controllers: [SERIAL], random: () => (n++ % 2 === 0 ? 0.1 : 0.9) });
    const port = sim.address(SERIAL).port;
    const status = packet([0x17, 0x20, 0, 0, ...S]);
    sim.setOffline(true);
    expect(await exchange(port, status)).toHaveLength(0);
    sim.setOffline(false);
    sim.dropRate = 0.5; // the injected random alternates 0.1 (lost) and 0.9 (kept)
    expect(await exchange(port, status)).toHaveLength(0);
    expect(sim.stats.droppedIn).toBe(1);
    sim.dropRate = 0;
    expect(await exchange(port, status.subarray(0, 63))).toHaveLength(0);
    expect(await exchange(port, packet([0x18, 0x20, 0, 0, ...S]))).toHaveLength(0);
    expect(await exchange(port, packet([0x17, 0x21, 0, 0, ...S]))).toHaveLength(0);
    expect(await exchange(port, status)).toHaveLength(1);
  });

  it('exposes the same actions over HTTP', async () => {
    sim = await WgSimulator.start({ controllers: [SERIAL] });
    const server = await serveHttp(sim);
    try {
      const { port } = server.address() as { port: number };
      const post = (path: string, body: object) =>
        fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(await (await post('/swipe', { serial: SERIAL, card: 42, door: 2 })).json()).toMatchObject({
        index: 1,
        card: 42,
      });
      expect((await post('/swipe', { serial: 1, card: 42, door: 2 })).status).toBe(404);
      expect((await post('/swipe', { serial: SERIAL, card: 42, door: 9 })).status).toBe(404);
      expect((await post('/force', { serial: SERIAL, door: 1 })).status).toBe(200);
      expect((await post('/drop', { rate: 0.2 })).status).toBe(200);
      expect(sim.dropRate).toBe(0.2);
      const list = (await (await fetch(`http://127.0.0.1:${port}/controllers`)).json()) as {
        records: { last: number };
      }[];
      expect(list[0]!.records.last).toBe(2);
      const records = (await (
        await fetch(`http://127.0.0.1:${port}/controllers/${SERIAL}/records`)
      ).json()) as object[];
      expect(records).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});

function u32(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

describe('VirtualController', () => {
  it('never throws on arbitrary datagrams, addressed to it or not', () => {
    const c = new VirtualController(
      { serial: SERIAL, recordCapacity: 4 },
      () => wallClock('UTC'),
      '127.0.0.1',
    );
    c.swipe(1, 1);
    // every function it answers, the access-rule ones (0x84..0xC8) included
    const fns = [
      0x20, 0x30, 0x32, 0x40, 0x50, 0x52, 0x54, 0x58, 0x5a, 0x5c, 0x80, 0x82, 0x84, 0x86, 0x88, 0x8a, 0x8c,
      0x8e, 0x90, 0x92, 0x94, 0x98, 0xa2, 0xa4, 0xa6, 0xa8, 0xaa, 0xac, 0xb0, 0xb2, 0xb4, 0xc8,
    ];
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.constantFrom(...fns),
        fc.boolean(),
        (bytes, fn, own) => {
          bytes[0] = 0x17;
          bytes[1] = fn;
          if (own) Buffer.from(bytes.buffer, bytes.byteOffset).writeUInt32LE(SERIAL, 4);
          const reply = c.handle(bytes);
          if (reply) expect(reply).toHaveLength(64);
        },
      ),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => void c.handle(bytes)),
      { numRuns: 1000 },
    );
    c.close();
  });
});
