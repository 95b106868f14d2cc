import { QueryClient } from '@tanstack/react-query';

/**
 * Server state. The request client already reports every failure to the user, so a query does not
 * retry (each retry would show the message again), nor refetch on window focus. Data is stale at once,
 * so a page that mounts again (tab refresh, area change) fetches afresh.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
