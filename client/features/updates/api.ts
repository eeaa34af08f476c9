import { useQuery } from '@tanstack/react-query';
import type { DeliveryUpdate } from '../../../shared/schemas/update';
import { queryKeys } from '../../lib/query-keys';

/**
 * How many updates the page's embedded data carries (server/plugins/spa.ts INITIAL_UPDATES);
 * a list of exactly this many may have more on the server.
 */
export const EMBEDDED_UPDATES = 12;

/** The delivery feed; seeded with the first 12, GET /api/updates (all of them) on demand. */
export function useUpdates() {
  return useQuery<DeliveryUpdate[]>({ queryKey: queryKeys.updates });
}
