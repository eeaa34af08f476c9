import { z } from 'zod';
import { CONTAINER_COUNT_MAX, RECIPIENT_MAX_LENGTH } from '../constants';
import { humanText } from './text';

const COUNT_MESSAGE = 'Container count must be at least 1';
export const NO_CHANGES_MESSAGE = 'No changes detected. Please modify at least one field.';

/** A real calendar date: 2025-02-30 is refused (product rule). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const imageUrlSchema = z
  .string({ error: 'Valid image URL is required' })
  .max(2048, { error: 'Valid image URL is required' })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'Valid image URL is required' },
  );

const recipientSchema = humanText({
  required: 'Recipient is required',
  max: RECIPIENT_MAX_LENGTH,
  tooLong: 'Recipient must be 200 characters or less',
});

const containerCountSchema = z
  .number({ error: COUNT_MESSAGE })
  // Bounds before .int(), so 1e308 reads "too large" rather than "at least 1".
  .min(1, { error: COUNT_MESSAGE })
  .max(CONTAINER_COUNT_MAX, { error: 'Container count is too large' })
  .int({ error: COUNT_MESSAGE });

const deliveryDateSchema = z
  .string({ error: 'Invalid date format' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Invalid date format' })
  .refine(isCalendarDate, { error: 'Invalid date format' });

/** POST /api/updates. */
export const updateCreateSchema = z.object({
  imageUrl: imageUrlSchema,
  recipient: recipientSchema,
  containerCount: containerCountSchema,
  deliveryDate: deliveryDateSchema,
  /**
   * E-mail the update to the addresses that asked for delivery news (shared/news.ts). Absent
   * means no: posting never mails anyone unless the admin chose to.
   */
  notifySubscribers: z.boolean({ error: 'notifySubscribers must be true or false' }).optional(),
});
export type UpdateCreate = z.infer<typeof updateCreateSchema>;

/** PATCH /api/updates/{id}: only the changed fields. */
export const updateEditSchema = z.object({
  updates: z.object(
    {
      imageUrl: imageUrlSchema.optional(),
      recipient: recipientSchema.optional(),
      containerCount: containerCountSchema.optional(),
      deliveryDate: deliveryDateSchema.optional(),
    },
    { error: 'updates must be an object' },
  ),
});
export type UpdateEdit = z.infer<typeof updateEditSchema>;

/** The post form: same rules, with the form's own wording for missing image and date. */
export const updateFormSchema = z.object({
  imageUrl: z.string().min(1, { error: 'Please upload an image first' }).pipe(imageUrlSchema),
  recipient: recipientSchema,
  containerCount: containerCountSchema,
  deliveryDate: z.string().min(1, { error: 'Delivery date is required' }).pipe(deliveryDateSchema),
});
/** The edit form: the image is optional (the current one stays). */
export const updateEditFormSchema = updateFormSchema.extend({
  imageUrl: z.string().optional(),
});

export const deliveryUpdateSchema = z.object({
  id: z.uuid(),
  imageUrl: z.string(),
  recipient: z.string(),
  containerCount: z.number().int(),
  deliveryDate: z.string(),
  createdAt: z.iso.datetime(),
  /** Responsive variants of our own uploads, when the server made them. */
  srcset: z.string().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});
export type DeliveryUpdate = z.infer<typeof deliveryUpdateSchema>;

/** POST /api/updates answers the update and, when the admin chose to notify, how many were mailed. */
export const postedUpdateSchema = deliveryUpdateSchema.extend({
  notified: z.number().int().optional(),
});
export type PostedUpdate = z.infer<typeof postedUpdateSchema>;
