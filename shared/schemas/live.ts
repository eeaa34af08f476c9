import { z } from 'zod';
import { publicPledgeSchema } from './pledge';
import { progressSchema } from './progress';

/**
 * One event of GET /api/progress/stream: the same public shapes as GET /api/progress and
 * GET /api/pledges?limit=8, so the page puts them straight into the caches those requests fill.
 */
export const liveEventSchema = z.object({
  progress: progressSchema,
  pledges: z.array(publicPledgeSchema),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;
