import { useQuery } from '@tanstack/react-query';
import { CAMPAIGN_TIME_ZONE } from '@shared/constants';
import { campaignQuery } from './query-keys';

/**
 * The campaign's time zone (campaign.json's `timeZone`): every admin date is shown in it
 * (shared/dates.ts), whatever the browser's zone. The constant until the campaign has loaded.
 */
export function useCampaignTimeZone(): string {
  return useQuery(campaignQuery).data?.timeZone ?? CAMPAIGN_TIME_ZONE;
}
