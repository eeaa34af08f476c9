import { z } from 'zod';
import { campaignSchema } from './schemas/campaign';
import { donorPledgeViewSchema } from './schemas/email';
import { publicPledgeSchema } from './schemas/pledge';
import { progressSchema } from './schemas/progress';
import { deliveryUpdateSchema } from './schemas/update';

export type { ApiError, UploadedImage, UploadUrlResponse } from './schemas/api';

/**
 * Data the server places in the HTML as a non-executable JSON script tag (id "initial-data"),
 * so the first screen renders without a request chain. The client imports only the type: the
 * schema stays out of the first load (docs/decisions/007-public-bundle-budget.md).
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the schema spells out the type; nothing validates with it
const initialDataSchema = z.object({
  campaign: campaignSchema,
  progress: progressSchema,
  pledges: z.array(publicPledgeSchema),
  updates: z.array(deliveryUpdateSchema),
  /** The server's answer to "is this an admin session?" at page load. */
  isAuthenticated: z.boolean(),
  /** When the server built this page: relative times ("5 minutes ago") hydrate from it. */
  renderedAt: z.string(),
  /** The server answered this address with 404: the app shows its 404 page for it. */
  notFound: z.boolean().optional(),
  /** The donor status page's pledge, present only on that page with a valid link. */
  pledgeStatus: donorPledgeViewSchema.optional(),
});
export type InitialData = z.infer<typeof initialDataSchema>;

/** What the server passes to the server-side renderer (client/entry-server.tsx) for one page. */
export interface ServerRenderInput {
  /** The request's path and query string ("?t=..." on the status page). */
  pathname: string;
  search: string;
  data: InitialData;
}

/** The server-side renderer's module (dist/ssr/entry-server.js), as the server imports it. */
export interface ServerRenderer {
  /** Loads what an admin's header renders synchronously; awaited once before the first render. */
  prepare(): Promise<void>;
  /** The app's HTML for #root, to be hydrated by client/main.tsx with the same data, and the
   * page's title. */
  render(input: ServerRenderInput): { html: string; title: string };
}
