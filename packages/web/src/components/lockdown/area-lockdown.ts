import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AreaLockdownApi,
  type AreaLockdownDoor,
  type AreaLockdownItem,
  type HubEventOf,
} from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { useHubEvents } from '../../core/hub.ts';
import { useAreaStore } from '../../stores/area.ts';

/**
 * The current area's lockdown or evacuation, live (docs/access-control.md, "Lockdown and evacuation"): read once
 * from `GET /api/AreaInfo/Lockdown`, then kept by the hub's `Lockdown` (started, released) and `LockdownDoor` (a
 * door's controller answered) events, whichever instance they come from. One cache entry per area, shared by the
 * banner on every screen and the door monitor.
 */

const LIVE = ['Lockdown', 'LockdownDoor'] as const;
type Reply = { Lockdown: AreaLockdownItem | null };

export const lockdownKey = (areaId: number | null) => ['area.lockdown', areaId] as const;

/** States in which a door needs nothing more from its controller. */
const SETTLED: readonly AreaLockdownDoor['State'][] = ['held', 'restored', 'unreached'];

/**
 * What the server answers for the area once a lockdown is released and every door of it is back (or was never
 * reached): nothing, as GET /api/AreaInfo/Lockdown says then.
 */
export function stillShown(item: AreaLockdownItem): AreaLockdownItem | null {
  return item.ReleasedAt !== null && !item.Doors.some((d) => d.State === 'restoring') ? null : item;
}

/** The item with one door as its controller last answered (a door not listed yet is added). */
export function withDoor(item: AreaLockdownItem, door: AreaLockdownDoor): AreaLockdownItem {
  const same = (d: AreaLockdownDoor) => d.DeviceId === door.DeviceId && d.DoorNumber === door.DoorNumber;
  const doors = item.Doors.some(same) ? item.Doors.map((d) => (same(d) ? door : d)) : [...item.Doors, door];
  return {
    ...item,
    Doors: doors,
    Confirmed: doors.filter((d) => SETTLED.includes(d.State)).length,
    Total: doors.length,
  };
}

/** Applies a hub event to the cached reply; undefined when the reply must be asked for again. */
export function applyLockdownEvent(
  reply: Reply | undefined,
  event: HubEventOf<(typeof LIVE)[number]>,
): Reply | undefined {
  if (event.Type === 'Lockdown') {
    const { Type: _type, At: _at, ...item } = event;
    return { Lockdown: stillShown(item) };
  }
  const { Type: _type, At: _at, LockdownId, ...door } = event;
  const item = reply?.Lockdown;
  if (!item || item.Id !== LockdownId) return undefined;
  return { Lockdown: stillShown(withDoor(item, door)) };
}

/** The current area's lockdown (null: none), kept live. */
export function useAreaLockdown(): { lockdown: AreaLockdownItem | null; loading: boolean } {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const queryClient = useQueryClient();
  const key = lockdownKey(areaId);
  const { data, isLoading } = useQuery({
    queryKey: key,
    queryFn: () => call(AreaLockdownApi.current, {}, { silent: true }),
    enabled: areaId !== null,
  });
  useHubEvents(LIVE, (event) => {
    const next = applyLockdownEvent(queryClient.getQueryData<Reply>(key), event);
    if (next) queryClient.setQueryData<Reply>(key, next);
    else void queryClient.invalidateQueries({ queryKey: key });
  });
  return { lockdown: data?.Lockdown ?? null, loading: isLoading };
}
