import { useQueryClient } from '@tanstack/react-query';
import { useHubEvents } from '../../core/hub.ts';

/**
 * Reloads a resource's list when one of the area's hub events says it changed (a device went offline, a
 * swipe arrived): the list's own query refetches, so the filters, sort and page the operator chose stay.
 */
export function useLiveList(resource: string, events: readonly string[]): void {
  const queryClient = useQueryClient();
  useHubEvents(events, () => void queryClient.invalidateQueries({ queryKey: ['list', resource] }));
}
