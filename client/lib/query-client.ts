import { QueryClient } from '@tanstack/react-query';
import { getJson } from './api-client';

/**
 * SPEC 7 data defaults: cached data never goes stale, no interval refetch, no refetch on window
 * focus, no retries. The default query fetches the key's first element as a path.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: ({ queryKey }) => getJson(queryKey[0] as string),
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
