import { useQuery } from '@tanstack/react-query';
import type { Progress } from '../../../shared/schemas/progress';
import { queryKeys } from '../../lib/query-keys';

/** Campaign totals; seeded from the page's embedded data, so the first render has them. */
export function useProgress() {
  return useQuery<Progress>({ queryKey: queryKeys.progress });
}
