import { useQuery } from '@tanstack/react-query';
import { progressQuery } from '../../lib/query-keys';

/** Campaign totals; seeded from the page's embedded data, so the first render has them. */
export function useProgress() {
  return useQuery(progressQuery);
}
