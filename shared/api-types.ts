import { z } from 'zod';
import { campaignSchema } from './schemas/campaign';
import { publicPledgeSchema } from './schemas/pledge';
import { progressSchema } from './schemas/progress';
import { deliveryUpdateSchema } from './schemas/update';

export type { ApiError, UploadUrlResponse } from './schemas/api';

/**
 * Data the server places in the HTML as a non-executable JSON script tag (id "initial-data"),
 * so the first screen renders without a request chain. The client imports only the type: the
 * schema stays out of the first load (docs/decisions/007-public-bundle-budget.md).
 */
export const initialDataSchema = z.object({
  campaign: campaignSchema,
  progress: progressSchema,
  pledges: z.array(publicPledgeSchema),
  updates: z.array(deliveryUpdateSchema),
  /** The server's answer to "is this an admin session?" at page load. */
  isAuthenticated: z.boolean(),
});
export type InitialData = z.infer<typeof initialDataSchema>;
