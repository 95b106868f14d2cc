import { QueryClient } from '@tanstack/react-query';
import type { ChargeEquipmentGrid, ChargeRecordItem, HubEventOf } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GarageLiveUpdates, STALE_AFTER, type GarageEvent } from '../src/pages/garage/live.ts';
import { faultCode, portFaultAlert } from '../src/pages/garage/fault-alerts.ts';
import { canRemoteStart } from '../src/pages/garage/charge-equipment/types.ts';

const AT = '2026-03-01T08:30:00.000Z';
const START = '2026-03-01T08:00:00.000Z';
/** An event as the hub sends it: the contract's type and casing, stamped with its time. */
const event = <K extends GarageEvent>(
  Type: K,
  fields: Omit<HubEventOf<K>, 'Type' | 'At'>,
  At = AT,
): HubEventOf<K> => ({ Type, At, ...fields }) as HubEventOf<K>;
const meter = (RecordId: number, EnergyWh: number, EstimatedCents: number | null) =>
  event('SessionMeter', {
    HostId: 3,
    SocketId: 1,
    PortNumber: 1,
    RecordId,
    EnergyWh,
    PowerW: null,
    EstimatedCents,
  });
const socketState = (SocketId: number, State: number, PreviousState = 0) =>
  event('SocketState', { HostId: 3, SocketId, PortNumber: SocketId, State, PreviousState });

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
      HeatAlarm: null,
    },
    Sockets: [socket(1, true), socket(2, false)],
    Counts: { idle: 1, occupied: 1, fault: 0, disabled: 0, offline: 0 },
    ZonePower: {
      BudgetW: null,
      DrawW: 0,
      MeteredSockets: 0,
      UnknownSessions: 0,
      State: 'none',
      OverSince: null,
      LimitedSessions: 0,
    },
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

    live.handle(meter(501, 640, 77));

    const tile = client.getQueryData<ChargeEquipmentGrid>(['garage.grid', 3])!.Sockets[0]!.Session!;
    expect(tile).toMatchObject({ EnergyWh: 640, EstimatedCents: 77, DurationMinutes: 30 });
    const rows = client.getQueryData<{ Items: ChargeRecordItem[] }>(['list', 'ChargeRecord', 1, {}])!.Items;
    expect(rows[0]).toMatchObject({ EnergyWh: 640, AmountCents: 77, DurationMinutes: 30 });
    expect(rows[1]).toBe(ended);
    expect(invalidate).not.toHaveBeenCalled();
    // A late reading never lowers what is shown.
    live.handle(meter(501, 300, 40));
    expect(client.getQueryData<ChargeEquipmentGrid>(['garage.grid', 3])!.Sockets[0]!.Session!.EnergyWh).toBe(
      640,
    );
  });

  it('reloads what an event changes, once per burst', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const live = new GarageLiveUpdates(client, 300);
    live.handle(socketState(1, 1));
    live.handle(socketState(2, 0));
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys.sort()).toEqual(STALE_AFTER.SocketState.map((k) => JSON.stringify(k)).sort());
    // The grid is patched in place, never reloaded for a state.
    expect(keys).not.toContain('["garage.grid"]');

    invalidate.mockClear();
    live.handle(event('HostOnline', { HostId: 3, Online: false, State: 255 }));
    live.handle(
      event('SessionEnded', {
        HostId: 3,
        SocketId: 1,
        PortNumber: 1,
        RecordId: 501,
        OrderId: 901,
        AmountCents: 120,
        EnergyWh: 640,
        StopReason: 3,
        Corrected: false,
      }),
    );
    vi.advanceTimersByTime(300);
    const ended = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    // The session's end settles its order and turns a pending power-off into "power cut"; a host that went
    // away changes every socket of its grid.
    expect(ended).toEqual(
      expect.arrayContaining(['["garage.grid"]', '["list","ChargeOrder"]', '["list","ForcedOutageRecord"]']),
    );
    expect(new Set(ended).size).toBe(ended.length);
  });

  it('applies a socket state to the cached grid: the tile, its colour and group, the counts', () => {
    const client = new QueryClient();
    client.setQueryData(['garage.grid', 3], grid());
    const live = new GarageLiveUpdates(client, 0);
    // Socket 2 goes from idle to a fault (9).
    live.handle(socketState(2, 9));
    const patched = client.getQueryData<ChargeEquipmentGrid>(['garage.grid', 3])!;
    expect(patched.Sockets[1]).toMatchObject({ State: 9, StateGroup: 'fault', StateChangedAt: AT });
    expect(patched.Sockets[1]!.StateColor).toMatch(/^#/);
    expect(patched.Counts).toEqual({ idle: 0, occupied: 1, fault: 1, disabled: 0, offline: 0 });
    // Another host's socket, or the state it already has: the same grid object.
    live.handle(socketState(77, 1));
    live.handle(socketState(2, 9));
    expect(client.getQueryData(['garage.grid', 3])).toBe(patched);
    live.dispose();
  });

  it('turns a port fault into an alert, keeping only the codes that say something', () => {
    const fault = (ErrorCode: string, VendorErrorCode: string | null) =>
      event('PortFault', {
        HostId: 3,
        Serial: 'S3',
        SocketId: 31,
        PortNumber: 1,
        State: 9,
        ErrorCode,
        VendorErrorCode,
      });
    const alert = portFaultAlert(fault('OtherError', 'RelayStuck'));
    expect(alert).toEqual({
      At: AT,
      HostId: 3,
      Serial: 'S3',
      SocketId: 31,
      PortNumber: 1,
      State: 9,
      ErrorCode: 'OtherError',
      VendorErrorCode: 'RelayStuck',
    });
    expect(faultCode(alert)).toBe('OtherError / RelayStuck');
    expect(portFaultAlert(fault('NoError', null))).toMatchObject({ ErrorCode: null, VendorErrorCode: null });
    expect(faultCode(portFaultAlert(fault('NoError', '')))).toBe('');
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
