import { expect, it } from 'vitest';
import { checkRecordRing, type StatusResponse } from '../src/gateways/wg/index.ts';
import {
  storeControllerRecords,
  storePushedRecords,
  wgControllers,
  type ControllerRecordInput,
  type ControllerRef,
} from '../src/modules/access-control/index.ts';
import { describeEachDb, systemContext } from './support/harness.ts';

/*
 * A reset record ring is told by a status reply whose newest record is older than the collection cursor
 * (docs/devices.md, "Collection"). Pushes stored while the status request is on its way move the cursor past the
 * newest record the reply names: that is a busy controller, not a reset. Under a burst of 10,000 records/s this
 * was taken for a reset, the stored records lost their ring indexes and were stored a second time.
 */
describeEachDb('WG: a ring restart told from a status reply', (h) => {
  const ctx = () => systemContext(h());
  const record = (device: ControllerRef, index: number): ControllerRecordInput => ({
    DeviceId: device.Id,
    RecordIndex: index,
    EventType: 1,
    EventReason: 1,
    At: h().clock.now() - 60_000 + index,
    DoorNumber: 1,
    Direction: 1,
    CardValue: 7654321,
    Result: true,
  });
  const status = (newest: number) => ({ event: { index: newest } }) as unknown as StatusResponse;
  const indexes = async (deviceId: number) =>
    (
      await h()
        .db.kysely.selectFrom('DoorOpeningRecord')
        .select('RecordIndex')
        .where('DeviceId', '=', deviceId)
        .execute()
    ).map((r) => (r.RecordIndex === null ? null : Number(r.RecordIndex)));

  it('is no restart when pushes stored during the request moved the cursor past the reply; a real one is', async () => {
    const device = (await wgControllers(ctx())).find((d) => d.AreaId === 1)!;
    // A controller with no history of its own here (the demo's records would be in the way of the comparisons).
    await h().db.kysely.deleteFrom('DoorOpeningRecord').where('DeviceId', '=', device.Id).execute();
    await h().db.kysely.deleteFrom('AccessControlRecordCursor').where('DeviceId', '=', device.Id).execute();
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => record(device, from + i));
    await storeControllerRecords(ctx(), device.Id, range(1, 10), { nextIndex: 11, lost: 0 });

    // The controller answers "newest 15" while records 11..20 are pushed and stored (cursor to 21).
    const busy = await checkRecordRing(ctx(), device, async () => {
      await storePushedRecords(ctx(), [{ deviceId: device.Id, inputs: range(11, 20) }]);
      return status(15);
    });
    expect(busy.restarted).toBe(false);
    expect((await indexes(device.Id)).sort((a, b) => a! - b!)).toEqual(
      range(1, 20).map((r) => r.RecordIndex),
    );

    // A ring that started over: newest 3 under a cursor at 21.
    const reset = await checkRecordRing(ctx(), device, async () => status(3));
    expect(reset.restarted).toBe(true);
    expect((await indexes(device.Id)).every((i) => i === null)).toBe(true);
  });
});
