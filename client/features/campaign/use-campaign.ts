import { useQuery } from '@tanstack/react-query';
import type { Campaign } from '../../../shared/schemas/campaign';
import { readInitialData } from '../../lib/initial-data';

const embedded = typeof document !== 'undefined' ? readInitialData()?.campaign : undefined;

/** The campaign texts: embedded in the page by the server, fetched only when absent (dev server). */
export function useCampaign(): Campaign | undefined {
  const { data } = useQuery<Campaign>({
    queryKey: ['/api/campaign'],
    initialData: embedded,
    enabled: !embedded,
  });
  return data;
}
