import { useQuery } from '@tanstack/react-query';
import type { Campaign } from '@shared/schemas/campaign';
import { campaignQuery } from '../../lib/query-keys';

/** The campaign texts: seeded from the page's embedded data, fetched only when absent (dev server). */
export function useCampaign(): Campaign | undefined {
  return useQuery(campaignQuery).data;
}
