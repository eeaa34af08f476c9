import type { QueryClient } from '@tanstack/react-query';
import type { InitialData } from '@shared/api-types';
import { setCampaignPrices } from '@shared/prices';
import { queryKeys } from './query-keys';

/** Reads the JSON the server placed in the HTML (no request chain before the first render). */
export function readInitialData(): InitialData | undefined {
  const el = document.getElementById('initial-data');
  if (!el?.textContent) return undefined;
  try {
    return JSON.parse(el.textContent) as InitialData;
  } catch {
    return undefined;
  }
}

/**
 * Puts the embedded data in the query cache, on the server before it renders and in the browser
 * before it hydrates: both render from the same cache, so their markup matches.
 */
export function seedQueryCache(client: QueryClient, data: InitialData | undefined) {
  if (!data) return;
  // The campaign's prices before the first render: both renderers show the configured ones.
  setCampaignPrices(data.campaign);
  client.setQueryData(queryKeys.campaign, data.campaign);
  client.setQueryData(queryKeys.progress, data.progress);
  client.setQueryData(queryKeys.recentPledges, data.pledges);
  client.setQueryData(queryKeys.updates, data.updates);
  if (data.pledgeStatus)
    client.setQueryData(queryKeys.pledgeStatus(data.pledgeStatus.id), data.pledgeStatus);
}
