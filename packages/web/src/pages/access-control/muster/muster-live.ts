import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  MusterApi,
  MusterPersonApi,
  OccupancyApi,
  type HubEventOf,
  type MusterItem,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { useHubEvents } from '../../../core/hub.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { reloadList } from '../live.ts';

/**
 * Who is inside and the roll calls, kept live from the area's hub (docs/access-control.md, "Occupancy and muster"):
 * a swipe moves someone in or out, a `Muster` event carries a roll call's counts after a start, a mark (by hand or
 * at a muster point, on whichever instance stored the swipe) or its end.
 */

export const SUMMARY_KEY = 'ac.occupancy';
export const MUSTER_KEY = 'ac.muster';

/** How many are inside the area now, since when, and the roll call under way. */
export function useOccupancySummary() {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({
    queryKey: [SUMMARY_KEY, areaId],
    queryFn: () => call(OccupancyApi.summary),
    // Nothing announces the reset hour coming round: look again now and then.
    refetchInterval: 60_000,
  });
}

/** One roll call with its counts. */
export function useMuster(id: number) {
  return useQuery({ queryKey: [MUSTER_KEY, id], queryFn: () => call(MusterApi.get, { params: { Id: id } }) });
}

/**
 * A roll call as the hub tells it. The event of another roll call changes nothing; while one is under way its
 * counts only fall, so an event overtaken by a later one (two instances telling at once) never brings a missing
 * person back.
 */
export function applyMusterEvent(
  current: MusterItem | undefined,
  event: HubEventOf<'Muster'>,
): MusterItem | undefined {
  if (current && current.Id !== event.Id) return current;
  const { Type: _type, At: _at, ...item } = event;
  if (current && current.EndedAt === null && item.EndedAt === null && item.Safe < current.Safe)
    return current;
  return item;
}

/** Applies a hub event to the cached figures and lists of the muster screen. */
export function applyLive(queryClient: QueryClient, event: HubEventOf<'Swipe' | 'Muster'>): void {
  void queryClient.invalidateQueries({ queryKey: [SUMMARY_KEY] });
  if (event.Type === 'Swipe') {
    void reloadList(queryClient, OccupancyApi.name);
    return;
  }
  queryClient.setQueryData<MusterItem>([MUSTER_KEY, event.Id], (current) => applyMusterEvent(current, event));
  void reloadList(queryClient, MusterPersonApi.name);
  void reloadList(queryClient, MusterApi.name);
}

/** Keeps the muster screen live while it is mounted. */
export function useMusterLive(): void {
  const queryClient = useQueryClient();
  useHubEvents(['Swipe', 'Muster'], (event) => applyLive(queryClient, event));
}
