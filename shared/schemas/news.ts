import { z } from 'zod';
import { statusTokenSchema } from './email';

/** POST /api/pledges/{id}/news: the status page's choice, with the status link's token. */
export const newsChoiceSchema = statusTokenSchema.extend({
  subscribe: z.boolean({ error: 'subscribe must be true or false' }),
});

/** GET /api/admin/news/subscribers: how many addresses a notification would go to. */
export const subscriberCountSchema = z.object({ count: z.number().int() });
export type SubscriberCount = z.infer<typeof subscriberCountSchema>;

export const UNSUBSCRIBE_LINK_INVALID =
  'This unsubscribe link is not valid. Please use the link in your latest delivery e-mail, or open your pledge status page.';

/** The unsubscribe link's query (its token is checked by the route, one answer for any bad one). */
export const unsubscribeQuerySchema = z.object({
  t: z.string({ error: UNSUBSCRIBE_LINK_INVALID }).max(200, { error: UNSUBSCRIBE_LINK_INVALID }),
});
