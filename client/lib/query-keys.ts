import { queryOptions } from '@tanstack/react-query';
import { RECENT_PLEDGES_LIMIT } from '@shared/constants';
import type { Campaign } from '@shared/schemas/campaign';
import type { Pledge } from '@shared/schemas/pledge';
import type { Progress } from '@shared/schemas/progress';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { setCampaignPrices } from '@shared/prices';
import { getJson } from './api-client';

/**
 * Query keys shared by features (features do not import each other): a mutation anywhere
 * invalidates by these prefixes, so every list that shows the data refreshes. Keys name the data,
 * not the URL; each query's URL lives in its factory below.
 */
export const queryKeys = {
  progress: ['progress'] as const,
  /** Every pledge list: the newest on the home (public and admin views) and the admin table. */
  pledges: ['pledges'] as const,
  recentPledges: ['pledges', 'recent'] as const,
  /** The same list with the admin session (paid status, real names): its own cache entry. */
  adminRecentPledges: ['pledges', 'recent', 'admin'] as const,
  /** Admin table pages: ['pledges', 'admin-table', params]. */
  adminPledges: ['pledges', 'admin-table'] as const,
  updates: ['updates'] as const,
  campaign: ['campaign'] as const,
  /** The donor's own pledge on the status page. */
  pledgeStatus: (id: string) => ['pledge-status', id] as const,
};

/** Everything that shows pledges or totals, for invalidation after a pledge changes. */
export const pledgeRelatedKeys = [queryKeys.progress, queryKeys.pledges];

/** Campaign totals; seeded from the page's embedded data, so the first render has them. */
export const progressQuery = queryOptions({
  queryKey: queryKeys.progress,
  queryFn: () => getJson<Progress>('/api/progress'),
});

/**
 * The newest pledges (GET /api/pledges?limit=8, never the whole list). The admin view (isPaid,
 * real names) is its own cache entry: the same request, sent with the session.
 */
export const recentPledgesQuery = (admin: boolean) =>
  queryOptions({
    queryKey: admin ? queryKeys.adminRecentPledges : queryKeys.recentPledges,
    queryFn: () => getJson<Pledge[]>(`/api/pledges?limit=${RECENT_PLEDGES_LIMIT}`),
  });

/** Every delivery update (the page's embedded list carries the first few). */
export const updatesQuery = queryOptions({
  queryKey: queryKeys.updates,
  queryFn: () => getJson<DeliveryUpdate[]>('/api/updates'),
});

export const campaignQuery = queryOptions({
  queryKey: queryKeys.campaign,
  // Only without embedded data (the dev server): the prices follow the fetched campaign.
  queryFn: () =>
    getJson<Campaign>('/api/campaign').then((campaign) => {
      setCampaignPrices(campaign);
      return campaign;
    }),
});
