import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { HubEventOf, HubEventType, Page } from '@gatehouse/shared';
import { useHubEvents } from '../../core/hub.ts';
import type { Row } from '../../components/list-page/index.ts';

/** A list's cached pages: its key is ['list', name, areaId, query] (ListPage). */
const listKey = (name: string): QueryKey => ['list', name];

/** Loads a list again: its own query refetches, so the filters, sort and page the operator chose stay. */
export function reloadList(queryClient: QueryClient, name: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: listKey(name) });
}

/** Changes the rows of every cached page of a list in place, without asking the server. */
export function patchListRows<T extends Row>(
  queryClient: QueryClient,
  name: string,
  patch: (row: T) => T,
): void {
  queryClient.setQueriesData<Page<T>>({ queryKey: listKey(name) }, (page) =>
    page ? { ...page, Items: page.Items.map(patch) } : page,
  );
}

/** What a hub event does to a list: its rows change in place, or the list is asked for again. */
export interface LiveList<K extends HubEventType> {
  /** The list (its API resource's name). */
  name: string;
  events: readonly K[];
  /** Applies the event to the cached pages; false when only asking again can show it. */
  apply?(event: HubEventOf<K>, queryClient: QueryClient): boolean;
}

/**
 * Keeps a list live from the area's hub: an event the list can apply (a device's state, a swipe record) is
 * written into its cached pages; any other reloads the list.
 */
export function useLiveList<K extends HubEventType>({ name, events, apply }: LiveList<K>): void {
  const queryClient = useQueryClient();
  useHubEvents(events, (event) => {
    if (!apply?.(event, queryClient)) void reloadList(queryClient, name);
  });
}
