// Door modes as a controller keeps them (issue 31, the lockdown drill): normally open, normally closed and
// controlled, set with 0x80 and read back with 0x82, from the byte fixtures of uhppoted/uhppote-core
// messages/set_door_control_state_test.go and get_door_control_state_test.go (door 4, mode 2, 5 s) and
// open_door_test.go (door 3). What each mode does follows uhppoted/uhppote-simulator entities/door.go: a normally
// open door is unlocked whatever happens; a normally closed one is never unlocked, by a card, its button or a
// remote open; the status reports the unlocked doors in its relay byte (49).
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualController, type SimDateTime } from '../src/index.ts';

const S423 = [0x2d, 0x55, 0x39, 0x19]; // 423187757, four doors

function packet(head: number[]): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from(head).copy(b);
  return b;
}

const wall: SimDateTime = { year: 2027, month: 5, day: 4, hour: 10, minute: 0, second: 0 };
const controllers: VirtualController[] = [];

function controller(): VirtualController {
  const c = new VirtualController({ serial: 423187757 }, () => wall, '127.0.0.1');
  controllers.push(c);
  return c;
}

afterEach(() => {
  for (const c of controllers.splice(0)) c.close();
});

function send(c: VirtualController, bytes: number[]): Buffer {
  const reply = c.handle(packet(bytes));
  expect(reply).not.toBeNull();
  return Buffer.from(reply!);
}

/** 0x80 door, mode, delay (the fixture is door 4, mode 2, 5 s). */
const setDoor = (door: number, mode: number, delay: number) => [0x17, 0x80, 0, 0, ...S423, door, mode, delay];
/** 0x82 door (the fixture is door 4). */
const getDoor = (door: number) => [0x17, 0x82, 0, 0, ...S423, door];
const relays = (c: VirtualController) => send(c, [0x17, 0x20, 0, 0, ...S423])[49];

/** A card on every door at any time (door value 1), valid through 2030. */
function withCard(c: VirtualController, card: number): void {
  c.putCard({
    card,
    from: { year: 2020, month: 1, day: 1 },
    to: { year: 2030, month: 12, day: 31 },
    doors: [1, 1, 1, 1],
    pin: 0,
  });
}

describe('door modes (0x80 / 0x82)', () => {
  it('answers the set and the read back as the uhppote-core fixtures do', () => {
    const c = controller();
    // TestMarshalSetDoorControlStateRequest → TestUnmarshalSetDoorControlStateResponse: the setting echoed.
    expect([...send(c, setDoor(4, 2, 5)).subarray(0, 11)]).toEqual([0x17, 0x80, 0, 0, ...S423, 4, 2, 5]);
    // TestMarshalGetDoorControlStateRequest → TestUnmarshalGetDoorControlStateResponse.
    expect([...send(c, getDoor(4)).subarray(0, 11)]).toEqual([0x17, 0x82, 0, 0, ...S423, 4, 2, 5]);
  });

  it('normally closed: no card, button or remote open unlocks the door; the status says locked', () => {
    const c = controller();
    const card = 10058400;
    withCard(c, card);
    c.specialEvents = true;
    send(c, setDoor(3, 2, 5));
    expect(c.swipe(card, 3).reason).toBe(11); // door normally closed
    const button = c.pressButton(3)!;
    expect(button).toMatchObject({ type: 3, granted: false, reason: 31 }); // button invalid (forced lock)
    // TestMarshalOpenDoorRequest (door 3): the controller answers and logs the remote open, the lock stays shut.
    expect(send(c, [0x17, 0x40, 0, 0, ...S423, 0x03])[8]).toBe(1);
    expect(c.isUnlocked(3)).toBe(false);
    expect(relays(c)! & 0b0100).toBe(0);
    // Another door, controlled, is still opened by the card and shows unlocked while the relay is held.
    expect(c.swipe(card, 1).granted).toBe(true);
    expect(relays(c)! & 0b0001).toBe(0b0001);
  });

  it('normally open: the door is unlocked without a card and the status says so; controlled again locks it', () => {
    const c = controller();
    send(c, setDoor(2, 1, 5));
    expect(c.isUnlocked(2)).toBe(true);
    expect(relays(c)! & 0b0010).toBe(0b0010);
    send(c, setDoor(2, 3, 5));
    expect(c.isUnlocked(2)).toBe(false);
    expect(relays(c)! & 0b0010).toBe(0);
  });

  it('a mode set with 0x80 wins over the one a task forced earlier; a later task wins over it', () => {
    const c = controller();
    // A task (type 1: normally open) that ran forces door 1 open...
    c.rules.doors[0]!.mode = 1;
    expect(c.effectiveMode(1)).toBe(1);
    // ...until 0x80 sets the door normally closed: the newer instruction holds, and is what 0x82 reads.
    send(c, setDoor(1, 2, 3));
    expect(c.effectiveMode(1)).toBe(2);
    expect([...send(c, getDoor(1)).subarray(8, 11)]).toEqual([1, 2, 3]);
  });
});
