import { expect, it } from 'vitest';
import {
  countWithin,
  storeControllerRecords,
  watchDoors,
  wgControllers,
  type ControllerRecordInput,
  type ControllerRef,
} from '../src/modules/access-control/index.ts';
import { describeEachDb, systemContext } from './support/harness.ts';

/*
 * Refused swipes piling up at a door (docs/access-control.md, "Door monitor and alarms"): three refused swipes at
 * one door within a minute raise an alarm, counted over what is stored, the records of an earlier pass
 * included; swipes farther apart, at another door, or granted do not. The count is read once per door for a
 * batch (a count per swipe cost minutes of collection under a burst: docs/performance.md).
 */
it('countWithin counts the sorted times inside a closed range', () => {
  const times = [10, 20, 20, 30, 70];
  expect(countWithin(times, 20, 30)).toBe(3);
  expect(countWithin(times, 0, 9)).toBe(0);
  expect(countWithin(times, 10, 70)).toBe(5);
  expect(countWithin(times, 31, 69)).toBe(0);
  expect(countWithin([], 0, 100)).toBe(0);
});

describeEachDb('Door monitor: refused swipes', (h) => {
  const ctx = () => systemContext(h());
  let index = 900_000;
  const swipe = (
    device: ControllerRef,
    door: number,
    at: number,
    granted = false,
  ): ControllerRecordInput => ({
    DeviceId: device.Id,
    RecordIndex: index++,
    EventType: 1,
    EventReason: granted ? 1 : 6,
    At: at,
    DoorNumber: door,
    Direction: 1,
    CardValue: 1234567,
    Result: granted,
  });
  const refusedAlarms = (changes: Awaited<ReturnType<typeof watchDoors>>) =>
    changes.alarms.filter((a) => a.item.Kind === 3).map((a) => a.item.DoorNumber);

  it('raises an alarm for three refused within a minute at one door, across passes, and not otherwise', async () => {
    const device = (await wgControllers(ctx())).find((d) => d.AreaId === 1)!;
    const store = (inputs: ControllerRecordInput[]) =>
      storeControllerRecords(ctx(), device.Id, inputs, { nextIndex: index, lost: 0 });
    // The first look starts at the newest record: history raises nothing.
    await watchDoors(ctx(), [device.Id]);
    const t0 = h().clock.now() - 3_600_000;

    // Two refused at door 1 and a granted one: nothing yet.
    await store([swipe(device, 1, t0), swipe(device, 1, t0 + 10_000), swipe(device, 1, t0 + 20_000, true)]);
    expect(refusedAlarms(await watchDoors(ctx(), [device.Id]))).toEqual([]);

    // A third, 50 s after the first, in the next pass: the earlier pass's two count.
    await store([swipe(device, 1, t0 + 50_000)]);
    expect(refusedAlarms(await watchDoors(ctx(), [device.Id]))).toEqual([1]);

    // Door 2: three refused over 62 s (never three within a minute), and one more refused at door 1 but 61 s
    // after the last two there (t0 + 50 s is 61 s before t0 + 111 s): no alarm for either.
    await store([
      swipe(device, 2, t0 + 100_000),
      swipe(device, 2, t0 + 131_000),
      swipe(device, 2, t0 + 162_000),
      swipe(device, 1, t0 + 111_001),
    ]);
    expect(refusedAlarms(await watchDoors(ctx(), [device.Id]))).toEqual([]);

    // Three at door 2 in one pass within the minute (with the one at t0 + 162 s before them, the second and third
    // each end a minute holding three or more): one alarm change for the run, counting both.
    await store([
      swipe(device, 2, t0 + 200_000),
      swipe(device, 2, t0 + 201_000),
      swipe(device, 2, t0 + 202_000),
    ]);
    const burst = (await watchDoors(ctx(), [device.Id])).alarms.filter((a) => a.item.Kind === 3);
    expect(burst.map((a) => [a.item.DoorNumber, a.item.Count, a.raised])).toEqual([[2, 2, true]]);
  });
});
