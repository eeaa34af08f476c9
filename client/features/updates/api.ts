import { useQuery } from '@tanstack/react-query';
import { updatesQuery } from '../../lib/query-keys';

/** The delivery feed; seeded with the first 12, GET /api/updates (all of them) on demand. */
export function useUpdates() {
  return useQuery(updatesQuery);
}
