import { useQuery } from '@tanstack/react-query';
import type { Campaign } from '../../../shared/schemas/campaign';
import { readInitialData } from '../../lib/initial-data';
import { campaignQuery } from '../../lib/query-keys';

const embedded = typeof document !== 'undefined' ? readInitialData()?.campaign : undefined;

/** The campaign texts: embedded in the page by the server, fetched only when absent (dev server). */
export function useCampaign(): Campaign | undefined {
  const { data } = useQuery({
    ...campaignQuery,
    initialData: embedded,
    enabled: !embedded,
  });
  return data;
}
