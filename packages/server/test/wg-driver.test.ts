// The WG driver against the simulator (packages/wg-simulator, which has its own controller-side codec), over
// loopback UDP on ports picked by the OS.
import dgram from 'node:dgram';
import { once } from 'node:events';
import { VirtualController, WgSimulator, wallClock } from '@gatehouse/wg-simulator';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodeResponse,
  encodeRequest,
  type LocalDate,
  type TimeProfile,
  type Weekdays,
  type WgTask,
} from '../src/gateways/wg/codec.ts';
import {
  AntiPassback,
  FirstCardMode,
  Interlock,
  Reason,
  RecordType,
  TaskType,
} from '../src/gateways/wg/constants.ts';
import {
  WgDriver,
  WgError,
  parseHostPort,
  type WgDevice,
  type WgDeviceChange,
  type WgEventFrom,
} from '../src/gateways/wg/driver.ts';
import { clockDriftSeconds, toLocalDateTime } from '../src/gateways/wg/time.ts';

const FOUR_DOOR = 423187757;
const TWO_DOOR = 223336677;

let sim: WgSimulator | undefined;
let driver: WgDriver | undefined;

afterEach(async () => {
  await driver?.close();
  await sim?.close();
  driver = undefined;
  sim = undefined;
});

async function setup(options: Partial<Parameters<typeof WgSimulator.start>[0]> = {}, driverOptions = {}) {
  sim = await WgSimulator.start({
    controllers: [FOUR_DOOR, TWO_DOOR],
    timeZone: 'UTC',
    sharedPort: 0,
    ...options,
  });
  driver = await WgDriver.open({ bindAddress: '127.0.0.1', timeoutMs: 100, ...driverOptions });
  const device = (serial: number): WgDevice => ({ serial, ...sim!.address(serial) });
  return { sim, driver, d4: device(FOUR_DOOR), d2: device(TWO_DOOR) };
}

/** Deterministic random source (mulberry32), so the packet-loss test is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    expect(e).toBeInstanceOf(WgError);
    return (e as WgError).code;
  }
}

describe('WG driver against the simulator', () => {
  it('searches with serial 0 and tracks devices, firmware and online state', async () => {
    const { driver, sim, d4 } = await setup();
    const changes: WgDeviceChange[] = [];
    driver.on('device', (c) => changes.push(c));
    const found = await driver.search({ ...sim.sharedAddress()!, waitMs: 200 });
    expect(found.map((d) => d.serial)).toEqual([TWO_DOOR, FOUR_DOOR]);
    expect(found[0]).toMatchObject({
      address: '127.0.0.1',
      version: '8.92',
      releaseDate: { year: 2018, month: 8, day: 16 },
    });
    expect(driver.state(FOUR_DOOR)).toMatchObject({ online: true, firmware: '8.92' });
    expect(changes.map((c) => [c.state.serial, c.previous?.online ?? null, c.state.online])).toEqual(
      expect.arrayContaining([[FOUR_DOOR, null, true]]),
    );
    const device = await driver.getDevice(d4);
    expect(device).toMatchObject({ serial: FOUR_DOOR, mac: '00:66:19:39:55:2d' });
  });

  it('reads the status with its newest record and the system clock', async () => {
    const { driver, sim, d4 } = await setup();
    expect((await driver.getStatus(d4)).event).toMatchObject({ index: 0, type: RecordType.None, time: null });
    sim.controller(FOUR_DOOR).putCard({ card: 10058400, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    sim.swipe(FOUR_DOOR, 10058400, 2);
    const status = await driver.getStatus(d4);
    expect(status.event).toMatchObject({
      index: 1,
      type: RecordType.Swipe,
      granted: true,
      door: 2,
      card: { kind: 'card', number: 10058400 },
      reason: Reason.Swipe,
    });
    expect(Math.abs(clockDriftSeconds(status.systemTime!, new Date(), 'UTC'))).toBeLessThanOrEqual(2);
  });

  it('measures and corrects clock drift with get/set time', async () => {
    const { driver, sim, d2 } = await setup();
    sim.setDrift(TWO_DOOR, 3600);
    const drift = clockDriftSeconds((await driver.getTime(d2))!, new Date(), 'UTC');
    expect(Math.abs(drift - 3600)).toBeLessThanOrEqual(2);
    expect(Math.abs((await driver.clockDrift(d2, 'UTC')).driftSeconds! - 3600)).toBeLessThanOrEqual(2);
    await driver.setTime(d2, toLocalDateTime(new Date(), 'UTC'));
    expect(Math.abs(clockDriftSeconds((await driver.getTime(d2))!, new Date(), 'UTC'))).toBeLessThanOrEqual(
      2,
    );
    expect(() => driver.getStatus({ serial: 0, host: '127.0.0.1' })).toThrow(RangeError);
  });

  it('puts, reads, counts, lists by index and deletes cards', async () => {
    const { driver, sim, d4 } = await setup();
    const from = { year: 2024, month: 1, day: 1 };
    const to = { year: 2030, month: 12, day: 31 };
    for (const card of [101, 102, 103])
      await driver.putCard(d4, { card, from, to, doors: [1, 0, 1, 0], pin: 0 });
    await driver.putCard(d4, { card: 102, from, to, doors: [1, 1, 1, 1], pin: 1234 }); // replaces in place
    expect(await driver.getCardCount(d4)).toBe(3);
    expect(await driver.getCard(d4, 102)).toEqual({ card: 102, from, to, doors: [1, 1, 1, 1], pin: 1234 });
    expect(await driver.getCard(d4, 999)).toBeNull();
    expect(await driver.deleteCard(d4, 101)).toBe(true);
    expect(await driver.deleteCard(d4, 101)).toBe(false);
    expect(await driver.getCardByIndex(d4, 1)).toEqual({ kind: 'deleted' });
    expect(await driver.getCardByIndex(d4, 2)).toMatchObject({ kind: 'card', card: 102 });
    expect(await driver.getCardByIndex(d4, 4)).toEqual({ kind: 'none' });
    expect(await driver.getCardCount(d4)).toBe(2);
    expect(
      sim
        .controller(FOUR_DOOR)
        .cards()
        .map((c) => c.card),
    ).toEqual([102, 103]);
    const progress: number[] = [];
    const listed = await driver.listCards(d4, { onProgress: (found) => progress.push(found) });
    expect(listed.map((c) => [c.card, c.pin])).toEqual([
      [102, 1234],
      [103, 0],
    ]);
    expect(progress).toEqual([1, 2]);
    await driver.deleteAllCards(d4);
    expect(await driver.getCardCount(d4)).toBe(0);
  });

  it('opens a door (record with reason 44), sets door modes, and reports refusals', async () => {
    const { driver, d4, d2 } = await setup();
    await driver.openDoor(d4, 3);
    const { event } = await driver.getStatus(d4);
    expect(await driver.getRecord(d4, event.index)).toMatchObject({
      type: RecordType.Door,
      door: 3,
      granted: true,
      reason: Reason.RemoteOpen,
    });
    expect(await code(driver.openDoor(d2, 3))).toBe('refused'); // a two-door controller has no door 3
    expect(driver.state(TWO_DOOR)).toMatchObject({ online: true, lastError: 'refused' });
    expect(await driver.setDoorControl(d4, 2, { mode: 1, delay: 7 })).toEqual({ mode: 1, delay: 7 });
    expect(await driver.getDoorControl(d4, 2)).toEqual({ mode: 1, delay: 7 });
    expect(await code(driver.setDoorControl(d4, 2, { mode: 9, delay: 7 }))).toBe('refused');
    await driver.recordSpecialEvents(d4, true);
  });

  it('receives pushed events in listen mode (0x90 / 0x92)', async () => {
    const { driver, sim, d4 } = await setup();
    const listening = await driver.listen('127.0.0.1:0');
    await driver.setListener(d4, '127.0.0.1', listening.port);
    expect(await driver.getListener(d4)).toEqual({ address: '127.0.0.1', port: listening.port, interval: 0 });
    const received = once(driver, 'event') as Promise<[WgEventFrom]>;
    sim.swipe(FOUR_DOOR, 4242, 1);
    const [{ event }] = await received;
    expect(event).toMatchObject({
      serial: FOUR_DOOR,
      event: {
        index: 1,
        type: RecordType.Swipe,
        card: { kind: 'card', number: 4242 },
        granted: false,
        reason: Reason.DeniedNoPrivilege,
      },
    });
    // garbage on the listener is counted, not thrown
    const raw = dgram.createSocket('udp4');
    raw.send(Buffer.alloc(10), listening.port, '127.0.0.1', () => raw.close());
    await new Promise((r) => setTimeout(r, 100));
    expect(driver.droppedListener.length).toBe(1);
  });

  it('reads records by index across a wrapped ring, and keeps the read index', async () => {
    const { driver, sim, d4 } = await setup({ recordCapacity: 3 });
    for (let i = 0; i < 5; i++) sim.swipe(FOUR_DOOR, 500 + i, 1);
    expect((await driver.getStatus(d4)).event.index).toBe(5);
    expect(await driver.getRecord(d4, 1)).toMatchObject({ index: 1, type: RecordType.Overwritten });
    expect(await driver.getRecord(d4, 2)).toMatchObject({ index: 2, type: RecordType.Overwritten });
    expect(await driver.getRecord(d4, 3)).toMatchObject({
      index: 3,
      type: RecordType.Swipe,
      card: { kind: 'card', number: 502 },
    });
    expect(await driver.getRecord(d4, 5)).toMatchObject({ index: 5, card: { kind: 'card', number: 504 } });
    expect(await driver.getRecord(d4, 6)).toMatchObject({ type: RecordType.None });
    await driver.setReadIndex(d4, 4);
    expect(await driver.getReadIndex(d4)).toBe(4);
  });

  it('still succeeds with 20% of datagrams lost each way, retrying', async () => {
    // Each try needs both datagrams through: 0.8² = 64%. Eight tries leave a 0.36⁸ ≈ 0.03% failure chance per
    // request; the seeded loss pattern makes the run deterministic anyway.
    const { driver, sim, d4 } = await setup(
      { dropRate: 0.2, random: seeded(12) },
      { tries: 8, timeoutMs: 50 },
    );
    const cards = Array.from({ length: 40 }, (_, i) => 7000 + i);
    for (const card of cards)
      await driver.putCard(d4, { card, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    expect(await driver.getCardCount(d4)).toBe(40);
    for (const card of cards.slice(0, 10)) expect((await driver.getCard(d4, card))?.card).toBe(card);
    expect(
      sim
        .controller(FOUR_DOOR)
        .cards()
        .map((c) => c.card),
    ).toEqual(cards);
    expect(sim.stats.droppedIn + sim.stats.droppedOut).toBeGreaterThan(5);
  });

  it('with the default 3 tries at 20% loss, the rare exhausted request fails typed and a caller retry converges', async () => {
    // 3 tries fail together with probability 0.36³ ≈ 4.7%: sync and collection retry whole operations.
    const { driver, sim, d4 } = await setup({ dropRate: 0.2, random: seeded(7) }, { timeoutMs: 50 });
    const failures: string[] = [];
    const cards = Array.from({ length: 40 }, (_, i) => 8000 + i);
    for (const card of cards) {
      for (let attempt = 0; ; attempt++) {
        const result = await code(
          driver.putCard(d4, { card, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 }),
        );
        if (result === 'resolved') break;
        failures.push(result);
        expect(attempt).toBeLessThan(5);
      }
    }
    expect(
      sim
        .controller(FOUR_DOOR)
        .cards()
        .map((c) => c.card),
    ).toEqual(cards);
    expect(failures.every((f) => f === 'timeout' || f === 'offline')).toBe(true);
  });

  it('keeps one request in flight per controller, in FIFO order', async () => {
    const { driver, d4, d2 } = await setup();
    const done: string[] = [];
    const jobs = [
      ...[1, 2, 3, 4, 5].map((n) =>
        driver
          .putCard(d4, { card: n, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 })
          .then(() => done.push(`4:${n}`)),
      ),
      ...[1, 2, 3].map((n) => driver.getCardCount(d2).then(() => done.push(`2:${n}`))),
    ];
    await Promise.all(jobs);
    expect(done.filter((d) => d.startsWith('4:'))).toEqual(['4:1', '4:2', '4:3', '4:4', '4:5']);
    expect(done.filter((d) => d.startsWith('2:'))).toEqual(['2:1', '2:2', '2:3']);
    expect(driver.dropped.stale + driver.dropped.unmatched).toBe(0);
  });

  it('marks a silent controller offline (timeout, then offline) and online again', async () => {
    const { driver, sim, d2 } = await setup({}, { tries: 2, timeoutMs: 50 });
    const changes: WgDeviceChange[] = [];
    driver.on('device', (c) => changes.push(c));
    await driver.getStatus(d2);
    sim.setOffline(true, TWO_DOOR);
    expect(await code(driver.getStatus(d2))).toBe('timeout');
    expect(await code(driver.getStatus(d2))).toBe('offline');
    expect(driver.state(TWO_DOOR)).toMatchObject({ online: false, lastError: 'offline' });
    sim.setOffline(false, TWO_DOOR);
    await driver.getStatus(d2);
    expect(changes.map((c) => c.state.online)).toEqual([true, false, true]);
    expect(driver.state(TWO_DOOR)!.lastSeen).toBeInstanceOf(Date);
  });

  it('counts malformed replies and rejects after closing', async () => {
    const { driver, d4 } = await setup();
    const raw = dgram.createSocket('udp4');
    const { port } = driver.address();
    await new Promise<void>((r) => raw.send(Buffer.alloc(64, 0x99), port, '127.0.0.1', () => r()));
    raw.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(driver.dropped.type).toBe(1);
    const late = driver.getStatus(d4);
    await driver.close();
    expect(['resolved', 'closed']).toContain(await code(late));
    expect(await code(driver.getStatus(d4))).toBe('closed');
  });

  it('parses WG_LISTEN-style addresses', () => {
    expect(parseHostPort('0.0.0.0:60001')).toEqual({ host: '0.0.0.0', port: 60001 });
    expect(parseHostPort('60001')).toEqual({ host: '0.0.0.0', port: 60001 });
    expect(() => parseHostPort('nope')).toThrow(RangeError);
  });
});

const EVERY_DAY: Weekdays = {
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: true,
  sunday: true,
};
const hm = (hour: number, minute: number) => ({ hour, minute });
const NO_SEGMENT = { start: hm(0, 0), end: hm(0, 0) };
/** Weekdays 08:00-12:00 and 13:00-18:00 in 2021, then profile 3 (Saturdays 09:00-12:00). */
const OFFICE: TimeProfile = {
  id: 2,
  from: { year: 2021, month: 1, day: 1 },
  to: { year: 2021, month: 12, day: 31 },
  weekdays: { ...EVERY_DAY, saturday: false, sunday: false },
  segments: [{ start: hm(8, 0), end: hm(12, 0) }, { start: hm(13, 0), end: hm(18, 0) }, NO_SEGMENT],
  linked: 3,
};
const SATURDAY: TimeProfile = {
  ...OFFICE,
  id: 3,
  weekdays: { ...OFFICE.weekdays, friday: false, saturday: true },
  segments: [{ start: hm(9, 0), end: hm(12, 0) }, NO_SEGMENT, NO_SEGMENT],
  linked: 0,
};
const at = (day: number, hour: number, minute = 0) => ({
  year: 2021,
  month: 6,
  day,
  hour,
  minute,
  second: 0,
});

describe('WG driver: access rules against the simulator', () => {
  // Sunday 2021-06-06 03:00 UTC on every simulated controller's clock
  const sunday3am = () => new Date('2021-06-06T03:00:00Z');

  it('stores, reads and clears time profiles; a card with a profile passes only inside it', async () => {
    const { driver, sim, d4 } = await setup({ now: sunday3am });
    await driver.setTimeProfile(d4, OFFICE);
    await driver.setTimeProfile(d4, SATURDAY);
    expect(await driver.getTimeProfile(d4, 2)).toEqual(OFFICE);
    expect(await driver.getTimeProfile(d4, 3)).toEqual(SATURDAY);
    expect(await driver.getTimeProfile(d4, 9)).toBeNull();
    await driver.putCard(d4, { card: 7001, from: null, to: null, doors: [2, 1, 0, 2], pin: 0 });
    // the card record keeps the profile id: 0x5A reads door values back as written
    expect((await driver.getCard(d4, 7001))?.doors).toEqual([2, 1, 0, 2]);
    const swipe = (door: number, t: ReturnType<typeof at>) => sim.swipe(FOUR_DOOR, 7001, door, 1, { at: t });
    expect(swipe(1, at(6, 3))).toMatchObject({ granted: false, reason: Reason.DeniedInvalidTimezone }); // Sunday 03:00
    expect(swipe(2, at(6, 3))).toMatchObject({ granted: true, reason: Reason.Swipe }); // door value 1: always
    expect(swipe(3, at(7, 9))).toMatchObject({ reason: Reason.DeniedNoPrivilege }); // door value 0
    expect(swipe(1, at(7, 9))).toMatchObject({ granted: true }); // Monday 09:00
    expect(swipe(4, at(7, 12, 30))).toMatchObject({ reason: Reason.DeniedInvalidTimezone }); // lunch
    expect(swipe(4, at(12, 10))).toMatchObject({ granted: true }); // Saturday, through linked profile 3
    // the refusal reaches the host as it would from a real controller
    const { event } = await driver.getStatus(d4);
    expect(await driver.getRecord(d4, event.index)).toMatchObject({
      door: 4,
      reason: Reason.Swipe,
      granted: true,
    });
    await driver.clearTimeProfiles(d4);
    expect(await driver.getTimeProfile(d4, 2)).toBeNull();
    // what the controller would not store is refused before sending
    expect(() => driver.setTimeProfile(d4, { ...OFFICE, id: 1 })).toThrow(RangeError);
    expect(() => driver.setTimeProfile(d4, { ...OFFICE, linked: 2 })).toThrow(RangeError);
    expect(() => driver.setTimeProfile(d4, { ...OFFICE, to: null })).toThrow(RangeError);
    const backwards = { ...OFFICE, segments: [{ start: hm(9, 0), end: hm(8, 0) }, NO_SEGMENT, NO_SEGMENT] };
    expect(() => driver.setTimeProfile(d4, backwards as TimeProfile)).toThrow(RangeError);
  });

  it('adds, refreshes and clears tasks; a refreshed task changes the door at its start time', async () => {
    const { driver, sim, d4 } = await setup({ now: () => new Date('2021-06-07T07:00:00Z') }); // Monday 07:00
    const closeAt = (hour: number): WgTask => ({
      type: TaskType.DoorNormallyClosed,
      door: 1,
      from: { year: 2021, month: 1, day: 1 },
      to: { year: 2021, month: 12, day: 31 },
      weekdays: EVERY_DAY,
      start: hm(hour, 0),
      moreCards: 0,
    });
    await driver.putCard(d4, { card: 7002, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    await driver.addTask(d4, closeAt(8));
    await driver.addTask(d4, { ...closeAt(17), type: TaskType.DoorControlled });
    expect(sim.swipe(FOUR_DOOR, 7002, 1, 1, { at: at(7, 9) }).granted).toBe(true); // not refreshed yet
    sim.setClock(FOUR_DOOR, at(7, 7));
    await driver.refreshTasks(d4);
    expect(
      sim
        .controller(FOUR_DOOR)
        .rulesSnapshot()
        .tasks.map((t) => [t.type, t.start.hour]),
    ).toEqual([
      [TaskType.DoorNormallyClosed, 8],
      [TaskType.DoorControlled, 17],
    ]);
    expect(sim.swipe(FOUR_DOOR, 7002, 1, 1, { at: at(7, 8) }).reason).toBe(Reason.DeniedDoorNormallyClosed);
    expect(sim.swipe(FOUR_DOOR, 7002, 1, 1, { at: at(7, 17) }).reason).toBe(Reason.Swipe);
    await driver.clearTasks(d4);
    expect(sim.controller(FOUR_DOOR).rulesSnapshot().tasks).toEqual([]);
    expect(() => driver.addTask(d4, { ...closeAt(8), type: 13 })).toThrow(RangeError);
    expect(() => driver.addTask(d4, { ...closeAt(8), door: 5 })).toThrow(RangeError);
    expect(() => driver.addTask(d4, { ...closeAt(8), from: null })).toThrow(RangeError);
  });

  it('sets interlock, anti-passback, keypads, passcodes and first card; restores defaults', async () => {
    const { driver, sim, d4, d2 } = await setup({ now: sunday3am });
    const c = sim.controller(FOUR_DOOR);
    await driver.putCard(d4, { card: 7003, from: null, to: null, doors: [1, 1, 1, 1], pin: 4321 });
    await driver.setInterlock(d4, Interlock.Doors12);
    expect(c.rules.interlock).toBe(1);
    c.setDoorSensor(2, true);
    expect(sim.swipe(FOUR_DOOR, 7003, 1).reason).toBe(Reason.DeniedInterlock);
    c.setDoorSensor(2, false);
    await driver.setInterlock(d4, Interlock.None);
    await driver.setAntiPassback(d4, AntiPassback.Readers12_34);
    expect(await driver.getAntiPassback(d4)).toBe(AntiPassback.Readers12_34);
    expect(sim.swipe(FOUR_DOOR, 7003, 1).reason).toBe(Reason.Swipe);
    expect(sim.swipe(FOUR_DOOR, 7003, 1).reason).toBe(Reason.DeniedAntiPassback);
    await driver.activateKeypads(d4, [false, true, false, false]);
    expect(sim.swipe(FOUR_DOOR, 7003, 2).reason).toBe(Reason.DeniedWrongPassword);
    expect(sim.swipe(FOUR_DOOR, 7003, 2, 1, { pin: 4321 }).reason).toBe(Reason.Swipe);
    await driver.setDoorPasscodes(d4, 2, [112233]);
    expect(c.rulesSnapshot().passcodes[1]).toEqual([112233, 0, 0, 0]);
    expect(sim.enterPasscode(FOUR_DOOR, 2, 112233)).toMatchObject({ reason: Reason.SuperPasswordOpen });
    expect(() => driver.setDoorPasscodes(d4, 2, [1_000_000])).toThrow(RangeError);
    expect(() => driver.setDoorPasscodes(d4, 2, [1, 2, 3, 4, 5])).toThrow(RangeError);
    expect(await code(driver.setDoorPasscodes(d2, 3, [1]))).toBe('refused'); // no door 3 on two doors
    const firstCard = {
      door: 1,
      start: hm(8, 0),
      startMode: FirstCardMode.NormallyOpen,
      end: hm(18, 0),
      endMode: FirstCardMode.Controlled,
      weekdays: EVERY_DAY,
    };
    await driver.setFirstCard(d4, firstCard);
    expect(c.rulesSnapshot().firstCards).toEqual([{ ...firstCard, weekdays: Array(7).fill(true) }]);
    expect(() => driver.setInterlock(d4, 5)).toThrow(RangeError);
    expect(() => driver.setAntiPassback(d4, 5)).toThrow(RangeError);
    await driver.restoreDefaults(d4);
    expect(await driver.getCardCount(d4)).toBe(0);
    expect(await driver.getAntiPassback(d4)).toBe(AntiPassback.Disabled);
    expect(await driver.getListener(d4)).toEqual({ address: '0.0.0.0', port: 0, interval: 0 });
    expect(await driver.getDoorControl(d4, 1)).toEqual({ mode: 3, delay: 5 });
    expect(c.rulesSnapshot()).toMatchObject({
      interlock: 0,
      keypads: [false, false, false, false],
      firstCards: [],
    });
    expect((await driver.getStatus(d4)).event.index).toBe(0); // the record ring is empty too
  });

  it('every access-rule request survives 20% packet loss each way, retried', async () => {
    const { driver, sim, d4 } = await setup(
      { dropRate: 0.2, random: seeded(22), now: sunday3am },
      { tries: 8, timeoutMs: 50 },
    );
    for (let i = 0; i < 5; i++) await driver.setTimeProfile(d4, { ...OFFICE, id: 10 + i, linked: 0 });
    for (let i = 0; i < 5; i++) expect(await driver.getTimeProfile(d4, 10 + i)).toMatchObject({ id: 10 + i });
    const task: WgTask = {
      type: TaskType.EnablePushButton,
      door: 2,
      from: OFFICE.from,
      to: OFFICE.to,
      weekdays: EVERY_DAY,
      start: hm(6, 0),
      moreCards: 0,
    };
    await driver.clearTasks(d4);
    await driver.addTask(d4, task);
    await driver.refreshTasks(d4);
    await driver.setInterlock(d4, Interlock.Doors1234);
    await driver.setAntiPassback(d4, AntiPassback.Readers1_234);
    expect(await driver.getAntiPassback(d4)).toBe(AntiPassback.Readers1_234);
    await driver.activateKeypads(d4, [true, true, true, true]);
    await driver.setDoorPasscodes(d4, 4, [1, 2, 3, 4]);
    await driver.clearTimeProfiles(d4);
    const c = sim.controller(FOUR_DOOR);
    // addTask is the one request a lost reply can repeat: one or more copies, never none
    expect(c.rules.tasks.length).toBeGreaterThanOrEqual(1);
    expect(c.rules.tasks.every((t) => t.type === TaskType.EnablePushButton && t.door === 2)).toBe(true);
    expect(c.rulesSnapshot()).toMatchObject({
      profiles: [],
      interlock: Interlock.Doors1234,
      antiPassback: AntiPassback.Readers1_234,
      keypads: [true, true, true, true],
    });
    expect(c.rulesSnapshot().passcodes[3]).toEqual([1, 2, 3, 4]);
    await driver.restoreDefaults(d4);
    expect(c.rulesSnapshot().interlock).toBe(0);
    expect(sim.stats.droppedIn + sim.stats.droppedOut).toBeGreaterThan(3);
  });
});

describe('Gatehouse codec against the simulator codec (no network)', () => {
  const date = fc
    .record({
      year: fc.integer({ min: 2000, max: 2099 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
    })
    .map((d): LocalDate => d);
  const u8 = fc.integer({ min: 0, max: 255 });

  it('cards written with one codec read back identically through the other', () => {
    const c = new VirtualController({ serial: FOUR_DOOR }, () => wallClock('UTC'), '127.0.0.1');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0xfffffffe }),
        fc.option(date, { nil: null }),
        fc.option(date, { nil: null }),
        fc.tuple(u8, u8, u8, u8),
        fc.integer({ min: 0, max: 0xffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (card, from, to, doors, pin, sequence) => {
          const put = c.handle(
            encodeRequest({ kind: 'putCard', serial: FOUR_DOOR, card, from, to, doors, pin }, sequence),
          );
          expect(decodeResponse(put!)).toEqual({
            ok: true,
            value: { kind: 'putCard', serial: FOUR_DOOR, sequence, ok: true },
          });
          const got = decodeResponse(c.handle(encodeRequest({ kind: 'getCard', serial: FOUR_DOOR, card }))!);
          expect(got).toMatchObject({
            ok: true,
            value: { card: { kind: 'card', number: card }, from, to, doors, pin },
          });
        },
      ),
      { numRuns: 500 },
    );
    c.close();
  });

  it('time profiles written with one codec read back identically through the other', () => {
    const c = new VirtualController({ serial: FOUR_DOOR }, () => wallClock('UTC'), '127.0.0.1');
    const hhmm = fc.oneof(
      fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) }),
      fc.constant({ hour: 24, minute: 0 }),
    );
    const weekdays = fc.record({
      monday: fc.boolean(),
      tuesday: fc.boolean(),
      wednesday: fc.boolean(),
      thursday: fc.boolean(),
      friday: fc.boolean(),
      saturday: fc.boolean(),
      sunday: fc.boolean(),
    });
    const segment = fc.record({ start: hhmm, end: hhmm });
    fc.assert(
      fc.property(
        fc.record({
          id: fc.integer({ min: 2, max: 254 }),
          from: fc.option(date, { nil: null }),
          to: fc.option(date, { nil: null }),
          weekdays,
          segments: fc.tuple(segment, segment, segment),
          linked: u8,
        }),
        (profile) => {
          const set = c.handle(encodeRequest({ kind: 'setTimeProfile', serial: FOUR_DOOR, ...profile }));
          expect(decodeResponse(set!)).toMatchObject({ ok: true, value: { ok: true } });
          const got = c.handle(encodeRequest({ kind: 'getTimeProfile', serial: FOUR_DOOR, id: profile.id }));
          expect(decodeResponse(got!)).toEqual({
            ok: true,
            value: { kind: 'getTimeProfile', serial: FOUR_DOOR, sequence: 0, ...profile },
          });
        },
      ),
      { numRuns: 300 },
    );
    c.close();
  });

  it('records made by the simulator decode to what it logged', () => {
    const c = new VirtualController(
      { serial: FOUR_DOOR, recordCapacity: 50 },
      () => wallClock('UTC'),
      '127.0.0.1',
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0xfffffffe }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 2),
        (card, door, direction) => {
          const logged = c.swipe(card, door, direction);
          const r = decodeResponse(
            c.handle(encodeRequest({ kind: 'getRecord', serial: FOUR_DOOR, index: logged.index }))!,
          );
          expect(r).toMatchObject({
            ok: true,
            value: { record: { ...logged, card: { kind: 'card', number: card } } },
          });
          const status = decodeResponse(c.status(0));
          expect(status).toMatchObject({ ok: true, value: { event: { index: logged.index } } });
        },
      ),
      { numRuns: 300 },
    );
    c.close();
  });
});
