import { z } from 'zod';
import { CURRENCIES } from '../constants';
import { paymentStateSchema, pledgeStatusSchema } from './pledge';

/**
 * The donor's own view of a pledge on the status page (docs/decisions/014-email-outbox.md): never
 * the e-mail address.
 */
export const donorPledgeViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  amount: z.number().int(),
  currency: z.enum(CURRENCIES),
  containers: z.number().int(),
  createdAt: z.iso.datetime(),
  /** pending, part-paid, paid or over-paid (shared/received.ts). */
  status: paymentStateSchema,
  reference: z.string(),
  amountReceived: z.number().nullable(),
  currencyReceived: z.enum(CURRENCIES).nullable(),
  /** Still owed, in the pledge's currency. */
  outstandingAmount: z.number(),
  /** In cents: what arrived (of currencyReceived), credited (pledge currency), owed, over paid. */
  amountReceivedMinor: z.number().int().nullable().optional(),
  receivedMinor: z.number().int().optional(),
  outstandingMinor: z.number().int().optional(),
  overpaidMinor: z.number().int().optional(),
  paymentConfirmedAt: z.iso.datetime().nullable(),
  /** When the donor pressed "I've sent the transfer". */
  donorSaysSentAt: z.iso.datetime().nullable(),
  /** open, cancelled, lapsed or released (docs/decisions/019-reminders-and-lapse.md). */
  pledgeStatus: pledgeStatusSchema.optional(),
  /** This pledge's consent to delivery news stands ("E-mail me when containers are delivered"). */
  deliveryNews: z.boolean().optional(),
});
export type DonorPledgeView = z.infer<typeof donorPledgeViewSchema>;

/** GET /api/pledges/{id}/status?t= and POST /api/pledges/{id}/sent {t}. */
export const statusTokenSchema = z.object({
  t: z
    .string({ error: 'Pledge not found' })
    .min(1, { error: 'Pledge not found' })
    .max(200, { error: 'Pledge not found' }),
});

export const EMAIL_KIND_LABELS = {
  instructions: 'Payment instructions',
  receipt: 'Receipt',
  reminder: 'Reminder',
  delivery_news: 'Delivery news',
} as const;

/** One e-mail of a pledge, as the admin sees it. */
const adminEmailMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(['instructions', 'receipt', 'reminder', 'delivery_news']),
  status: z.enum(['sent', 'waiting', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type AdminEmailMessage = z.infer<typeof adminEmailMessageSchema>;

/** GET /api/admin/pledges/{id}/emails and the resend's answer. */
export const adminEmailListSchema = z.object({ items: z.array(adminEmailMessageSchema) });
