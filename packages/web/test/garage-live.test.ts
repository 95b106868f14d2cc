import { QueryClient } from '@tanstack/react-query';
import type { ChargeEquipmentGrid, ChargeRecordItem } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubMessage } from '../src/core/hub.ts';
import { GarageLiveUpdates, STALE_AFTER, meterReading } from '../src/pages/garage/live.ts';
import { portFaultAlert } from '../src/pages/garage/fault-alerts.ts';
import { canRemoteStart } from '../src/pages/garage/charge-equipment/types.ts';

const AT = '2026-03-01T08:30:00.000Z';
const START = '2026-03-01T08:00:00.000Z';
const message = (type: string, fields: Record<string, unknown> = {}): HubMessage => ({
  type,
  at: AT,
  ...fields,
});

function grid(): ChargeEquipmentGrid {
  const socket = (id: number, session: boolean) => ({
    Id: id,
    PortNumber: id,
    State: session ? 1 : 0,
    StateColor: null,
    StateGroup: session ? ('occupied' as const) : ('idle' as const),
    StateChangedAt: START,
    Disabled: false,
    Remark: null,
    Session: session
      ? {
          ChargeRecordId: 500 + id,
          ChargeOrderId: 900 + id,
          OrderNo: `CD${id}`,
          CardNumber: '0012345678',
          StartAt: START,
          EnergyWh: 100,
          DurationMinutes: 10,
          EstimatedCents: 12,
        }
      : null,
  });
  return {
    Host: {
      Id: 3,
      Name: 'H',
      SerialNumber: 'S3',
      ParkAreaId: 1,
      ZoneName: 'Z',
      PortCount: 2,
      Disabled: false,
      Online: true,
      LastSeenAt: null,
      LiveLink: true,
      OfflineSince: null,
      Device: null,
    },
    Sockets: [socket(1, true), socket(2, false)],
    Counts: { idle: 1, occupied: 1, fault: 0, disabled: 0, offline: 0 },
  };
}

describe('garage live updates from the hub', () => {
  afterEach(() => vi.useRealTimers());

  it('patches a meter reading into the grid tile and the running record, without a fetch', () => {
    const client = new QueryClient();
    client.setQueryData(['garage.grid', 3], grid());
    const record = {
      Id: 501,
      Open: true,
      StartAt: START,
      EnergyWh: 100,
      DurationMinutes: 10,
      AmountCents: 12,
    };
    const ended = { ...record, Id: 777, Open: false };
    client.setQueryData(['list', 'ChargeRecord', 1, {}], { Items: [record, ended], Total: 2 });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const live = new GarageLiveUpdates(client, 0);

    live.handle(message('sessionMeter', { recordId: 501, socketId: 1, energyWh: 640, estimatedCents: 77 }));

    const tile = client.getQueryData<ChargeEquipmentGrid>(['garage.grid', 3])!.Sockets[0]!.Session!;
    expect(tile).toMatchObject({ EnergyWh: 640, EstimatedCents: 77, DurationMinutes: 30 });
    const rows = client.getQueryData<{ Items: ChargeRecordItem[] }>(['list', 'ChargeRecord', 1, {}])!.Items;
    expect(rows[0]).toMatchObject({ EnergyWh: 640, AmountCents: 77, DurationMinutes: 30 });
    expect(rows[1]).toBe(ended);
    expect(invalidate).not.toHaveBeenCalled();
    // A late reading never lowers what is shown.
    live.handle(message('sessionMeter', { recordId: 501, socketId: 1, energyWh: 300, estimatedCents: 40 }));
    expect(client.getQueryData<ChargeEquipmentGrid>(['garage.grid', 3])!.Sockets[0]!.Session!.EnergyWh).toBe(
      640,
    );
  });

  it('reloads what an event changes, once per burst', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const live = new GarageLiveUpdates(client, 300);
    live.handle(message('socketState', { socketId: 1, state: 1 }));
    live.handle(message('socketState', { socketId: 2, state: 0 }));
    live.handle(message('hostOnline', { hostId: 3, online: false }));
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys.sort()).toEqual(STALE_AFTER.socketState.map((k) => JSON.stringify(k)).sort());

    invalidate.mockClear();
    live.handle(message('sessionEnded', { recordId: 501, orderId: 901 }));
    vi.advanceTimersByTime(300);
    const ended = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    // The session's end settles its order and turns a pending power-off into "power cut".
    expect(ended).toEqual(
      expect.arrayContaining(['["garage.grid"]', '["list","ChargeOrder"]', '["list","ForcedOutageRecord"]']),
    );
    live.handle(message('swipe', {}));
    vi.advanceTimersByTime(300);
    expect(invalidate).toHaveBeenCalledTimes(ended.length);
  });

  it('reads meter and port-fault messages, and nothing else as one', () => {
    expect(meterReading(message('sessionMeter', { recordId: 5, energyWh: 10 }))).toMatchObject({
      recordId: 5,
      energyWh: 10,
      estimatedCents: null,
    });
    expect(meterReading(message('socketState', { recordId: 5, energyWh: 10 }))).toBeNull();
    const fault = message('portFault', {
      hostId: 3,
      serial: 'S3',
      socketId: 31,
      portNumber: 1,
      state: 9,
      errorCode: 'OtherError',
      vendorErrorCode: 'RelayStuck',
    });
    expect(portFaultAlert(fault)).toMatchObject({ serial: 'S3', state: 9, vendorErrorCode: 'RelayStuck' });
    expect(portFaultAlert(message('portFault', { hostId: 3 }))).toBeNull();
  });

  it('offers a remote start only through a connected live link, on a free enabled socket', () => {
    const host = { LiveLink: true, Online: true, Disabled: false };
    const free = { State: 0, Disabled: false, Session: null };
    expect(canRemoteStart(free, host)).toBe(true);
    expect(canRemoteStart({ ...free, State: 170 }, host)).toBe(true);
    expect(canRemoteStart(free, { ...host, Online: false })).toBe(false);
    expect(canRemoteStart(free, { ...host, LiveLink: false })).toBe(false);
    expect(canRemoteStart({ ...free, State: 255 }, host)).toBe(false);
    expect(canRemoteStart({ ...free, State: 9 }, host)).toBe(false);
    expect(canRemoteStart({ ...free, State: 12, Disabled: true }, host)).toBe(false);
    expect(canRemoteStart({ ...free, State: 1, Session: {} as never }, host)).toBe(false);
  });
});
