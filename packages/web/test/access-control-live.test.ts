import { QueryClient } from '@tanstack/react-query';
import type { AccessControlDeviceItem, DoorOpeningRecordItem, Page } from '@gatehouse/shared';
import { describe, expect, it } from 'vitest';
import { applySwipe, placeSwipe } from '../src/pages/access-control/door-opening-record/live-swipes.ts';
import { deviceEventPatch } from '../src/pages/access-control/access-control-device/live-devices.ts';

function record(id: number, at: string, fields: Partial<DoorOpeningRecordItem> = {}): DoorOpeningRecordItem {
  return {
    Id: id,
    At: at,
    CardNumber: '0012345678',
    CardValue: 1,
    CardUserId: 7,
    HolderName: '张三',
    DeviceId: 3,
    DeviceName: '东门',
    ChannelId: 5,
    ChannelName: '东门进',
    DoorNumber: 1,
    Direction: 1,
    Result: true,
    Reason: 1,
    EventType: 1,
    EventReason: 1,
    RecordIndex: id,
    ...fields,
  };
}

const page = (...items: DoorOpeningRecordItem[]): Page<DoorOpeningRecordItem> => ({
  Items: items,
  Total: items.length + 40,
});
const first = { PageIndex: 1, PageSize: 3 };
const older = record(10, '2026-03-01T08:00:00.000Z');
const old = record(11, '2026-03-01T09:00:00.000Z');
const newest = record(12, '2026-03-01T10:00:00.000Z');

describe('a swipe the hub announces, on the open swipe list', () => {
  it('goes on top of the first page, which keeps its size, and the total grows by one', () => {
    const swipe = record(13, '2026-03-01T10:30:00.000Z');
    const placed = placeSwipe(page(newest, old, older), first, swipe);
    expect(placed).toEqual({ page: { Items: [swipe, newest, old], Total: 44 } });
  });

  it("keeps the page's retention note (RetainedFrom)", () => {
    const swipe = record(13, '2026-03-01T10:30:00.000Z');
    const cut = { ...page(newest, old, older), RetainedFrom: '2026-02-01T00:00:00.000Z' };
    expect(placeSwipe(cut, first, swipe)).toEqual({
      page: { Items: [swipe, newest, old], Total: 44, RetainedFrom: '2026-02-01T00:00:00.000Z' },
    });
  });

  it('goes in its place by time when it arrives late (a record collected after the controller was away)', () => {
    const late = record(14, '2026-03-01T08:30:00.000Z');
    expect(placeSwipe(page(newest, old, older), first, late)).toEqual({
      page: { Items: [newest, old, late], Total: 44 },
    });
    // Older than everything on a full first page: it belongs to a later page, which only the server knows.
    expect(placeSwipe(page(newest, old, older), first, record(15, '2026-02-01T00:00:00.000Z'))).toBe(
      'reload',
    );
  });

  it('leaves a page whose filters the record does not pass, and one that has it already', () => {
    const swipe = record(13, '2026-03-01T10:30:00.000Z', { Result: false, DeviceId: 4 });
    for (const query of [
      { Result: true },
      { Result: 'true' },
      { DeviceId: 3 },
      { CardUserId: '8' },
      { CardNumber: '99' },
      { StartTime: '2026-03-02T00:00:00.000Z' },
      { EndTime: '2026-03-01T10:00:00.000Z' },
    ])
      expect(placeSwipe(page(newest), { ...first, ...query }, swipe), JSON.stringify(query)).toBe(
        'unchanged',
      );
    expect(placeSwipe(page(newest), first, newest)).toBe('unchanged');
  });

  it('takes a record the filters keep: the card number without its leading zeros, the device, the range', () => {
    const swipe = record(13, '2026-03-01T10:30:00.000Z');
    const query = {
      ...first,
      CardNumber: '12345678',
      DeviceId: '3',
      Result: 'true',
      StartTime: '2026-03-01T00:00:00.000Z',
      EndTime: '2026-03-01T23:59:59.999Z',
    };
    expect(placeSwipe(page(newest), query, swipe)).toEqual({ page: { Items: [swipe, newest], Total: 42 } });
  });

  it('asks again where only the server can tell: a later page, or a holder-name filter', () => {
    const swipe = record(13, '2026-03-01T10:30:00.000Z');
    expect(placeSwipe(page(newest), { PageIndex: 2, PageSize: 3 }, swipe)).toBe('reload');
    expect(placeSwipe(page(newest), { ...first, HolderName: '张' }, swipe)).toBe('reload');
  });

  it('writes the record into the cached first pages of the current area and reloads the later ones', async () => {
    const client = new QueryClient();
    const key = (query: object, area = 1) => ['list', 'DoorOpeningRecord', area, query];
    const second = { PageIndex: 2, PageSize: 3 };
    client.setQueryData(key(first), page(newest, old, older));
    client.setQueryData(key(second), page(older));
    client.setQueryData(key(first, 2), page(newest));
    const swipe = record(13, '2026-03-01T10:30:00.000Z');
    expect(applySwipe({ Type: 'Swipe', ...swipe }, client, 1)).toBe(true);
    expect(client.getQueryData<Page<DoorOpeningRecordItem>>(key(first))?.Items[0]).toEqual(swipe);
    expect(client.getQueryState(key(second))?.isInvalidated).toBe(true);
    expect(client.getQueryData<Page<DoorOpeningRecordItem>>(key(first, 2))?.Items).toEqual([newest]);
  });
});

describe('a controller event on device management', () => {
  const device = { Id: 3, Online: null, LastSeenAt: null, Firmware: 'v8.92', LostRecords: 2 } as const;
  const row = device as unknown as AccessControlDeviceItem;

  it('writes the connection, the sync progress and lost records into the device row only', () => {
    const online = deviceEventPatch({
      Type: 'DeviceStatus',
      At: '',
      DeviceId: 3,
      Online: true,
      LastSeenAt: '2026-03-01T10:00:00.000Z',
      Firmware: null,
    })!;
    expect(online(row)).toMatchObject({
      Online: true,
      LastSeenAt: '2026-03-01T10:00:00.000Z',
      Firmware: 'v8.92',
    });
    expect(online({ ...row, Id: 4 })).toEqual({ ...row, Id: 4 });
    const lost = deviceEventPatch({ Type: 'RecordsLost', At: '', DeviceId: 3, Lost: 5 })!;
    expect(lost(row).LostRecords).toBe(7);
    const progress = deviceEventPatch({
      Type: 'SyncProgress',
      At: '',
      DeviceId: 3,
      Phase: 'write',
      Done: 4,
      Total: 9,
    })!;
    expect(progress(row)).toMatchObject({
      SyncState: 'running',
      SyncPhase: 'write',
      SyncDone: 4,
      SyncTotal: 9,
    });
  });

  it('leaves a finished sync pass to the server: its outcome and time are stored there', () => {
    expect(
      deviceEventPatch({ Type: 'SyncProgress', At: '', DeviceId: 3, Phase: 'done', Ok: true }),
    ).toBeNull();
  });
});
