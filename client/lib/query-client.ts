import { QueryClient } from '@tanstack/react-query';

/**
 * Data defaults (product rule): cached data never goes stale, no interval refetch, no refetch on
 * window focus, no retries. Each query brings its own fetch (the factories in query-keys.ts).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
