import { expect, it } from 'vitest';
import { storeControllerRecords, wgControllers } from '../src/modules/access-control/index.ts';
import { describeEachDb, systemContext } from './support/harness.ts';

/*
 * The demo's swipe records are shaped as the WG gateway stores a swipe it read from a controller (issue 27: seeded
 * and live rows disagreed in the door-event column, seeded ones having no record type and no controller reason).
 */
describeEachDb('demo swipe records', (h) => {
  it('carry the record type and the controller reason byte, as swipes read from a controller do', async () => {
    const k = h().db.kysely;
    const columns = ['Result', 'EventType', 'EventReason'] as const;
    const seeded = await k.selectFrom('DoorOpeningRecord').select(columns).where('AreaId', '=', 1).execute();
    expect(seeded.length).toBeGreaterThan(100);

    const ctx = systemContext(h());
    const device = (await wgControllers(ctx)).find((d) => d.AreaId === 1)!;
    const at = h().clock.now();
    const swipe = (RecordIndex: number, granted: boolean) => ({
      DeviceId: device.Id,
      RecordIndex,
      EventType: 1,
      EventReason: granted ? 1 : 6,
      At: at,
      DoorNumber: 1,
      Direction: 1,
      CardValue: 1234567,
      Result: granted,
    });
    await storeControllerRecords(ctx, device.Id, [swipe(700_001, true), swipe(700_002, false)]);
    const live = await k
      .selectFrom('DoorOpeningRecord')
      .select(columns)
      .where('DeviceId', '=', device.Id)
      .where('RecordIndex', 'in', [700_001, 700_002])
      .orderBy('RecordIndex')
      .execute();
    const shape = (r: (typeof seeded)[number]) => ({
      Result: Number(r.Result),
      EventType: r.EventType === null ? null : Number(r.EventType),
      // The controller's byte says granted exactly when it is 1 (docs/devices.md, "Record").
      Granted: r.EventReason === null ? null : Number(r.EventReason) === 1,
    });
    expect(live.map(shape)).toEqual([
      { Result: 1, EventType: 1, Granted: true },
      { Result: 0, EventType: 1, Granted: false },
    ]);
    const granted = seeded.filter((r) => Number(r.Result) === 1);
    const denied = seeded.filter((r) => Number(r.Result) === 0);
    expect(denied.length).toBeGreaterThan(0);
    expect(new Set(granted.map((r) => JSON.stringify(shape(r))))).toEqual(
      new Set([JSON.stringify(shape(live[0]!))]),
    );
    expect(new Set(denied.map((r) => JSON.stringify(shape(r))))).toEqual(
      new Set([JSON.stringify(shape(live[1]!))]),
    );
  });
});
