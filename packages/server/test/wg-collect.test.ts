import { WgSimulator } from '@gatehouse/wg-simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgDriver, collectRecords, recordInput, type WgDevice } from '../src/gateways/wg/index.ts';
import {
  storeControllerRecords,
  storePushedRecords,
  wgControllers,
  type ControllerRef,
} from '../src/modules/access-control/index.ts';
import { describeEachDb, systemContext } from './support/harness.ts';

/*
 * Collection by polling after pushes (docs/devices.md, "Collection"; docs/performance.md): records the listener
 * already stored are not read again from the controller (one request each), and pushes of several
 * controllers stored together keep every record exactly once.
 */
describeEachDb('WG collection: a poll after pushes', (h) => {
  let sim: WgSimulator;
  let driver: WgDriver;
  let devices: ControllerRef[];
  const ctx = () => systemContext(h());
  const address = (d: ControllerRef): WgDevice => {
    const { host, port } = sim.address(Number(d.SerialNumber));
    return { serial: Number(d.SerialNumber), host, port };
  };
  const stored = async (deviceId: number) =>
    (
      await h()
        .db.kysely.selectFrom('DoorOpeningRecord')
        .select('RecordIndex')
        .where('DeviceId', '=', deviceId)
        .where('RecordIndex', '>', 0)
        .orderBy('RecordIndex')
        .execute()
    ).map((r) => Number(r.RecordIndex));

  beforeAll(async () => {
    devices = (await wgControllers(ctx())).filter((d) => d.AreaId === 1).slice(0, 2);
    expect(devices).toHaveLength(2);
    sim = await WgSimulator.start({
      controllers: devices.map((d) => Number(d.SerialNumber)),
      timeZone: devices[0]!.TimeZone,
    });
    driver = await WgDriver.open({ timeoutMs: 300, tries: 3 });
  });

  afterAll(async () => {
    await driver?.close();
    await sim?.close();
  });

  it('stores pushes of two controllers in one go, then a poll reads only what no push brought', async () => {
    const [first, second] = devices as [ControllerRef, ControllerRef];
    for (let i = 0; i < 30; i++) sim.swipe(Number(first.SerialNumber), 10_000_000 + i, 1);
    for (let i = 0; i < 5; i++) sim.swipe(Number(second.SerialNumber), 20_000_000 + i, 1);
    const read = async (d: ControllerRef, from: number, to: number) => {
      const inputs = [];
      for (let index = from; index <= to; index++)
        inputs.push(recordInput(await driver.getRecord(address(d), index), d, h().clock.now())!);
      return inputs;
    };
    // What the listener would have brought: records 1–20 of the first, all 5 of the second, together; one of
    // them twice (a retransmission).
    const pushedFirst = await read(first, 1, 20);
    const pushed = await storePushedRecords(ctx(), [
      { deviceId: first.Id, inputs: [...pushedFirst, pushedFirst[3]!] },
      { deviceId: second.Id, inputs: await read(second, 1, 5) },
    ]);
    expect(pushed).toHaveLength(25);
    // A repeat of the same pushes adds nothing.
    expect(await storeControllerRecords(ctx(), first.Id, pushedFirst)).toEqual([]);

    const requested: number[] = [];
    const counting = Object.create(driver) as WgDriver;
    counting.getRecord = (device, index) => {
      requested.push(index);
      return driver.getRecord(device, index);
    };
    const result = await collectRecords(counting, ctx(), first, address(first));
    // The read index tells where a first collection starts; then only 21–30 and the end of the ring (31).
    expect(requested).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
    expect(result.nextIndex).toBe(31);
    expect(result.stored).toHaveLength(10);
    expect(await stored(first.Id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await stored(second.Id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps what a pass read when a request goes unanswered: the next pass starts where it stopped', async () => {
    const second = devices[1]!;
    for (let i = 0; i < 40; i++) sim.swipe(Number(second.SerialNumber), 30_000_000 + i, 1);
    // Records 6–45 are new; the controller "does not answer" the request for record 30.
    const failing = Object.create(driver) as WgDriver;
    const requested: number[] = [];
    failing.getRecord = (device, index) => {
      requested.push(index);
      if (index === 30) return Promise.reject(new Error('no answer'));
      return driver.getRecord(device, index);
    };
    await expect(collectRecords(failing, ctx(), second, address(second))).rejects.toThrow('no answer');
    // 6–29 were read before the failure: stored, and the cursor stands at 30.
    expect(await stored(second.Id)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    requested.length = 0;
    const result = await collectRecords(failing, ctx(), second, address(second)).catch(() => null);
    expect(result).toBeNull();
    expect(requested).toEqual([30]);
    const done = await collectRecords(driver, ctx(), second, address(second));
    expect(done.nextIndex).toBe(46);
    expect(await stored(second.Id)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  });
});
