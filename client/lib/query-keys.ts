import { RECENT_PLEDGES_LIMIT } from '../../shared/constants';

/**
 * Query keys shared by features (features do not import each other): a mutation anywhere
 * invalidates by these prefixes, so every list that shows the data refreshes.
 */
export const queryKeys = {
  progress: ['/api/progress'] as const,
  recentPledges: [`/api/pledges?limit=${RECENT_PLEDGES_LIMIT}`] as const,
  /** Admin table pages: ['/api/admin/pledges', params]. */
  adminPledges: ['/api/admin/pledges'] as const,
  updates: ['/api/updates'] as const,
  adminCheck: ['/api/admin/check'] as const,
};

/** Everything that shows pledges or totals, for invalidation after a pledge changes. */
export const pledgeRelatedKeys = [
  queryKeys.progress,
  queryKeys.recentPledges,
  queryKeys.adminPledges,
  ['/api/pledges'] as const,
];
