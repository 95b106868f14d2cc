import type { QueryClient } from '@tanstack/react-query';
import { AccessControlDeviceApi, type AccessControlDeviceItem, type HubEventOf } from '@gatehouse/shared';
import { patchListRows } from '../live.ts';

/** What the WG gateway tells the area's hub about its controllers (docs/devices.md, "Live hub"). */
export const DEVICE_EVENTS = ['DeviceStatus', 'SyncProgress', 'RecordsLost', 'RuleSync'] as const;
type LiveEvent = HubEventOf<(typeof DEVICE_EVENTS)[number]>;

/**
 * A controller's connection, sync progress and lost records, written into its row as the hub reports them;
 * a finished sync pass is reloaded (its outcome and time are the server's).
 */
type Device = AccessControlDeviceItem;

export function deviceEventPatch(event: LiveEvent): ((row: Device) => Device) | null {
  const patch = (change: (row: Device) => Partial<Device>) => (row: Device) =>
    row.Id === event.DeviceId ? { ...row, ...change(row) } : row;
  switch (event.Type) {
    case 'DeviceStatus':
      return patch(() => ({
        Online: event.Online,
        LastSeenAt: event.LastSeenAt,
        ...(event.Firmware ? { Firmware: event.Firmware } : {}),
      }));
    case 'RuleSync':
      // The rules' state shows with its outcome and time: the row is read again when a pass ends.
      return event.State === 'running'
        ? patch(() => ({ RuleSyncState: 'running', RuleSyncError: null }))
        : null;
    case 'RecordsLost':
      return patch((row) => ({ LostRecords: row.LostRecords + event.Lost }));
    case 'SyncProgress':
      return event.Phase === 'done'
        ? null
        : patch(() => ({
            SyncState: 'running',
            SyncPhase: event.Phase,
            SyncDone: event.Done ?? 0,
            SyncTotal: event.Total ?? 0,
          }));
  }
}

/** Applies a controller's event to the cached device list; false for a finished sync pass (reload). */
export function applyDeviceEvent(event: LiveEvent, queryClient: QueryClient): boolean {
  const patch = deviceEventPatch(event);
  if (patch) patchListRows(queryClient, AccessControlDeviceApi.name, patch);
  return patch !== null;
}
