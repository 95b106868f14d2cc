// The simulator's access rules against raw datagrams. Requests are the byte fixtures of uhppoted/uhppote-core
// messages/*_test.go (file and test named beside each), sometimes with one byte changed (said where), so the
// simulator is checked against the published protocol and not against Gatehouse's codec. The behaviour follows
// uhppoted/uhppote-simulator (simulator/UT0311L04/actions.go, entities/*.go), as rules.ts explains.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualController, WgSimulator, serveHttp, type SimDateTime } from '../src/index.ts';

const S423 = [0x2d, 0x55, 0x39, 0x19]; // 423187757, four doors
const S405 = [0x78, 0x37, 0x2a, 0x18]; // 405419896, four doors
const MAGIC = [0x55, 0xaa, 0xaa, 0x55];

function packet(head: number[]): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from(head).copy(b);
  return b;
}

const at = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second = 0,
): SimDateTime => ({
  year,
  month,
  day,
  hour,
  minute,
  second,
});

/** A controller with a frozen clock at `start` (UTC wall time), driven through handle() without a network. */
function controller(serial: number, start = at(2021, 6, 6, 3, 0)): VirtualController {
  const frozen = new Date(
    Date.UTC(start.year, start.month - 1, start.day, start.hour, start.minute, start.second),
  );
  const c = new VirtualController({ serial }, () => wallClockOf(frozen), '127.0.0.1');
  controllers.push(c);
  return c;
}

function wallClockOf(d: Date): SimDateTime {
  return at(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
}

const controllers: VirtualController[] = [];
let sim: WgSimulator | undefined;
afterEach(async () => {
  for (const c of controllers.splice(0)) c.close();
  await sim?.close();
  sim = undefined;
});

function send(c: VirtualController, bytes: number[]): Buffer {
  const reply = c.handle(packet(bytes));
  expect(reply).not.toBeNull();
  expect(reply).toHaveLength(64);
  return Buffer.from(reply!);
}

// messages/set_time_profile_test.go TestMarshalSetTimeProfileRequest: profile 4, 2021-04-01..2021-12-29,
// Mon Tue Thu Sat Sun, 08:30-09:45, 11:35-13:15, 14:01-17:59, linked profile 19
// prettier-ignore
const SET_PROFILE_4 = [
  0x17, 0x88, 0x00, 0x00, ...S423, 0x04, 0x20, 0x21, 0x04, 0x01, 0x20, 0x21, 0x12,
  0x29, 0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x08, 0x30, 0x09, 0x45, 0x11, 0x35, 0x13, 0x15,
  0x14, 0x01, 0x17, 0x59, 0x13,
];
// The same layout for profile 19: 2021-01-01..2021-12-31, Wednesday only, 09:00-10:00, no link
// prettier-ignore
const SET_PROFILE_19 = [
  0x17, 0x88, 0x00, 0x00, ...S423, 0x13, 0x20, 0x21, 0x01, 0x01, 0x20, 0x21, 0x12,
  0x31, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x10, 0x00,
];
// messages/add_task_test.go TestMarshalAddTaskRequest: 2021-04-01..2021-12-29, Mon Tue Thu Sat Sun, 08:30, door 3,
// task 4, 7 cards. `task(door, type, hh, mm)` changes bytes 25 (door), 26 (type) and 23..24 (start, BCD).
// prettier-ignore
const ADD_TASK = [
  0x17, 0xa8, 0x00, 0x00, ...S423, 0x20, 0x21, 0x04, 0x01, 0x20, 0x21, 0x12, 0x29,
  0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x08, 0x30, 0x03, 0x04, 0x07,
];
const bcd = (n: number) => Math.floor(n / 10) * 16 + (n % 10);
function task(door: number, type: number, hour: number, minute: number): number[] {
  const b = [...ADD_TASK];
  b[23] = bcd(hour);
  b[24] = bcd(minute);
  b[25] = door;
  b[26] = type;
  return b;
}
const REFRESH = [0x17, 0xac, 0x00, 0x00, ...S423, ...MAGIC]; // messages/refresh_tasklist_test.go
const CLEAR_TASKS = [0x17, 0xa6, 0x00, 0x00, ...S423, ...MAGIC]; // messages/clear_task_list_test.go

describe('time profiles (0x88, 0x98, 0x8A)', () => {
  it('stores a profile and reads it back byte for byte (set/get_time_profile_test.go)', () => {
    const c = controller(423187757);
    expect(send(c, SET_PROFILE_4)[8]).toBe(1);
    // TestMarshalGetTimeProfileRequest → the reply of TestUnmarshalGetTimeProfileResponse: same bytes 8..36
    const got = send(c, [0x17, 0x98, 0x00, 0x00, ...S423, 0x04]);
    expect([...got.subarray(0, 37)]).toEqual([0x17, 0x98, ...SET_PROFILE_4.slice(2)]);
    expect(got.subarray(37).every((b) => b === 0)).toBe(true);
    // A profile it does not hold: all zero, as TestUnmarshalGetTimeProfileDeactivatedResponse
    expect(
      send(c, [0x17, 0x98, 0x00, 0x00, ...S423, 0x05])
        .subarray(8)
        .every((b) => b === 0),
    ).toBe(true);
    // ids 0, 1 and 255 are not profiles (uhppote-simulator entities/time_profiles.go)
    for (const id of [0, 1, 255]) {
      const b = [...SET_PROFILE_4];
      b[8] = id;
      expect(send(c, b)[8]).toBe(0);
    }
    // an impossible segment (25:00) is refused
    const bad = [...SET_PROFILE_4];
    bad[24] = 0x25;
    expect(send(c, bad)[8]).toBe(0);
    // messages/clear_time_profiles_test.go: refused without the magic word, done with it
    expect(send(c, [0x17, 0x8a, 0x00, 0x00, ...S423])[8]).toBe(0);
    expect(c.rules.profiles.size).toBe(1);
    expect(send(c, [0x17, 0x8a, 0x00, 0x00, ...S423, ...MAGIC])[8]).toBe(1);
    expect(c.rules.profiles.size).toBe(0);
  });

  it('grants a card whose door value is a profile only inside it, following the linked chain', () => {
    const c = controller(423187757);
    send(c, SET_PROFILE_4);
    send(c, SET_PROFILE_19);
    c.putCard({ card: 100, from: null, to: null, doors: [4, 0, 1, 7], pin: 0 });
    const swipe = (door: number, t: SimDateTime) => c.swipe(100, door, 1, { at: t }).reason;
    // Sunday 2021-06-06 is a day of profile 4
    expect(swipe(1, at(2021, 6, 6, 3, 0))).toBe(15); // 03:00 on a Sunday: no segment
    expect(swipe(1, at(2021, 6, 6, 8, 30))).toBe(1); // segment start, included
    expect(swipe(1, at(2021, 6, 6, 9, 45, 59))).toBe(1); // segment end, included (minute resolution)
    expect(swipe(1, at(2021, 6, 6, 9, 46))).toBe(15);
    expect(swipe(1, at(2021, 6, 6, 17, 59))).toBe(1); // third segment
    // Wednesday 2021-06-09 is not a day of profile 4; linked profile 19 covers 09:00-10:00 on Wednesdays
    expect(swipe(1, at(2021, 6, 9, 9, 30))).toBe(1);
    expect(swipe(1, at(2021, 6, 9, 8, 30))).toBe(15);
    // Thursday 2021-12-30 is past profile 4's end date, and 19 has no Thursday
    expect(swipe(1, at(2021, 12, 30, 8, 30))).toBe(15);
    // value 0: no access (6); 1: at any time; 7: a profile the controller does not hold lets the card through
    // (uhppote-simulator actions.go: "IRL, a controller seems to default to ok if time profile is not present")
    expect(swipe(2, at(2021, 6, 6, 8, 30))).toBe(6);
    expect(swipe(3, at(2021, 6, 6, 3, 0))).toBe(1);
    expect(swipe(4, at(2021, 6, 6, 3, 0))).toBe(1);
    expect(c.swipe(999, 3, 1).reason).toBe(6); // not a card it holds
  });

  it('stops at a loop in the chain', () => {
    const c = controller(423187757);
    const loop = (id: number, linked: number) => {
      const b = [...SET_PROFILE_19];
      b[8] = id;
      b[36] = linked;
      return b;
    };
    send(c, loop(5, 6));
    send(c, loop(6, 5));
    c.putCard({ card: 100, from: null, to: null, doors: [5, 0, 0, 0], pin: 0 });
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 9, 9, 0) }).reason).toBe(1);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 9, 11, 0) }).reason).toBe(15);
  });
});

describe('task list (0xA8, 0xA6, 0xAC)', () => {
  it('runs refreshed tasks at their start time on their days: door modes and time-profile switch', () => {
    const c = controller(423187757, at(2021, 6, 7, 7, 0)); // Monday 07:00
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    // door 1 normally closed (2) at 08:30
    expect(send(c, task(1, 2, 8, 30))[8]).toBe(1);
    // added but not refreshed: not active (uhppote-simulator entities/tasklist.go)
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 9, 0) }).reason).toBe(1);
    expect(c.rulesSnapshot().pendingTasks).toHaveLength(1);
    c.setClock(at(2021, 6, 7, 7, 0));
    expect(send(c, REFRESH)[8]).toBe(1);
    expect(c.rulesSnapshot().tasks).toMatchObject([{ type: 2, door: 1, start: { hour: 8, minute: 30 } }]);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 8, 29) }).reason).toBe(1);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 8, 30) }).reason).toBe(11); // from its start minute on
    expect(c.swipe(100, 2, 1).reason).toBe(1); // other doors untouched
    expect(c.rulesSnapshot().doors[0]).toEqual({ mode: 3, delay: 3, effectiveMode: 2 });
    // back to controlled at 17:00, and normally open at 18:00
    send(c, task(1, 0, 17, 0));
    send(c, task(1, 1, 18, 0));
    send(c, REFRESH);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 16, 59) }).reason).toBe(11);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 17, 0) }).reason).toBe(1);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 7, 18, 0) }).reason).toBe(1);
    expect(c.effectiveMode(1)).toBe(1);
    // Tuesday: 08:30 closes it again; Wednesday is not one of the task's days: still open from Tuesday 18:00
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 8, 8, 31) }).reason).toBe(11);
    expect(c.swipe(100, 1, 1, { at: at(2021, 6, 9, 8, 31) }).reason).toBe(1);
    expect(c.effectiveMode(1)).toBe(1);
    // set_door_control_state_test.go layout (door 1 here, controlled, 3 s): the newer setting replaces the task's
    expect([...send(c, [0x17, 0x80, 0x00, 0x00, ...S423, 0x01, 0x03, 0x03]).subarray(8, 11)]).toEqual([
      1, 3, 3,
    ]);
    expect(c.effectiveMode(1)).toBe(3);
    // messages/clear_task_list_test.go: refused without the word; with it the list is empty, effects stay
    expect(send(c, [0x17, 0xa6, 0x00, 0x00, ...S423])[8]).toBe(0);
    expect(send(c, CLEAR_TASKS)[8]).toBe(1);
    expect(c.rulesSnapshot().tasks).toEqual([]);
  });

  it('disables a time profile, a push button, and triggers a door once, from the task list', () => {
    const c = controller(423187757, at(2021, 6, 7, 7, 0));
    send(c, [0x17, 0x8e, 0x00, 0x00, ...S423, 0x01]); // record special events (record_special_events_test.go)
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 19, 1], pin: 0 });
    send(c, SET_PROFILE_19);
    send(c, task(3, 3, 8, 0)); // disable time profile on door 3
    send(c, task(3, 4, 10, 0)); // enable it again
    send(c, task(2, 11, 8, 0)); // disable door 2's push button
    send(c, task(4, 10, 8, 15)); // trigger door 4 once
    send(c, REFRESH);
    expect(c.relays & 0b1000).toBe(0);
    expect(c.swipe(100, 3, 1, { at: at(2021, 6, 7, 9, 0) }).reason).toBe(15); // the profile is switched off
    expect(c.relays & 0b1000).toBe(0b1000); // 08:15 passed: door 4 was triggered
    expect(c.pressButton(2)).toMatchObject({ type: 3, granted: false, reason: 30 }); // disabled by task
    expect(c.relays & 0b0010).toBe(0);
    expect(c.pressButton(1)).toMatchObject({ type: 2, granted: true, reason: 20 });
    // 10:00 enables the profile again; Monday is not a day of profile 19 (Wednesday)
    expect(c.swipe(100, 3, 1, { at: at(2021, 6, 9, 9, 30) }).reason).toBe(1);
  });

  it('refuses tasks it cannot run', () => {
    const c = controller(223336677); // two doors
    expect(
      send(c, [...task(3, 2, 8, 0).slice(0, 4), 0xe5, 0xd8, 0x4f, 0x0d, ...task(3, 2, 8, 0).slice(8)])[8],
    ).toBe(0); // door 3 of a two-door controller
    const b = task(1, 13, 8, 0); // type 13 does not exist
    b.splice(4, 4, 0xe5, 0xd8, 0x4f, 0x0d);
    expect(send(c, b)[8]).toBe(0);
    const late = task(1, 2, 24, 1); // 24:01
    late.splice(4, 4, 0xe5, 0xd8, 0x4f, 0x0d);
    expect(send(c, late)[8]).toBe(0);
  });
});

describe('interlock (0xA2), anti-passback (0x84 / 0x86)', () => {
  it('refuses a swipe while an interlocked door is open or unlocked (set_interlock_test.go)', () => {
    const c = controller(405419896);
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    // TestMarshalSetInterlockRequest: 0x08 = doors 1&2&3&4
    expect(send(c, [0x17, 0xa2, 0x00, 0x00, ...S405, 0x08])[8]).toBe(1);
    c.setDoorSensor(3, true);
    expect(c.swipe(100, 1).reason).toBe(12);
    c.setDoorSensor(3, false);
    expect(c.swipe(100, 1).reason).toBe(1); // unlocks door 1 for its delay…
    expect(c.swipe(100, 2).reason).toBe(12); // …so door 2 waits
    expect(c.pressButton(4)).toBeNull(); // blocked as well (no record: special events are off)
    expect(c.relays).toBe(0b0001);
    // TestFactoryUnmarshalSetInterlockRequest: 0x03 = (1,2) and (3,4): door 1 unlocked does not block door 3
    expect(send(c, [0x17, 0xa2, 0x00, 0x00, ...S405, 0x03])[8]).toBe(1);
    expect(c.swipe(100, 3).reason).toBe(1);
    expect(c.swipe(100, 2).reason).toBe(12);
    // 0x05 is not a mode
    expect(send(c, [0x17, 0xa2, 0x00, 0x00, ...S405, 0x05])[8]).toBe(0);
    expect(c.rules.interlock).toBe(3);
  });

  it('refuses a second passage on the same side until the card passed the other (anti_passback tests)', () => {
    const c = controller(405419896);
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    c.putCard({ card: 200, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    // TestMarshalSetAntiPassbackRequest: 0x04 = readers 1:(2,3,4); TestUnmarshalGetAntiPassbackResponse reads it back
    expect(send(c, [0x17, 0x84, 0x00, 0x00, ...S405, 0x04])[8]).toBe(1);
    expect(send(c, [0x17, 0x86, 0x00, 0x00, ...S405])[8]).toBe(4);
    expect(c.swipe(100, 1).reason).toBe(1); // in
    expect(c.swipe(100, 1).reason).toBe(8); // in again: refused
    expect(c.swipe(200, 1).reason).toBe(1); // another card is not affected
    expect(c.swipe(100, 3).reason).toBe(1); // out through 3
    expect(c.swipe(100, 4).reason).toBe(8); // out again through another exit: same side, refused
    expect(c.swipe(100, 1).reason).toBe(1); // in again
    // mode 1: readers 1:2 and 3:4 independently
    expect(send(c, [0x17, 0x84, 0x00, 0x00, ...S405, 0x01])[8]).toBe(1);
    expect(c.swipe(100, 3).reason).toBe(1);
    expect(c.swipe(100, 1).reason).toBe(1); // the other pair keeps its own count
    expect(c.swipe(100, 3).reason).toBe(8);
    expect(c.swipe(100, 4).reason).toBe(1);
    expect(c.swipe(100, 3).reason).toBe(1);
    // a refused swipe is no passage: still refused
    c.putCard({ card: 300, from: null, to: null, doors: [0, 1, 1, 1], pin: 0 });
    expect(c.swipe(300, 1).reason).toBe(6);
    expect(c.swipe(300, 2).reason).toBe(1);
    expect(c.swipe(300, 2).reason).toBe(8);
    // disabled: anything goes; 5 is not a mode
    expect(send(c, [0x17, 0x84, 0x00, 0x00, ...S405, 0x00])[8]).toBe(1);
    expect(c.swipe(300, 2).reason).toBe(1);
    expect(c.swipe(300, 2).reason).toBe(1);
    expect(send(c, [0x17, 0x84, 0x00, 0x00, ...S405, 0x05])[8]).toBe(0);
    expect(send(c, [0x17, 0x86, 0x00, 0x00, ...S405])[8]).toBe(0);
  });
});

describe('keypads (0xA4), passcodes (0x8C), first card (0xAA)', () => {
  it('asks a card with a PIN for it at readers whose keypad is on', () => {
    const c = controller(405419896, at(2021, 6, 7, 7, 0));
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 1, 1], pin: 7531 });
    c.putCard({ card: 200, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    // TestMarshalActivateAccessKeypadsRequest: readers 1, 2 and 4
    expect(send(c, [0x17, 0xa4, 0x00, 0x00, ...S405, 0x01, 0x01, 0x00, 0x01])[8]).toBe(1);
    expect(c.rules.keypads).toEqual([true, true, false, true]);
    expect(c.swipe(100, 1).reason).toBe(7); // no PIN keyed in
    expect(c.swipe(100, 1, 1, { pin: 1234 }).reason).toBe(7);
    expect(c.swipe(100, 1, 1, { pin: 7531 }).reason).toBe(1);
    expect(c.swipe(100, 3).reason).toBe(1); // no keypad at reader 3
    expect(c.swipe(200, 1).reason).toBe(1); // no PIN on the card
    // task 6 "card + in password": leaving needs no PIN; task 5: none at all (tasks need a Monday here)
    const t6 = task(1, 6, 8, 0);
    const t5 = task(2, 5, 8, 0);
    for (const t of [t6, t5]) t.splice(4, 4, ...S405);
    send(c, t6);
    send(c, t5);
    send(c, [0x17, 0xac, 0x00, 0x00, ...S405, ...MAGIC]);
    expect(c.swipe(100, 1, 2, { at: at(2021, 6, 7, 9, 0) }).reason).toBe(1);
    expect(c.swipe(100, 1, 1).reason).toBe(7);
    expect(c.swipe(100, 2, 1).reason).toBe(1);
  });

  it('opens a door for one of its passcodes, keyed in at a reader with a keypad (set_door_passcodes_test.go)', () => {
    const c = controller(405419896);
    // TestMarshalSetDoorPasscodesRequest: door 3: 12345, 0, 999999, 54321
    // prettier-ignore
    const set = [
      0x17, 0x8c, 0x00, 0x00, ...S405, 0x03, 0x00, 0x00, 0x00, 0x39, 0x30, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x3f, 0x42, 0x0f, 0x00, 0x31, 0xd4,
    ];
    expect(send(c, set)[8]).toBe(1);
    expect(c.rulesSnapshot().passcodes[2]).toEqual([12345, 0, 999999, 54321]);
    expect(c.enterPasscode(3, 12345)).toBeNull(); // keypad off
    send(c, [0x17, 0xa4, 0x00, 0x00, ...S405, 0x01, 0x01, 0x01, 0x01]);
    expect(c.enterPasscode(3, 54321)).toMatchObject({ type: 2, granted: true, door: 3, reason: 25 });
    expect(c.relays & 0b0100).toBe(0b0100);
    expect(c.enterPasscode(3, 0)).toBeNull(); // 0 is "no passcode"
    expect(c.enterPasscode(3, 11111)).toBeNull();
    expect(c.enterPasscode(2, 12345)).toBeNull(); // door 2 has none
    const tooBig = [...set];
    tooBig.splice(12, 4, 0x40, 0x42, 0x0f, 0x00); // 1,000,000
    expect(send(c, tooBig)[8]).toBe(0);
  });

  it('stores the first-card rule (set_first_card_test.go)', () => {
    const c = controller(405419896);
    // TestMarshalSetFirstCardRequest: door 3, 08:30 normally open, 17:45 normally closed, Mon Tue Thu Sat Sun
    // prettier-ignore
    const set = [
      0x17, 0xaa, 0x00, 0x00, ...S405, 0x03, 0x08, 0x30, 0x01, 0x17, 0x45, 0x02, 0x01,
      0x01, 0x00, 0x01, 0x00, 0x01, 0x01,
    ];
    expect(send(c, set)[8]).toBe(1);
    expect(c.rulesSnapshot().firstCards).toEqual([
      {
        door: 3,
        start: { hour: 8, minute: 30 },
        startMode: 1,
        end: { hour: 17, minute: 45 },
        endMode: 2,
        weekdays: [true, true, false, true, false, true, true],
      },
    ]);
    set[11] = 5; // not a door state
    expect(send(c, set)[8]).toBe(0);
  });
});

describe('restore default parameters (0xC8)', () => {
  it('clears the listener, cards, records, rules and door modes, with the magic word only', () => {
    const c = controller(405419896, at(2021, 6, 7, 7, 0));
    c.putCard({ card: 100, from: null, to: null, doors: [1, 1, 1, 1], pin: 0 });
    c.swipe(100, 1);
    c.listener = { address: '192.168.1.100', port: 60001, interval: 5 };
    c.readIndex = 1;
    send(c, [0x17, 0x80, 0x00, 0x00, ...S405, 0x04, 0x02, 0x09]);
    send(c, [0x17, 0xa2, 0x00, 0x00, ...S405, 0x08]);
    send(c, [0x17, 0x84, 0x00, 0x00, ...S405, 0x04]);
    send(c, [0x17, 0xa4, 0x00, 0x00, ...S405, 0x01, 0x01, 0x00, 0x01]);
    send(c, [0x17, 0x8c, 0x00, 0x00, ...S405, 0x03, 0x00, 0x00, 0x00, 0x39, 0x30]);
    const profile = [...SET_PROFILE_4];
    profile.splice(4, 4, ...S405);
    send(c, profile);
    const t = task(1, 2, 8, 0);
    t.splice(4, 4, ...S405);
    send(c, t);
    send(c, [0x17, 0xac, 0x00, 0x00, ...S405, ...MAGIC]);
    const before = JSON.stringify(c.rulesSnapshot());
    // no magic word: refused, nothing changes
    expect(send(c, [0x17, 0xc8, 0x00, 0x00, ...S405])[8]).toBe(0);
    expect(JSON.stringify(c.rulesSnapshot())).toBe(before);
    expect(c.cardCount).toBe(1);
    // messages/restore_default_parameters_test.go TestMarshalRestoreDefaultParametersRequest
    expect(send(c, [0x17, 0xc8, 0x00, 0x00, ...S405, ...MAGIC])[8]).toBe(1);
    expect(c.cardCount).toBe(0);
    expect(c.listener).toEqual({ address: '0.0.0.0', port: 0, interval: 0 });
    expect(c.lastIndex).toBe(0);
    expect(c.readIndex).toBe(0);
    expect(send(c, [0x17, 0xb0, 0x00, 0x00, ...S405, 0xff, 0xff, 0xff, 0xff]).readUInt32LE(8)).toBe(0);
    expect(c.rulesSnapshot()).toEqual({
      profiles: [],
      tasks: [],
      pendingTasks: [],
      interlock: 0,
      antiPassback: 0,
      keypads: [false, false, false, false],
      passcodes: [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      firstCards: [],
      doorTasks: Array.from({ length: 4 }, () => ({
        mode: null,
        profileDisabled: false,
        buttonDisabled: false,
        pinMode: 'in-out',
        moreCards: 0,
      })),
      doors: Array.from({ length: 4 }, () => ({ mode: 3, delay: 5, effectiveMode: 3 })),
    });
    expect([...send(c, [0x17, 0x82, 0x00, 0x00, ...S405, 0x04]).subarray(8, 11)]).toEqual([4, 3, 5]);
    expect(send(c, [0x17, 0x86, 0x00, 0x00, ...S405])[8]).toBe(0);
  });
});

describe('control API and the injected clock', () => {
  it('swipes at a given time with a PIN, enters passcodes, resets and reads the rules over HTTP', async () => {
    // Every controller's clock starts at the injected instant: Sunday 2021-06-06 03:00 in UTC
    sim = await WgSimulator.start({
      controllers: [423187757],
      timeZone: 'UTC',
      now: () => new Date('2021-06-06T03:00:00Z'),
    });
    const c = sim.controller(423187757);
    expect(c.now()).toMatchObject(at(2021, 6, 6, 3, 0));
    c.handle(packet(SET_PROFILE_4));
    c.handle(packet(SET_PROFILE_19));
    c.putCard({ card: 100, from: null, to: null, doors: [4, 1, 1, 1], pin: 7531 });
    expect(sim.swipe(423187757, 100, 1).reason).toBe(15); // 03:00 on a Sunday
    const server = await serveHttp(sim);
    try {
      const { port } = server.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;
      const post = async (path: string, body: object) => {
        const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> | null };
      };
      const swipe = (body: object) => post('/swipe', { serial: 423187757, card: 100, ...body });
      expect((await swipe({ door: 1, at: '2021-06-06T08:30:00' })).body).toMatchObject({ reason: 1 });
      expect((await swipe({ door: 1, at: '2021-06-06 03:00' })).body).toMatchObject({ reason: 15 });
      expect((await swipe({ door: 1, at: '2021-06-31T08:30:00' })).status).toBe(400);
      c.handle(packet([0x17, 0xa4, 0x00, 0x00, ...S423, 0x00, 0x01, 0x00, 0x00]));
      expect((await swipe({ door: 2 })).body).toMatchObject({ reason: 7, granted: false });
      expect((await swipe({ door: 2, pin: 7531 })).body).toMatchObject({ reason: 1, granted: true });
      c.handle(packet([0x17, 0x8c, 0x00, 0x00, ...S423, 0x02, 0x00, 0x00, 0x00, 0x39, 0x30]));
      expect((await post('/passcode', { serial: 423187757, door: 2, code: 12345 })).body).toMatchObject({
        reason: 25,
      });
      expect((await post('/passcode', { serial: 423187757, door: 2, code: 1 })).body).toBeNull();
      const rules = (await (await fetch(`${base}/controllers/423187757/rules`)).json()) as {
        profiles: { id: number; linked: number }[];
        keypads: boolean[];
      };
      expect(rules.profiles.map((p) => [p.id, p.linked])).toEqual([
        [4, 19],
        [19, 0],
      ]);
      expect(rules.keypads).toEqual([false, true, false, false]);
      expect((await post('/clock', { serial: 423187757, time: '2021-06-09T09:30:00' })).status).toBe(200);
      expect(c.now()).toMatchObject(at(2021, 6, 9, 9, 30));
      expect((await post('/reset', { serial: 423187757 })).status).toBe(200);
      expect(c.cardCount).toBe(0);
      expect(
        ((await (await fetch(`${base}/controllers/423187757/rules`)).json()) as { profiles: [] }).profiles,
      ).toEqual([]);
      expect((await post('/reset', { serial: 1 })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
